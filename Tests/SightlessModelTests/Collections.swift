import Sightless

// Sets, maps, candidates and depth in the model suite: what the generator draws of them, what
// the reference model predicts from the documentation (Composition.md: multibindings and
// auto-wiring; Errors.md: `duplicateBinding`, `ambiguousBinding`, `tooDeep`), how the runner
// binds and requests them through the public API, their features, their near-misses and what
// the graph rules report for them.
//
// - `S` is `Set<MNode>`: each contribution a binding of its own, or an alias of a key of
//   `MNode` (`to(Key<MNode>(named:))`), whose element is that key's value: two aliases of one
//   kept key are one element (equal elements count once; an `MNode` is equal to itself alone).
// - `M` is `[String: MNode]`: each entry a binding of its own under a map key; an override's
//   entry replaces the entry of its key (the modules', or a parent's in a child), and adds any
//   other; two entries of one key among one injector's modules, or a child's module entry of a
//   key its parent contributes, are `duplicateBinding`.
// - A child's set and map hold its parent's contributions and its own; the parent's hold its own.
// - `P` is `Key<MNode>()`, the root's candidates' key: bound to its only candidate (an
//   `Injectable` type built just in time, in the scope it declares) when nothing binds it; an
//   explicit binding or an override wins over its candidates; two or more candidates and no
//   binding are `ambiguousBinding`, none and no binding a `missingBinding` where an initializer
//   needs it.
// - A chain of `async` closures `q0 … q5000`, each asking its resolver for the next (5,001
//   links from `q0`), takes two awaited levels a link: 5,000 links build, 5,001 are `tooDeep`
//   (a request nests at most 10,000 levels of builds that await); a recursion of `r` a million
//   levels deep is `tooDeep` on any thread's stack.

/// A contribution to `Set<MNode>` (`S`) or an entry of `[String: MNode]` (`M`).
struct MEntry: Sendable, Equatable {
    /// Its own binding, whose key (`s…`, `m…`) only names it; `isOverride`: an override
    /// module's contribution. An alias's binding is an initializer of the aliased key, as the
    /// graph sees it.
    var binding: MBinding
    /// For a set: the key of `MNode` it is an alias of.
    var alias: String?
    /// For a map: the entry's key.
    var mapKey: String?
}

extension MScenario {
    /// The set of contributions, `Set<MNode>`.
    static let set = "S"
    /// The map of contributions, `[String: MNode]`.
    static let map = "M"
    /// `Key<MNode>()`, which the root's candidates implement.
    static let port = "P"
    /// The collections gathered from contributions, which nothing but a request needs.
    static let gathered: Set<String> = [MScenario.collection, MScenario.set, MScenario.map]
    /// The awaited chain: `q0` needs `q1` … needs `q5000`, each an `async` closure.
    static let chainLength = 5_001
    /// How many levels of builds that await one request may nest.
    static let awaitedLevels = 10_000
    /// A recursion of `r` deeper than any thread's stack holds.
    static let endlessDepth = 1_000_000

    /// The candidate `P` is bound to, in the root: its only one, when nothing binds `P`.
    var autoWired: MBinding? {
        guard specs[0].binding(MScenario.port) == nil, specs[0].candidates.count == 1 else { return nil }
        return specs[0].candidates[0]
    }

    /// The collections and `P` a spec sees, beside `keys`.
    func gatheredKeys(of spec: MSpec, beside keys: [String]) -> [String] {
        var result: [String] = []
        if !spec.setEntries.isEmpty && !keys.contains(MScenario.set) { result.append(MScenario.set) }
        if !spec.mapEntries.isEmpty && !keys.contains(MScenario.map) { result.append(MScenario.map) }
        if spec.parent == nil && !spec.candidates.isEmpty && !keys.contains(MScenario.port) { result.append(MScenario.port) }
        return result
    }

    /// The entries of `S` (`isSet`) or `M` as a member of `spec` gathers them, with the spec of
    /// each: the root's first, each spec's modules' then its overrides'; in a map, an override's
    /// entry in place of the entry of its key.
    func entries(set isSet: Bool, from spec: Int) -> [(spec: Int, entry: MEntry)] {
        var chain: [Int] = []
        var current: Int? = spec
        while let index = current {
            chain.insert(index, at: 0)
            current = specs[index].parent
        }
        var result: [(spec: Int, entry: MEntry)] = []
        for index in chain {
            let all = isSet ? specs[index].setEntries : specs[index].mapEntries
            for entry in all.filter({ !$0.binding.isOverride }) + all.filter(\.binding.isOverride) {
                if !isSet, let at = result.firstIndex(where: { $0.entry.mapKey == entry.mapKey }) {
                    result[at] = (index, entry)
                } else {
                    result.append((index, entry))
                }
            }
        }
        return result
    }

    /// Whether a step asks for the awaited chain, which the runner then binds in the root.
    var drawsChain: Bool {
        ops.contains { if case .deep(_, "q", _, _) = $0 { true } else { false } }
    }

    // MARK: Drawing

    /// Candidates for `P` in the root: mostly one, which `P` is bound to; sometimes one or two
    /// beside an explicit binding or an override of `P`, which wins. Each an `Injectable` type
    /// needing what a synchronous binding of the root may need, unscoped or a singleton.
    mutating func addCandidates(random: inout SplitMix) {
        guard random.chance(30) else { return }
        let roll = random.below(10)
        let count = roll < 7 ? 1 : 1 + random.below(2)
        for _ in 0..<count { specs[0].candidates.append(candidate(random: &random)) }
        guard roll >= 7 else { return }
        var binding = syncBinding(key: MScenario.port, in: 0, random: &random)
        binding.deps.removeAll { $0 == MScenario.port }
        if roll == 9 {
            binding.isOverride = true
            specs[0].overrides.append(binding)
        } else {
            specs[0].bindings.append(binding)
        }
    }

    /// A candidate's binding: its type's initializer needs what a synchronous binding of the
    /// root may need (never `P`), in its scope.
    private func candidate(random: inout SplitMix) -> MBinding {
        let drawn = syncBinding(key: MScenario.port, in: 0, random: &random)
        return MBinding(key: MScenario.port, kind: .type, scope: drawn.scope == .singleton ? .singleton : .unscoped,
                        deps: drawn.kind == .instance ? [] : drawn.deps.filter { $0 != MScenario.port })
    }

    /// Contributions to `S` and entries of `M`, in about a third of the specs each: synchronous,
    /// unscoped or singletons, needing nothing that needs await or is shorter-lived; a set's
    /// sometimes an alias of a key (often one another contribution of the family aliases too); a
    /// map's module entries under keys no ancestor contributes, an override's under any key.
    mutating func addCollections(random: inout SplitMix) {
        let mapKeys = ["k0", "k1", "k2", "k3"]
        for index in specs.indices {
            let name = specs[index].name
            if random.chance(30) {
                for position in 0..<(1 + random.below(3)) {
                    let isOverride = random.chance(20)
                    let key = "s\(name)_\(isOverride ? "o" : "")\(position)"
                    if random.chance(40), let alias = aliasTarget(for: index, random: &random) {
                        specs[index].setEntries.append(MEntry(
                            binding: MBinding(key: key, kind: .type, scope: .unscoped, deps: [alias], isOverride: isOverride), alias: alias))
                    } else {
                        var binding = syncBinding(key: key, in: index, random: &random)
                        binding.isOverride = isOverride
                        specs[index].setEntries.append(MEntry(binding: binding))
                    }
                }
            }
            if random.chance(30) {
                var taken = Set(specs[index].mapEntries.compactMap(\.mapKey))
                var ancestor = specs[index].parent
                while let parent = ancestor {
                    taken.formUnion(specs[parent].mapEntries.compactMap(\.mapKey))
                    ancestor = specs[parent].parent
                }
                var overridden: Set<String> = []
                for position in 0..<(1 + random.below(3)) {
                    let isOverride = random.chance(25)
                    let free = isOverride ? mapKeys.filter { !overridden.contains($0) } : mapKeys.filter { !taken.contains($0) }
                    guard !free.isEmpty else { continue }
                    let mapKey = random.pick(free)
                    if isOverride { overridden.insert(mapKey) } else { taken.insert(mapKey) }
                    var binding = syncBinding(key: "m\(name)_\(isOverride ? "o" : "")\(position)", in: index, random: &random)
                    binding.isOverride = isOverride
                    specs[index].mapEntries.append(MEntry(binding: binding, mapKey: mapKey))
                }
            }
        }
    }

    /// A key of `MNode` a set's alias in `spec` may name: synchronous, not shorter-lived, and
    /// overridden nowhere, so that two aliases of it in one family reach one binding (two values
    /// of overrides in different members would be two elements alike, which a comparison of
    /// sets could not tell apart); half the time one a set contribution of the family aliases
    /// already.
    private func aliasTarget(for spec: Int, random: inout SplitMix) -> String? {
        let overridden = Set(specs.flatMap { $0.overrides.map(\.key) })
        let pool = visibleKeys(from: spec).filter { key in
            !key.hasPrefix("y") && !MScenario.gathered.contains(key) && key != "p" && key != MScenario.jit.key && !overridden.contains(key)
                && !needsAwait(key, from: spec)
                && !reach(key, from: spec).contains { $0.binding.scope == .perRequest || $0.binding.scope == .weak }
        }
        guard !pool.isEmpty else { return nil }
        let aliased = specs.flatMap { $0.setEntries.compactMap(\.alias) }.filter(pool.contains)
        return !aliased.isEmpty && random.chance(50) ? random.pick(aliased) : random.pick(pool)
    }

    /// Sometimes, requests that nest deeper than the library allows, or up to its limit, each
    /// drawn apart (so that any two may meet): the awaited chain of 5,000 links (which builds)
    /// or 5,001 (`tooDeep`), or asked synchronously (`needsAwait`); `r` a million levels deep
    /// (`tooDeep`). Each of the root or of a member an earlier step made.
    mutating func addDeepRequest(random: inout SplitMix) {
        let drawn: [(key: String, links: Int, paths: [MPath])] = [
            ("q", MScenario.chainLength - 1, [.await]),
            ("q", MScenario.chainLength, [.await]),
            ("q", 1 + random.below(3), [.sync, .mainActor]),
            ("r", MScenario.endlessDepth, [.sync, .mainActor, .await]),
        ]
        // Each about 0.8 s of a scenario's run (the chain of 5,000 links, the recursion to the
        // stack's end): one scenario in 400 each, so that CI's 30,000 stay within its time. The
        // limits themselves are checked at their boundary by `CollectionTests`.
        for (key, links, paths) in drawn where random.below(400) == 0 {
            let position = random.below(ops.count + 1)
            var members = [0]
            for op in ops[..<position] { if case .makeChild(_, _, let id) = op { members.append(id) } }
            ops.insert(.deep(member: random.pick(members), key: key, links: links, path: random.pick(paths)), at: position)
        }
    }

    // MARK: Readable

    func describeCollections(of spec: MSpec) -> [String] {
        var lines: [String] = []
        for entry in spec.setEntries {
            let by = entry.binding.isOverride ? "override " : ""
            if let alias = entry.alias {
                lines.append("    \(by)contribute to S (as \(entry.binding.key): alias of \(alias))")
            } else {
                lines.append("    \(by)contribute to S (as \(entry.binding))")
            }
        }
        for entry in spec.mapEntries {
            lines.append("    \(entry.binding.isOverride ? "override " : "")contribute to M under \(entry.mapKey ?? "") (as \(entry.binding))")
        }
        for candidate in spec.candidates { lines.append("    candidate for P (as \(candidate))") }
        return lines
    }
}

extension MSpec {
    /// The bindings of its contributions to `S` and `M`.
    var entryBindings: [MBinding] { (setEntries + mapEntries).map(\.binding) }

    /// Whether `binding` is one of its contributions to `S` or `M`: a key the library names,
    /// which the observers' record leaves out.
    func isEntry(_ binding: MBinding) -> Bool {
        entryBindings.contains(binding)
    }
}

// MARK: - The model

extension ReferenceModel {
    /// The members from the root down to `member`.
    private func chain(to member: Int) -> [Int] {
        var chain: [Int] = []
        var current: Int? = member
        while let id = current, let m = members[id] {
            chain.insert(id, at: 0)
            current = m.parent
        }
        return chain
    }

    /// A request of `S` or `M` from `member` (`nil` for any other key): each contribution the
    /// member sees built (an alias's key found from the member that contributed it), as its
    /// scope says, in an order the documentation leaves open; a set without repeated values, a
    /// map of each key's entry. A new collection per request.
    mutating func gather(_ key: String, from member: Int, requester: Int, sync: Bool, frame: inout [String: Int],
                         building: inout Building) -> Result<Int, Failure>? {
        guard key == MScenario.set || key == MScenario.map else { return nil }
        let isSet = key == MScenario.set
        var entries: [(owner: Int, entry: MEntry)] = []
        for owner in chain(to: member) {
            let all = isSet ? scenario.specs[members[owner]!.spec].setEntries : scenario.specs[members[owner]!.spec].mapEntries
            for entry in all.filter({ !$0.binding.isOverride }) + all.filter(\.binding.isOverride) {
                if !isSet, let at = entries.firstIndex(where: { $0.entry.mapKey == entry.mapKey }) {
                    entries[at] = (owner, entry)
                } else {
                    entries.append((owner, entry))
                }
            }
        }
        let ordered = orderedStep
        orderedStep = false
        defer { orderedStep = ordered }
        var values: [(mapKey: String?, id: Int)] = []
        for (owner, entry) in entries {
            let result: Result<Int, Failure> = if let alias = entry.alias {
                get(alias, from: owner, requester: requester, sync: sync, frame: &frame, building: &building)
            } else {
                produce(entry.binding.key, entry.binding, owner: owner, requester: requester, sync: sync, frame: &frame, building: &building)
            }
            switch result {
            case .success(let id): values.append((entry.mapKey, id))
            case .failure(let failure): return .failure(failure)
            }
        }
        let label: String
        var children: [Int]
        var decorated: [Int] = []
        decorateCollection(key, from: member, children: &decorated, entries: &values)
        if isSet {
            var seen: Set<Int> = []
            children = (values.map(\.id) + decorated).filter { seen.insert($0).inserted }
            children.sort { tree($0).shape < tree($1).shape }
            label = MScenario.set
        } else {
            values.sort { $0.mapKey! < $1.mapKey! }
            children = values.map(\.id)
            label = MScenario.map + "{" + values.map { $0.mapKey! }.joined(separator: ",") + "}"
        }
        nextID += 1
        instances[nextID] = Instance(label: label, children: children, isCollection: true)
        return .success(nextID)
    }

    /// A deep request: the awaited chain of `links` links (two awaited levels a link, at most
    /// 10,000 levels; each link builds a value the link before it drops), or `r` endlessly deep.
    mutating func deep(member: Int, key: String, links: Int, path: MPath) -> MOutcome {
        if isShutDown(member) || isShutDown(0) { return .error(.injectorShutDown) }
        if key == "r" { return .error(.tooDeep) }
        if path.isSync { return .error(.needsAwait) }
        if 2 * links > MScenario.awaitedLevels { return .error(.tooDeep) }
        var last = 0
        for _ in 0..<links { last = newInstance(MScenario.chainLabel, children: []) }
        return .value(tree(last))
    }
}

extension MScenario {
    /// The label of the awaited chain's values.
    static let chainLabel = "q"
}

// MARK: - The runner

extension MNode: Hashable {
    /// A node is equal to itself alone.
    static func == (lhs: MNode, rhs: MNode) -> Bool { lhs === rhs }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// The key of `MNode` a scenario's key names: `P` is the unnamed key.
func nodeKey(_ name: String) -> Key<MNode> {
    name == MScenario.port ? Key<MNode>() : Key<MNode>(named: name)
}

/// What a candidate's type declares: its label, its initializer's dependencies, whether it is a
/// singleton, and its position among the root's candidates (so that two are two types).
struct MCandidateDescriptor: Hashable, Sendable {
    var label: String
    var deps: [String]
    var singleton: Bool
    var position: Int
}

/// Every candidate descriptor a `CNode` was made for.
enum MCandidateDescriptors {
    private static let types = MTypeTable<MCandidateDescriptor>()

    static subscript(_ code: Int) -> MCandidateDescriptor { types[code] }

    /// The type that stands for `descriptor`, `Kept` (`Closable`) for a singleton.
    static func code(of descriptor: MCandidateDescriptor) -> any MCode.Type { types.code(of: descriptor, kept: descriptor.singleton) }
}

/// What `CNode` is, whatever its code: how an observer tells its builds.
protocol MCandidateNode {}

/// A candidate for `P`: an `Injectable` node built just in time by an initializer of its
/// descriptor's dependencies (and the root's `MLog`), in the scope it declares; `Closable` when
/// it is a singleton, whose value its injector keeps and closes.
final class CNode<Code: MCode>: MNode, Injectable, MCandidateNode, @unchecked Sendable {
    static var descriptor: MCandidateDescriptor { MCandidateDescriptors[Code.value] }

    static var initializer: Initializer<CNode<Code>> {
        let descriptor = descriptor
        return Initializer<CNode<Code>>([.inject(MLog.self)] + descriptor.deps.map(slot)) { arguments in
            let log = try arguments.value(at: 0, as: MLog.self)
            var nodes: [MNode] = []
            for (index, dep) in descriptor.deps.enumerated() {
                if let found = try node(arguments, at: index + 1, key: dep) { nodes.append(found) }
            }
            return CNode<Code>(descriptor.label, nodes, log)
        }
    }

    static var scope: Scope { descriptor.singleton ? .singleton : .unscoped }
}

extension CNode: Closable where Code: MKept {
    func close() throws { try recordClose() }
}

private func offerCandidate<Code: MCode>(_ code: Code.Type, _ binder: Binder) {
    binder.candidate(CNode<Code>.self, for: MNode.self) { $0 }
}

extension MModule {
    /// Binds the spec's contributions to `S` and `M` (the overrides' in the overrides'
    /// module) and offers its candidates.
    func bindCollections(_ binder: Binder) {
        for entry in spec.setEntries where entry.binding.isOverride == overrides {
            let start = binder.contribute(to: Set<MNode>.self)
            if let alias = entry.alias {
                start.to(nodeKey(alias))
            } else {
                apply(entry.binding, start)
            }
        }
        for entry in spec.mapEntries where entry.binding.isOverride == overrides {
            apply(entry.binding, binder.contribute(to: [String: MNode].self, key: entry.mapKey!))
        }
        guard !overrides else { return }
        for (position, candidate) in spec.candidates.enumerated() {
            let descriptor = MCandidateDescriptor(label: candidate.label, deps: candidate.deps, singleton: candidate.scope == .singleton,
                                                  position: position)
            offerCandidate(MCandidateDescriptors.code(of: descriptor), binder)
        }
    }
}

/// The awaited chain `q0 … q5000`: each an `async` closure asking its resolver for the next,
/// then building a value of its own (the next one's dropped).
struct MChain: Module {
    let log: MLog

    func configure(_ binder: Binder) {
        let log = log
        for index in 0..<MScenario.chainLength {
            let next = index + 1 < MScenario.chainLength ? Key<MNode>(named: "q\(index + 1)") : nil
            binder.bind(Key<MNode>(named: "q\(index)")).to { (resolver: Resolver) async throws -> MNode in
                if let next { _ = try await resolver.instance(next) }
                return MNode.make(MScenario.chainLabel, [], log)
            }
        }
    }
}

extension LibraryRunner {
    /// The modules a spec adds for this file's features: the awaited chain, in the root of a
    /// scenario that requests it.
    func collectionModules(_ spec: Int) -> [any Module] {
        spec == 0 && scenario.drawsChain ? [MChain(log: log)] : []
    }

    /// A request of `S`, `M` or `P` (`nil` for any other key).
    static func fetchGathered(_ injector: Injector, _ name: String, _ path: MPath) async -> Result<Fetched, InjectionError>? {
        switch name {
        case MScenario.set:
            return await fetch(injector, Key<Set<MNode>>(), path).map(Fetched.init(set:))
        case MScenario.map:
            return await fetch(injector, Key<[String: MNode]>(), path).map(Fetched.init(map:))
        case MScenario.port:
            return await fetch(injector, Key<MNode>(), path).map(Fetched.init(node:))
        default:
            return nil
        }
    }

    /// A deep request, as `MOp.deep` says.
    static func fetchDeep(_ injector: Injector, key: String, links: Int, path: MPath) async -> Result<Fetched, InjectionError> {
        if key == "r" {
            return await fetchWithArguments(injector, "r", depth: links, tuple: false, path).map(Fetched.init(node:))
        }
        return await fetch(injector, Key<MNode>(named: "q\(MScenario.chainLength - links)"), path).map(Fetched.init(node:))
    }
}

/// Numbers each set and map a request returns (a value, with no identity of its own).
private let gatheredSerials = Locked(0)

private func collectionSerial() -> Int {
    gatheredSerials.withLock { serial in
        serial += 1
        return 1_000_000_000 + serial
    }
}

// MARK: - Near-misses and the rules

extension MScenario {
    /// A near-miss of this file's features: a map key contributed twice, or the root's
    /// candidates removed, or made two or more.
    func collectionMutation(_ mutation: MMutation, random: inout SplitMix) -> (MScenario, String)? {
        var s = self
        switch mutation {
        case .duplicateMapKey:
            // A key a spec's modules contribute, or one an ancestor of the spec contributes.
            var options: [(spec: Int, key: String)] = []
            for (index, spec) in specs.enumerated() {
                for entry in spec.mapEntries where !entry.binding.isOverride { options.append((index, entry.mapKey!)) }
                var ancestor = spec.parent
                while let parent = ancestor {
                    for entry in specs[parent].mapEntries { options.append((index, entry.mapKey!)) }
                    ancestor = specs[parent].parent
                }
            }
            let spec: Int, key: String
            if options.isEmpty {
                (spec, key) = (random.below(specs.count), "k0")
                s.specs[spec].mapEntries.append(MEntry(binding: MBinding(key: "m\(specs[spec].name)_d0", kind: .instance, scope: .unscoped,
                                                                         deps: []), mapKey: key))
            } else {
                (spec, key) = random.pick(options)
            }
            s.specs[spec].mapEntries.append(MEntry(binding: MBinding(key: "m\(specs[spec].name)_d", kind: .instance, scope: .unscoped, deps: []),
                                                   mapKey: key))
            return (s, "spec #\(spec)'s module contributes an entry under \(key) to M, which it or a parent contributes already")
        case .candidates:
            if !specs[0].candidates.isEmpty && random.chance(50) {
                s.specs[0].candidates = []
                return (s, "the root offers no candidate for P")
            }
            let adding = max(1, 2 - specs[0].candidates.count) + random.below(2)
            for _ in 0..<adding {
                s.specs[0].candidates.append(MBinding(key: MScenario.port, kind: .type, scope: random.pick([.unscoped, .singleton]), deps: []))
            }
            return (s, "the root offers \(s.specs[0].candidates.count) candidates for P")
        default:
            return nil
        }
    }
}

extension MStructure {
    /// `M` and `S` where the spec contributes to them, and `P` in the root when it is bound to
    /// its only candidate: with several, nothing provides it (the injector will not guess), so
    /// an initializer that needs it is `missingBinding` beside the candidates' `ambiguousBinding`.
    func gatheredKeys(_ spec: Int) -> Set<String> {
        let s = scenario.specs[spec]
        var keys: Set<String> = []
        if !s.setEntries.isEmpty { keys.insert(MScenario.set) }
        if !s.mapEntries.isEmpty { keys.insert(MScenario.map) }
        if spec == 0 && scenario.autoWired != nil { keys.insert(MScenario.port) }
        return keys
    }

    /// The bindings of the spec's contributions to `S` and `M` (a map's entry that an override
    /// replaces included: it is bound all the same), and in the root the candidate `P` is bound
    /// to.
    func gatheredNodes(_ spec: Int) -> [MBinding] {
        scenario.specs[spec].entryBindings + (spec == 0 ? scenario.autoWired.map { [$0] } ?? [] : [])
    }

    /// How a problem names a contribution to `S` or `M`: by its position among those of the
    /// spec's modules, or of its overrides, to the same collection.
    func entryName(_ node: MBinding, in spec: Int) -> String? {
        let s = scenario.specs[spec]
        for entries in [s.setEntries, s.mapEntries] where entries.contains(where: { $0.binding == node }) {
            let same = entries.filter { $0.binding.isOverride == node.isOverride }
            return "contribution \(same.firstIndex { $0.binding == node }! + 1)"
        }
        return nil
    }

    /// What the rules report of this file's features when the spec's member is made:
    /// `duplicateBinding` of `M` for a key its modules contribute twice, or one a parent
    /// contributes; `ambiguousBinding` of `P` for two or more candidates and no binding of it.
    func collectionProblems(_ spec: Int) -> Set<String> {
        let s = scenario.specs[spec]
        var found: Set<String> = []
        let keys = s.mapEntries.filter { !$0.binding.isOverride }.compactMap(\.mapKey)
        var inherited: Set<String> = []
        var ancestor = s.parent
        while let parent = ancestor {
            inherited.formUnion(scenario.specs[parent].mapEntries.compactMap(\.mapKey))
            ancestor = scenario.specs[parent].parent
        }
        if Set(keys).count != keys.count || keys.contains(where: inherited.contains) {
            found.insert(problemText(.duplicateBinding, MScenario.map))
        }
        if spec == 0 && s.binding(MScenario.port) == nil && s.candidates.count > 1 {
            found.insert(problemText(.ambiguousBinding, MScenario.port))
        }
        return found
    }
}

// MARK: - Known causes

extension MScenario {
    /// Leaves out `KnownCause.childOfReplacedMapEntryRefused`: an override's entry of `M` that
    /// replaces an entry of its spec's modules or of a parent's, in a spec one of whose
    /// descendants contributes to `M`.
    mutating func dropMapEntriesReplacedAboveContributors() {
        for index in specs.indices {
            let contributingBelow = family(of: index).dropFirst().contains { !specs[$0].mapEntries.isEmpty }
            guard contributingBelow else { continue }
            var earlier = Set(specs[index].mapEntries.filter { !$0.binding.isOverride }.compactMap(\.mapKey))
            var ancestor = specs[index].parent
            while let parent = ancestor {
                earlier.formUnion(specs[parent].mapEntries.compactMap(\.mapKey))
                ancestor = specs[parent].parent
            }
            specs[index].mapEntries.removeAll { $0.binding.isOverride && earlier.contains($0.mapKey!) }
        }
    }
}

// MARK: - Features and shrinking

extension MScenario {
    /// The features of sets, maps, candidates and deep requests.
    var collectionFeatures: Set<String> {
        var features: Set<String> = []
        for (index, spec) in specs.enumerated() {
            if !spec.setEntries.isEmpty { features.insert("set contributions") }
            if spec.setEntries.contains(where: { $0.alias != nil }) { features.insert("set contribution aliasing a key") }
            if !spec.mapEntries.isEmpty { features.insert("map contributions") }
            if spec.entryBindings.contains(where: \.isOverride) { features.insert("set or map contribution by an override") }
            if index != 0 && !spec.entryBindings.isEmpty { features.insert("set or map contributions in a child") }
            if !spec.candidates.isEmpty { features.insert("candidates") }
            if !spec.candidates.isEmpty && autoWired == nil { features.insert("candidates beside a binding of their key") }
            // A map entry an override replaces: the modules' of the spec, or a parent's.
            var earlier = spec.mapEntries.filter { !$0.binding.isOverride }
            var ancestor = spec.parent
            while let parent = ancestor {
                earlier += specs[parent].mapEntries
                ancestor = specs[parent].parent
            }
            if spec.mapEntries.contains(where: { entry in entry.binding.isOverride && earlier.contains { $0.mapKey == entry.mapKey } }) {
                features.insert("map entry replaced by an override")
            }
            let aliases = entries(set: true, from: index).compactMap(\.entry.alias)
            if Set(aliases).count < aliases.count { features.insert("set contributions aliasing one key") }
        }
        for op in ops {
            switch op {
            case .request(_, let key, _, _):
                if key == MScenario.set { features.insert("request of the set") }
                if key == MScenario.map { features.insert("request of the map") }
                if key == MScenario.port { features.insert("request of the candidates' key") }
            case .deep(_, "r", _, _): features.insert("recursion deeper than the stack")
            case .deep(_, _, _, let path) where path.isSync: features.insert("awaited chain requested synchronously")
            case .deep(_, _, let links, _):
                features.insert(2 * links > MScenario.awaitedLevels ? "awaited chain past the limit" : "awaited chain at the limit")
            default:
                break
            }
        }
        return features
    }
}

/// The candidates one step smaller than `s` in this file's features: a contribution to `S` or
/// `M`, or the candidates, dropped.
func shrinkCollections(_ s: MScenario) -> [MScenario] {
    var result: [MScenario] = []
    for spec in s.specs.indices {
        for index in s.specs[spec].setEntries.indices {
            var c = s
            c.specs[spec].setEntries.remove(at: index)
            result.append(c)
        }
        for index in s.specs[spec].mapEntries.indices {
            var c = s
            c.specs[spec].mapEntries.remove(at: index)
            result.append(c)
        }
        if !s.specs[spec].candidates.isEmpty && s.specs[0].binding(MScenario.port) != nil {
            var c = s
            c.specs[spec].candidates = []
            result.append(c)
        }
    }
    return result
}

extension Fetched {
    /// What a request of `S` returned: its elements' trees in the order of their shapes, under a
    /// number of its own.
    init(set: Set<MNode>) {
        let trees = set.map(\.tree).sorted { $0.shape < $1.shape }
        self.init(tree: MTree(label: MScenario.set, id: -collectionSerial(), children: trees), nodes: Array(set))
    }

    /// What a request of `M` returned: its entries in the order of their keys, which its label
    /// names, under a number of its own.
    init(map: [String: MNode]) {
        let keys = map.keys.sorted()
        self.init(tree: MTree(label: MScenario.map + "{" + keys.joined(separator: ",") + "}", id: -collectionSerial(),
                              children: keys.map { map[$0]!.tree }), nodes: keys.map { map[$0]! })
    }
}
