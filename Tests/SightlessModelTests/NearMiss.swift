import Sightless
import Testing

// Near-misses: invalid configurations as scenarios. A near-miss is a valid generated scenario
// with one mutation (`MMutation`) that the graph rules refuse, or, where the rules cannot see
// it, let pass. `MStructure` predicts, from the rules as their sources document them, whether
// each member of the family builds when it is made (the root with its templates, then one
// plain child of each child spec, parents first), and if not, the kinds of the problems and
// the keys they name; `runStructure` makes the same members through the public API and
// collects `InjectionError.problems`. The two are compared as sets of "kind key".

/// One change that makes a valid configuration a near-miss.
enum MMutation: String, CaseIterable, Sendable {
    /// A binding removed: `missingBinding` for each binding whose initializer needs it, as an
    /// argument or a property (a closure's or provider's needs are not seen by the graph, and an
    /// optional one is `nil` instead), `unusedDeclaration` for the decorators and overrides of
    /// its key.
    case removedBinding
    /// An initializer made to need a key that needs it, or itself, as an argument or a property,
    /// optional or not (the key is bound): `cyclicDependency`, since a property is set while its
    /// owner is built, before anyone else gets it.
    case closedCycle
    /// A scope changed so that a kept or weak value holds a shorter-lived one it needs at once
    /// (`scopeConflict`), and whatever else the new scope is refused for (an awaited value in
    /// a scope that keeps only synchronous ones).
    case shorterLivedHeld
    /// A module of some of a spec's bindings installed twice: `duplicateBinding` for each.
    case installedTwice
    /// Modules that install each other (or one that installs itself): `cyclicInstall`.
    case installRing
    /// A child's module binds a key its parent binds: `duplicateBinding`.
    case boundAgainInChild
    /// An initializer's dependency named as a key of another type under the same name (a
    /// lookalike of the key): `missingBinding` of that key.
    case lookalikeType
    /// A child's decorator of a key its parent binds, which the child does not bind itself:
    /// `unusedDeclaration` (the value is the parent's, shared by the family).
    case decoratorOfParentKey
    /// The root made with `Injector(modules:)` where an eager singleton of it needs `await`
    /// (one that is, or one made so): `needsAwait`, which `Injector.start` would have built.
    case eagerNotStarted
    /// Two entries of one key of `M` among a spec's modules, or a child's module entry of a key
    /// its parent contributes: `duplicateBinding` of the map (`Collections.swift`).
    case duplicateMapKey
    /// The root's candidates for `P` removed (`missingBinding` of `P` where an initializer needs
    /// it, `unusedDeclaration` of an override of it), or made two or more
    /// (`ambiguousBinding`, unless a binding or an override of `P` wins over them).
    case candidates
}

struct MNearMiss: Sendable, CustomStringConvertible {
    var scenario: MScenario
    var mutation: MMutation
    var change: String

    var description: String {
        "near-miss \(mutation.rawValue) (\(change)) of \(scenario)\n  each member made: the root and its templates, then a child of each child spec"
    }
}

/// A dependency on a lookalike of a key: `Key<MLookalike>(named:)` of the key's name.
enum MLookalike {
    static let prefix = "="
    static func split(_ dep: String) -> (key: String, lookalike: Bool) {
        dep.hasPrefix(prefix) ? (String(dep.dropFirst()), true) : (dep, false)
    }

    static func describe(_ dep: String) -> String {
        let (key, lookalike) = split(dep)
        return lookalike ? "\(key) of another type" : MVia.describe(dep)
    }
}

/// The problem as the comparison writes it: the kind and the key (`-`: none).
func problemText(_ kind: InjectionError.Kind, _ key: String?) -> String { "\(kind.id) \(key ?? "-")" }

// MARK: - The generator of near-misses

extension MScenario {
    /// Whether the seed's scenario is a near-miss: one in five.
    static func isNearMiss(seed: UInt64) -> Bool { seed % 5 == 4 }

    /// A near-miss of the valid scenario of `seed`, or `nil` when no mutation whose outcome
    /// the rules state applies to it.
    static func nearMiss(seed: UInt64, listed: Set<KnownCause> = KnownCause.listed) -> MNearMiss? {
        let base = MScenario(seed: seed)
        // An eager singleton whose build fails when its member is made fails it beyond any rule:
        // such a family is no near-miss's base.
        guard !base.eagerBuildFails else { return nil }
        var random = SplitMix(seed: seed ^ 0x4E45_4152_4D49_5353)
        for _ in 0..<24 {
            let mutation = random.pick(MMutation.allCases)
            guard let mutated = base.mutated(by: mutation, random: &random) else { continue }
            var scenario = mutated.0
            let change = mutated.1
            scenario.ops = []
            scenario.lifecycle = MLifecycle()
            // Only a mutation whose outcome the rules state is kept, and none whose outcome
            // a listed defect changes.
            let structure = MStructure(scenario: scenario)
            guard structure.isPredictable else { continue }
            if listed.contains(.captiveDependencyOnParentNotReported),
               MStructure(scenario: scenario, parentsValuesCaptive: false).outcomes != structure.outcomes { continue }
            return MNearMiss(scenario: scenario, mutation: mutation, change: change)
        }
        return nil
    }

    /// Whether, by the reference model, an eager singleton's build fails when its member is
    /// made (the root with its templates, then a child of each child spec).
    var eagerBuildFails: Bool {
        var structural = self
        structural.ops = []
        var model = ReferenceModel(scenario: structural)
        if !model.setUp().outcomes.isEmpty { return true }
        for (index, spec) in specs.enumerated() where index > 0 {
            if !model.perform(.makeChild(parent: spec.parent!, spec: index, id: index)).outcomes.isEmpty { return true }
        }
        return false
    }

    /// Every key that an eager singleton's build reaches (by its spec and key): a near-miss
    /// removes none of them, since a failed build at the injector's creation is no rule's.
    private var reachedByEager: Set<String> {
        var reached: Set<String> = []
        for (index, spec) in specs.enumerated() {
            for binding in spec.effective where binding.scope == .eager {
                for (owner, found) in reach(binding.key, from: index) { reached.insert("\(owner).\(found.key)") }
            }
        }
        return reached
    }

    /// The initializer's dependencies the graph sees, its arguments' then its properties':
    /// each key, whether it is taken through a `Lazy` (built later, so no cycle and no await
    /// through it), and whether it is optional (never missing; an edge where it is bound, as
    /// any other).
    static func edges(of binding: MBinding) -> [(key: String, deferred: Bool, lookalike: Bool, optional: Bool)] {
        guard binding.kind == .type || binding.kind == .asyncInitializer else { return [] }
        return (binding.deps + binding.props).map { dep in
            let (name, lookalike) = MLookalike.split(dep)
            let (key, via) = MVia.split(name)
            return (key, via == .lazy || via == .factory, lookalike, via == .optional)
        }
    }

    func mutated(by mutation: MMutation, random: inout SplitMix) -> (MScenario, String)? {
        var s = self
        switch mutation {
        case .removedBinding:
            let eager = reachedByEager
            var candidates: [(spec: Int, index: Int)] = []
            for (spec, value) in specs.enumerated() {
                for (index, binding) in value.bindings.enumerated() where !eager.contains("\(spec).\(binding.key)") {
                    candidates.append((spec, index))
                }
            }
            // Mostly a key an initializer needs.
            let needed = candidates.filter { candidate in
                let key = specs[candidate.spec].bindings[candidate.index].key
                return specs.contains { spec in
                    (spec.effective + spec.contributions + (spec.contextual.map { [$0] } ?? [])).contains { binding in
                        MScenario.edges(of: binding).contains { $0.key == key }
                    }
                }
            }
            guard !candidates.isEmpty else { return nil }
            let (spec, index) = !needed.isEmpty && random.chance(75) ? random.pick(needed) : random.pick(candidates)
            let removed = s.specs[spec].bindings.remove(at: index)
            return (s, "spec #\(spec) no longer binds \(removed.key)")
        case .closedCycle:
            // An initializer of a spec's module (not replaced by an override) made to need
            // itself or an initializer of the same spec that needs it at once.
            var candidates: [(spec: Int, index: Int, needs: String)] = []
            for (spec, value) in specs.enumerated() {
                let overridden = Set(value.overrides.map(\.key))
                for (index, binding) in value.bindings.enumerated() where binding.kind == .type && !overridden.contains(binding.key) {
                    for other in value.effective where other.key == binding.key || reachesAtOnce(other.key, binding.key, in: spec) {
                        if !binding.depKeys.contains(other.key) { candidates.append((spec, index, other.key)) }
                    }
                }
            }
            guard !candidates.isEmpty else { return nil }
            let (spec, index, needs) = random.pick(candidates)
            // Through an argument, an optional argument, or a property (of a type that declares
            // them), optional or not: a cycle all the same, since the key is bound.
            let roll = random.below(4)
            let written = roll == 1 || roll == 3 ? "?" + needs : needs
            if roll >= 2 {
                s.specs[spec].bindings[index].props.append(written)
            } else {
                s.specs[spec].bindings[index].deps.append(written)
            }
            return (s, "\(s.specs[spec].bindings[index].key) of spec #\(spec) needs \(MVia.describe(written))\(roll >= 2 ? " as a property" : "") too")
        case .shorterLivedHeld:
            // An initializer's dependency it takes at once, or through a Lazy: the holder kept
            // (or weak), the dependency shorter-lived.
            var candidates: [(spec: Int, index: Int, dep: String, owner: Int)] = []
            for (spec, value) in specs.enumerated() {
                let overridden = Set(value.overrides.map(\.key))
                for (index, binding) in value.bindings.enumerated() where !overridden.contains(binding.key) && binding.scope != .eager {
                    for edge in MScenario.edges(of: binding) where !edge.lookalike {
                        guard let (ownerSpec, found) = owner(of: edge.key, from: spec), let found, found.kind != .instance,
                              found.scope != .eager, found.key != MScenario.jit.key else { continue }
                        candidates.append((spec, index, edge.key, ownerSpec))
                    }
                }
            }
            guard !candidates.isEmpty else { return nil }
            let (spec, index, dep, owner) = random.pick(candidates)
            let heldScope = random.pick([MScope.perRequest, .weak])
            var holderScope = s.specs[spec].bindings[index].scope
            if (holderScope.lifetime ?? 0) <= heldScope.lifetime! {
                holderScope = heldScope == .weak ? random.pick([MScope.singleton, .custom]) : random.pick([MScope.singleton, .custom, .weak])
            }
            // A weak binding with properties is an alias of its type (see the rule's model).
            if holderScope == .weak && !s.specs[spec].bindings[index].props.isEmpty { holderScope = random.pick([MScope.singleton, .custom]) }
            s.specs[spec].bindings[index].scope = holderScope
            if let at = s.specs[owner].overrides.firstIndex(where: { $0.key == dep }) {
                s.specs[owner].overrides[at].scope = heldScope
            } else if let at = s.specs[owner].bindings.firstIndex(where: { $0.key == dep }) {
                s.specs[owner].bindings[at].scope = heldScope
            }
            return (s, "\(s.specs[spec].bindings[index].key) of spec #\(spec) in \(holderScope.rawValue) needs \(dep) of spec #\(owner) in \(heldScope.rawValue)")
        case .installedTwice:
            let specsWithBindings = specs.indices.filter { !specs[$0].bindings.isEmpty }
            guard !specsWithBindings.isEmpty else { return nil }
            let spec = random.pick(specsWithBindings)
            let keys = specs[spec].bindings.map(\.key)
            var chosen = [random.pick(keys)]
            if keys.count > 1 && random.chance(40), let other = keys.first(where: { $0 != chosen[0] }) { chosen.append(other) }
            s.specs[spec].installedTwice = chosen
            return (s, "spec #\(spec) installs the module of \(chosen.joined(separator: ", ")) twice")
        case .installRing:
            let spec = random.below(specs.count)
            let count = 1 + random.below(3)
            s.specs[spec].installRing = count
            return (s, "spec #\(spec) installs a ring of \(count) module\(count == 1 ? "" : "s")")
        case .boundAgainInChild:
            var candidates: [(spec: Int, key: String)] = []
            for (spec, value) in specs.enumerated() {
                guard let parent = value.parent else { continue }
                for key in visibleKeys(from: parent) where ![MScenario.jit.key, "p", MScenario.port].contains(key)
                    && !MScenario.gathered.contains(key)
                    && !value.bindings.contains(where: { $0.key == key }) {
                    candidates.append((spec, key))
                }
            }
            guard !candidates.isEmpty else { return nil }
            let (spec, key) = random.pick(candidates)
            s.specs[spec].bindings.append(MBinding(key: key, kind: .instance, scope: .unscoped, deps: []))
            return (s, "spec #\(spec) binds \(key), which its parent binds, in its module")
        case .lookalikeType:
            var candidates: [(spec: Int, index: Int, dep: Int)] = []
            for (spec, value) in specs.enumerated() {
                for (index, binding) in value.bindings.enumerated() where binding.kind == .type {
                    for (position, dep) in binding.deps.enumerated() where dep != MScenario.jit.key && MVia.split(dep).via == .direct {
                        candidates.append((spec, index, position))
                    }
                }
            }
            guard !candidates.isEmpty else { return nil }
            let (spec, index, position) = random.pick(candidates)
            let dep = s.specs[spec].bindings[index].deps[position]
            s.specs[spec].bindings[index].deps[position] = MLookalike.prefix + dep
            return (s, "\(s.specs[spec].bindings[index].key) of spec #\(spec) needs \(dep) as another type")
        case .decoratorOfParentKey:
            var candidates: [(spec: Int, key: String)] = []
            for (spec, value) in specs.enumerated() {
                guard let parent = value.parent else { continue }
                for key in visibleKeys(from: parent) where ![MScenario.jit.key, "p", MScenario.port].contains(key)
                    && !MScenario.gathered.contains(key)
                    && value.binding(key) == nil {
                    candidates.append((spec, key))
                }
            }
            guard !candidates.isEmpty else { return nil }
            let (spec, key) = random.pick(candidates)
            s.specs[spec].decorators.append(MDecorator(key: key, id: random.below(1000)))
            return (s, "spec #\(spec) decorates \(key), which its parent binds")
        case .eagerNotStarted:
            // An eager singleton of the root that needs await already, or an async singleton of
            // the root (not overridden) made eager.
            let root = specs[0]
            let overridden = Set(root.overrides.map(\.key))
            if let eager = root.effective.first(where: { $0.scope == .eager && needsAwait($0.key, from: 0) }) {
                s.startRoot = false
                return (s, "the root is not started, and its eager \(eager.key) needs await")
            }
            let candidates = root.bindings.indices.filter {
                root.bindings[$0].kind.isAsync && root.bindings[$0].scope == .singleton && !overridden.contains(root.bindings[$0].key)
            }
            guard !candidates.isEmpty else { return nil }
            let index = random.pick(candidates)
            s.specs[0].bindings[index].scope = .eager
            s.startRoot = false
            return (s, "\(root.bindings[index].key), an async singleton of the root, made eager, and the root not started")
        case .duplicateMapKey, .candidates:
            return collectionMutation(mutation, random: &random)
        }
    }

    /// Whether `from`, bound in `spec`, needs `to` at once through initializers of `spec`'s
    /// own bindings.
    func reachesAtOnce(_ from: String, _ to: String, in spec: Int) -> Bool {
        var seen: Set<String> = []
        var stack = [from]
        while let key = stack.popLast() {
            guard seen.insert(key).inserted, let binding = specs[spec].binding(key) else { continue }
            for edge in MScenario.edges(of: binding) where !edge.deferred && !edge.lookalike {
                if edge.key == to { return true }
                stack.append(edge.key)
            }
        }
        return false
    }
}

// MARK: - The prediction

/// What the graph rules report when each member of a scenario's family is made, from the
/// rules' sources: `InstallCycleRule`, `DuplicateBindingRule`, `BoundByParentRule`,
/// `UnmatchedOverrideRule`, `UnboundDecoratorRule`, `MissingBindingRule`, `CycleRule`,
/// `CaptiveDependencyRule` and `AwaitRule`; the other rules have nothing to report in these
/// scenarios. Each graph's roots are its injector's own bindings (its modules' and overrides'),
/// its contributions' and contextual bindings'; a key of a parent is the parent's node, whose
/// dependencies the child's graph does not walk again.
struct MStructure {
    let scenario: MScenario
    /// Whether the prediction is exact: `false` when a graph holds cycles that share keys,
    /// which the cycle rule reports from where it reached them first (not modelled).
    private(set) var isPredictable = true
    /// The problems of each spec's member, as `problemText`.
    private(set) var problems: [[String]] = []

    static let builtIn: Set<String> = ["MLog", "r", "d"]
    /// How a problem names the key of a contextual binding.
    static let contextualName = "a0 for C"

    /// How a problem names a node of the spec's graph: a contribution by its position among the
    /// spec's, the contextual binding as such, any other by its key.
    private func name(_ node: MBinding, in spec: Int) -> String {
        let s = scenario.specs[spec]
        if let index = s.contributions.firstIndex(of: node) { return "contribution \(index + 1)" }
        if let entryName = entryName(node, in: spec) { return entryName }
        if s.contextual == node { return MStructure.contextualName }
        return node.key
    }

    /// Whether a kept value over a shorter-lived value of a parent is refused, as the rule
    /// documents it (`false`: as the library does while `captiveDependencyOnParentNotReported`
    /// is not fixed).
    let parentsValuesCaptive: Bool

    init(scenario: MScenario, parentsValuesCaptive: Bool = true) {
        self.scenario = scenario
        self.parentsValuesCaptive = parentsValuesCaptive
        var awaited: [Int: Set<String>] = [:]
        for spec in scenario.specs.indices {
            let (found, exact) = problemsOf(spec, awaited: &awaited)
            problems.append(found.sorted())
            if !exact { isPredictable = false }
        }
    }

    /// Whether each spec's member is made (its parents made, its own graph without problem):
    /// `nil` for a member not made because a parent was not.
    var outcomes: [[String]?] {
        var result: [[String]?] = []
        for (index, spec) in scenario.specs.enumerated() {
            if let parent = spec.parent, result[parent].map(\.isEmpty) != true {
                result.append(nil)
            } else {
                result.append(problems[index])
            }
        }
        return result
    }

    // MARK: Facts of one graph

    /// The keys the spec's own injector binds (its modules' and overrides'), less the provided
    /// `p` of a template and the collection.
    private func ownKeys(_ spec: Int) -> Set<String> {
        var keys = Set(scenario.specs[spec].effective.map(\.key))
        if spec == 0 { keys.formUnion(MStructure.builtIn) }
        return keys
    }

    /// Whether the spec's injector binds the key: its own bindings, a template's provided
    /// value, its collection.
    private func binds(_ spec: Int, _ key: String) -> Bool {
        let s = scenario.specs[spec]
        return ownKeys(spec).contains(key) || (s.isTemplate && key == "p") || (!s.contributions.isEmpty && key == MScenario.collection)
            || gatheredKeys(spec).contains(key)
    }

    private func ancestorBinds(_ spec: Int, _ key: String) -> Bool {
        var current = scenario.specs[spec].parent
        while let index = current {
            if binds(index, key) { return true }
            current = scenario.specs[index].parent
        }
        return false
    }

    /// Whether a node of the key can be found from the spec's graph.
    private func resolvable(_ spec: Int, _ key: String) -> Bool {
        key == MScenario.jit.key || binds(spec, key) || ancestorBinds(spec, key)
    }

    /// The bindings whose recipes the spec's graph holds: its own bindings, contributions and
    /// contextual binding.
    private func nodes(_ spec: Int) -> [MBinding] {
        let s = scenario.specs[spec]
        return s.effective + s.contributions + (s.contextual.map { [$0] } ?? []) + gatheredNodes(spec)
    }

    /// The nearest spec from `spec` up whose injector binds the key.
    private func ownerSpec(_ spec: Int, _ key: String) -> Int? {
        var current: Int? = spec
        while let index = current {
            if binds(index, key) { return index }
            current = scenario.specs[index].parent
        }
        return nil
    }

    /// The keys of the spec's graph's own nodes that need `await` (an `async` build, or a
    /// dependency taken at once that needs it, a parent's as its own graph decided), to a
    /// fixed point as the graph's meanings are decided.
    private func awaitedKeys(_ spec: Int, _ memo: inout [Int: Set<String>]) -> Set<String> {
        if let known = memo[spec] { return known }
        let own = nodes(spec)
        var awaited = Set(own.filter(\.kind.isAsync).map(\.key))
        var changed = true
        while changed {
            changed = false
            for node in own where !awaited.contains(node.key) {
                for edge in MScenario.edges(of: node) where !edge.deferred && !edge.lookalike {
                    let needs: Bool
                    if ownKeys(spec).contains(edge.key) {
                        needs = awaited.contains(edge.key)
                    } else if let owner = ownerSpec(spec, edge.key), owner != spec {
                        needs = awaitedKeys(owner, &memo).contains(edge.key)
                    } else {
                        needs = false
                    }
                    if needs {
                        awaited.insert(node.key)
                        changed = true
                        break
                    }
                }
            }
        }
        memo[spec] = awaited
        return awaited
    }

    /// How long a binding's value lives, as `ScopeLifetime` orders it: none (unscoped, and an
    /// instance, whose binding has no scope), request, weak, injector.
    private static func lifetime(_ binding: MBinding) -> Int {
        if binding.kind == .instance { return 0 }
        return binding.scope.lifetime ?? 0
    }

    /// The order the graph reaches its nodes in: each root (the module's bindings as declared,
    /// the root's own keys first, then the overrides that add keys), then its dependencies
    /// depth first, as the compiler discovers them.
    private func discoveryOrder(_ spec: Int) -> [String: Int] {
        let s = scenario.specs[spec]
        var roots = spec == 0 ? ["MLog", "r", "d"] : []
        roots += s.bindings.map(\.key)
        roots += s.overrides.map(\.key).filter { key in !s.bindings.contains { $0.key == key } }
        var index: [String: Int] = [:]
        var pending: [String] = []
        func add(_ key: String) {
            guard index[key] == nil, resolvable(spec, key) else { return }
            index[key] = index.count
            if ownKeys(spec).contains(key) { pending.append(key) }
        }
        for root in roots {
            add(root)
            while let key = pending.popLast() {
                guard let binding = s.binding(key) else { continue }
                for edge in MScenario.edges(of: binding) where !edge.lookalike { add(edge.key) }
            }
        }
        return index
    }

    // MARK: The rules

    private func problemsOf(_ spec: Int, awaited memo: inout [Int: Set<String>]) -> (Set<String>, Bool) {
        let s = scenario.specs[spec]
        var found: Set<String> = []
        var exact = true
        // InstallCycleRule: the ring, once.
        if s.installRing > 0 { found.insert(problemText(.cyclicInstall, nil)) }
        // DuplicateBindingRule: the keys of the module installed twice.
        for key in s.installedTwice { found.insert(problemText(.duplicateBinding, key)) }
        // BoundByParentRule: a child's module binding a key of its parent's.
        if spec != 0 {
            for binding in s.bindings where ancestorBinds(spec, binding.key) { found.insert(problemText(.duplicateBinding, binding.key)) }
        }
        // UnmatchedOverrideRule: an override of a key neither the modules nor a parent bind.
        for override in s.overrides {
            let bound = spec == 0
                ? s.bindings.contains { $0.key == override.key } || MStructure.builtIn.contains(override.key)
                    || (override.key == MScenario.port && !s.candidates.isEmpty)
                    || (!s.contributions.isEmpty && override.key == MScenario.collection)
                : ancestorBinds(spec, override.key)
            if !bound { found.insert(problemText(.unusedDeclaration, override.key)) }
        }
        // UnboundDecoratorRule: a decorator of a key the injector does not bind.
        for decorator in s.decorators where !ownKeys(spec).contains(decorator.key) {
            found.insert(problemText(.unusedDeclaration, decorator.key))
        }
        found.formUnion(collectionProblems(spec))
        let graph = nodes(spec)
        // MissingBindingRule: an initializer's dependency nothing provides (a lookalike is a
        // key of another type, which nothing binds).
        for node in graph {
            for edge in MScenario.edges(of: node) where edge.lookalike || (!edge.optional && !resolvable(spec, edge.key)) {
                found.insert(problemText(.missingBinding, edge.lookalike ? MLookalike.prefix + edge.key : edge.key))
            }
        }
        // CycleRule: over the edges built at once between the graph's own nodes.
        let own = ownKeys(spec)
        var successors: [String: [String]] = [:]
        for node in s.effective {
            successors[node.key] = MScenario.edges(of: node).filter { !$0.deferred && !$0.lookalike && own.contains($0.key) }.map(\.key)
        }
        func reaches(_ from: String, _ to: String) -> Bool {
            var seen: Set<String> = []
            var stack = successors[from] ?? []
            while let key = stack.popLast() {
                if key == to { return true }
                if seen.insert(key).inserted { stack += successors[key] ?? [] }
            }
            return false
        }
        let order = discoveryOrder(spec)
        var covered: Set<String> = []
        for key in successors.keys.sorted(by: { (order[$0] ?? .max) < (order[$1] ?? .max) }) where !covered.contains(key) && reaches(key, key) {
            let component = successors.keys.filter { $0 == key || (reaches(key, $0) && reaches($0, key)) }
            covered.formUnion(component)
            // One cycle: each key of the component needs exactly one other of it.
            guard component.allSatisfy({ member in Set(successors[member]!.filter(component.contains)).count == 1 }) else {
                exact = false
                continue
            }
            // Written from the key reached first, or from the first override on the way.
            var cycle = [key]
            while let next = successors[cycle.last!]!.first(where: component.contains), next != key { cycle.append(next) }
            let overridden = Set(s.overrides.map(\.key))
            found.insert(problemText(.cyclicDependency, cycle.first { overridden.contains($0) } ?? key))
        }
        // CaptiveDependencyRule: a kept or weak value's dependency kept shorter, but kept. A
        // weak binding with properties is an alias of its type, which it keeps: the rule reads
        // the alias's one dependency, the type, unscoped, and so reports nothing of it.
        for node in graph where node.props.isEmpty || node.scope.keeps {
            let holder = MStructure.lifetime(node)
            guard holder > 1 else { continue }
            for edge in MScenario.edges(of: node) where !edge.lookalike {
                guard let owner = ownerSpec(spec, edge.key), owner == spec || parentsValuesCaptive,
                      let held = scenario.specs[owner].binding(edge.key) else { continue }
                let lifetime = MStructure.lifetime(held)
                if lifetime != 0 && lifetime < holder { found.insert(problemText(.scopeConflict, name(node, in: spec))) }
            }
        }
        // AwaitRule: a value that needs await in a scope that keeps only synchronous builds, or
        // an eager one of an injector that does not await them.
        let awaited = awaitedKeys(spec, &memo)
        for node in graph where awaited.contains(node.key) {
            if [MScope.weak, .perRequest, .custom].contains(node.scope) {
                found.insert(problemText(.scopeConflict, name(node, in: spec)))
            } else if node.scope == .eager && !(spec == 0 && scenario.startRoot) {
                found.insert(problemText(.needsAwait, name(node, in: spec)))
            }
        }
        return (found, exact)
    }
}

// MARK: - The library's side

/// The name of a key as the scenario writes it.
func scenarioName(_ key: AnyKey?) -> String? {
    guard let key else { return nil }
    // A contribution's own key, and a contextual binding's, are named by the library.
    if let name = key.name, let match = name.firstMatch(of: #/contribution [0-9]+/#) { return String(match.output) }
    if let name = key.name, name.contains(", when injected into \(Consumer.self)") { return MStructure.contextualName }
    if ObjectIdentifier(key.type) == ObjectIdentifier(MLookalike.Node.self) { return MLookalike.prefix + (key.name ?? "") }
    // The type a binding with properties aliases is named for the binding's key.
    if let name = key.name, let at = name.firstIndex(of: "@") { return String(name[..<at]) }
    if let name = key.name { return name }
    if ObjectIdentifier(key.type) == ObjectIdentifier(JitShared.self) { return MScenario.jit.key }
    if ObjectIdentifier(key.type) == ObjectIdentifier(Consumer.self) { return MScenario.consumer }
    if ObjectIdentifier(key.type) == ObjectIdentifier([MNode].self) { return MScenario.collection }
    if ObjectIdentifier(key.type) == ObjectIdentifier(Set<MNode>.self) { return MScenario.set }
    if ObjectIdentifier(key.type) == ObjectIdentifier([String: MNode].self) { return MScenario.map }
    if ObjectIdentifier(key.type) == ObjectIdentifier(MNode.self) || key.type is any MCandidateNode.Type { return MScenario.port }
    return key.typeName
}

extension MLookalike {
    /// A type of its own that nothing binds, named like `MNode`'s keys.
    final class Node: Sendable {}
}

/// Makes each member of the family through the public API, as `MStructure.outcomes` lists
/// them: the problems of each spec's member (`[]`: made), `nil` for one whose parent was not.
func runStructure(_ scenario: MScenario) async -> [[String]?] {
    let runner = LibraryRunner(scenario: scenario)
    var injectors: [Int: Injector] = [:]
    var templates: [Int: ChildTemplate<MNode>] = [:]
    var result: [[String]?] = []
    func problems(_ error: InjectionError) -> [String] {
        Array(Set(error.problems.map { problemText($0.kind, scenarioName($0.key)) })).sorted()
    }
    for (index, spec) in scenario.specs.enumerated() {
        let (modules, overrides) = runner.modules(index)
        do throws(InjectionError) {
            if index == 0 {
                injectors[0] = scenario.startRoot ? try await Injector.start(modules: modules, overrides: overrides)
                    : try Injector(modules: modules, overrides: overrides)
            } else {
                // The parent: a member made of the parent's spec, or a child of a template.
                guard let parent = spec.parent, result[parent].map(\.isEmpty) == true else {
                    result.append(nil)
                    continue
                }
                let parentInjector: Injector
                if let template = templates[parent] {
                    parentInjector = try template.child(MNode.make("p", [], runner.log))
                } else {
                    parentInjector = injectors[parent]!
                }
                if spec.isTemplate {
                    templates[index] = try parentInjector.childTemplate(providing: Key<MNode>(named: "p"), modules: modules, overrides: overrides)
                } else {
                    injectors[index] = try parentInjector.child(modules: modules, overrides: overrides)
                }
            }
            result.append([])
        } catch {
            result.append(problems(error))
        }
    }
    return result
}

/// Runs a near-miss on the model and the library; `nil` when they agree.
func checkNearMiss(_ nearMiss: MNearMiss, coverage: Coverage? = nil) async -> ModelFailure? {
    let expected = MStructure(scenario: nearMiss.scenario).outcomes
    let actual = await runStructure(nearMiss.scenario)
    func describe(_ outcome: [String]?) -> String {
        guard let outcome else { return "not made (its parent was not)" }
        return outcome.isEmpty ? "made" : "refused: \(outcome.joined(separator: ", "))"
    }
    for (index, (want, got)) in zip(expected, actual).enumerated() where want != got {
        let missing = Set(want ?? []).subtracting(got ?? []).sorted(), extra = Set(got ?? []).subtracting(want ?? []).sorted()
        return ModelFailure(category: "near-miss \(nearMiss.mutation.rawValue)", step: index,
                            detail: "spec #\(index): expected \(describe(want)), library \(describe(got))"
                                + (missing.isEmpty ? "" : "; not reported: \(missing.joined(separator: ", "))")
                                + (extra.isEmpty ? "" : "; not predicted: \(extra.joined(separator: ", "))"))
    }
    coverage?.add("near-miss \(nearMiss.mutation.rawValue)")
    let bindings = nearMiss.scenario.specs.flatMap { $0.effective }
    if bindings.contains(where: { !$0.props.isEmpty }) { coverage?.add("near-miss with properties") }
    let unbound = bindings.flatMap { $0.deps + $0.props }.filter { dep in
        let (key, via) = MVia.split(dep)
        return via == .optional && !nearMiss.scenario.specs.contains { $0.binding(key) != nil }
    }
    if !unbound.isEmpty { coverage?.add("near-miss with an optional of an unbound key") }
    if nearMiss.mutation == .closedCycle && nearMiss.change.contains("as a property") { coverage?.add("near-miss cycle through a property") }
    if nearMiss.mutation == .closedCycle && nearMiss.change.contains("?") { coverage?.add("near-miss cycle through an optional") }
    let all = expected.compactMap { $0 }.flatMap { $0 }
    if all.isEmpty { coverage?.add("near-miss built") }
    for kind in Set(all.map { String($0.split(separator: " ")[0]) }) { coverage?.add("rule \(kind)") }
    return nil
}

// MARK: - The near-misses' own checks

@Suite("Model: near-misses, invalid configurations the rules refuse")
struct NearMissTests {
    @Test("the rules' model finds nothing to refuse in any valid generated scenario")
    func validScenariosBuild() {
        for seed in (0..<UInt64(2_000)).map({ 0x30DE_0000 + $0 }) {
            let structure = MStructure(scenario: MScenario(seed: seed))
            #expect(structure.isPredictable, "seed \(seed)")
            #expect(structure.problems.allSatisfy { $0.isEmpty }, "seed \(seed): \(structure.problems)")
        }
    }

    @Test("the near-misses of the default seeds draw every mutation, and most are refused")
    func nearMissesDrawEveryMutation() {
        let nearMisses = (0..<UInt64(2_000)).map { 0x30DE_0000 + $0 }.filter(MScenario.isNearMiss(seed:)).compactMap { MScenario.nearMiss(seed: $0) }
        #expect(nearMisses.count > 350)
        for mutation in MMutation.allCases { #expect(nearMisses.contains { $0.mutation == mutation }, "\(mutation)") }
        let refused = nearMisses.filter { !MStructure(scenario: $0.scenario).problems.allSatisfy(\.isEmpty) }
        #expect(refused.count * 10 > nearMisses.count * 8)
    }

    @Test("a near-miss the library shows differently from the model is a disagreement")
    func disagreementIsReported() async {
        var scenario = MScenario(seed: 0, specs: [MSpec(name: "root", bindings: [
            MBinding(key: "a0", kind: .type, scope: .unscoped, deps: ["a1"]),
        ])], startRoot: false, ops: [])
        let nearMiss = MNearMiss(scenario: scenario, mutation: .removedBinding, change: "a1 removed")
        #expect(MStructure(scenario: scenario).problems == [["missingBinding a1"]])
        #expect(await checkNearMiss(nearMiss) == nil)
        // A prediction that leaves the problem out disagrees.
        scenario.specs[0].bindings[0].deps = []
        #expect(MStructure(scenario: scenario).problems == [[]])
        #expect(await runStructure(nearMiss.scenario) == [["missingBinding a1"]])
    }
}
