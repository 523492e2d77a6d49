import Sightless

// A scenario of the model suite, as plain data: a family of injectors (`MSpec`: a root, a
// template, plain children and grandchildren, each with its bindings, decorators and observer)
// and a sequence of operations on it (`MOp`). The generator (`MScenario.init(seed:)`) draws only
// scenarios that are valid by the documented rules, and leaves out the combinations whose
// known library defect is listed in `KnownCause.listed`.

/// How a key is bound. Every key is a named key of `MNode`.
enum MKind: String, CaseIterable, Sendable {
    /// A raw `Initializer` whose arguments the graph injects: its dependencies are visible.
    case type
    /// `to(instance:)`, made with the module.
    case instance
    /// `to { resolver in … }`, asking its resolver for its dependencies.
    case closure
    /// `to(provider:)`.
    case provider
    /// `to { resolver async in … }`, awaiting its dependencies.
    case asyncClosure
    /// `to(provider:)` with an `AsyncProvider`.
    case asyncProvider
    /// An `async` initializer (`Initializer { … async … }`) of up to two arguments the graph
    /// injects; one may be a `Lazy` of its key (`~key`), whose value it awaits.
    case asyncInitializer

    var isAsync: Bool { self == .asyncClosure || self == .asyncProvider || self == .asyncInitializer }
    /// Whether what it needs is built apart from the request's other values (so no per-request
    /// value may be below it).
    var buildsApart: Bool { isOpaque || self == .asyncInitializer }
    /// Whether the graph cannot see its dependencies (it asks for them when it runs).
    var isOpaque: Bool { self == .closure || self == .provider || self == .asyncClosure || self == .asyncProvider }
}

/// A binding's scope.
enum MScope: String, CaseIterable, Sendable {
    case unscoped, singleton, weak, perRequest, custom, eager

    /// Whether the scope keeps its value for the life of the injector (and closes it).
    var keeps: Bool { self == .singleton || self == .custom || self == .eager }

    /// How long a value of the scope lives, for the rule that a value may not hold a shorter-lived
    /// one; `nil`: the scope keeps nothing, a value is as long-lived as what holds it.
    var lifetime: Int? {
        switch self {
        case .unscoped: nil
        case .perRequest: 1
        case .weak: 2
        case .singleton, .custom, .eager: 3
        }
    }
}

struct MBinding: Sendable, Equatable {
    var key: String
    var kind: MKind
    var scope: MScope
    /// Keys it needs, in order; a closure's or provider's may be asked through a `Lazy` (`~key`)
    /// or a `Factory` (`^key`) of the key (see `MVia`).
    var deps: [String]
    /// Whether it is passed as an override; what it builds is labelled `key'`.
    var isOverride = false
    /// An initializer's properties (`static var properties` of an `Injectable` type), set in
    /// order after the initializer returns, each a key or an optional of one (`?key`); a type
    /// with properties is awoken (`awakeFromInjection()`) once they are set.
    var props: [String] = []

    /// The keys it needs, its initializer's arguments' then its properties'.
    var depKeys: [String] { (deps + props).map { MVia.split($0).key } }
    var label: String { isOverride ? key + "'" : key }
}

/// How a closure or provider asks for a dependency: its resolver, or a `Lazy` or `Factory` of
/// the key it gets from its resolver, used at once; or how any binding but an instance and an
/// async initializer takes an optional of the key (`T?`): the value when the key is bound as
/// seen from where the dependency is found, `nil` when nothing binds it.
enum MVia: String, CaseIterable, Sendable {
    case direct = "", lazy = "~", factory = "^", optional = "?"

    static func split(_ dep: String) -> (key: String, via: MVia) {
        if dep.hasPrefix("~") { return (String(dep.dropFirst()), .lazy) }
        if dep.hasPrefix("^") { return (String(dep.dropFirst()), .factory) }
        if dep.hasPrefix("?") { return (String(dep.dropFirst()), .optional) }
        return (dep, .direct)
    }

    static func describe(_ dep: String) -> String {
        let (key, via) = split(dep)
        return switch via {
        case .direct: key
        case .lazy: "Lazy<\(key)>"
        case .factory: "Factory<\(key)>"
        case .optional: "\(key)?"
        }
    }
}

struct MDecorator: Sendable, Equatable {
    var key: String
    var id: Int
    /// A key the decorator asks its resolver for, and holds beside the value it wraps.
    var needs: String?
}

/// One member kind of the family: the root, a template, or a plain child (of the root, of
/// another plain child, or of a template's child).
struct MSpec: Sendable {
    var name: String
    var parent: Int?
    var isTemplate = false
    var bindings: [MBinding] = []
    var decorators: [MDecorator] = []
    /// Decorators of the collections `S` and `M` the spec contributes to, in declaration order
    /// (`CollectionDecorators.swift`).
    var collectionDecorators: [MDecorator] = []
    var observes = false
    /// Bindings passed as overrides: of the spec's own keys (the root), or of its parent's keys
    /// (a plain child), which the child then binds itself.
    var overrides: [MBinding] = []
    /// Contributions to the collection `[MNode]` (requested as the key `L`), each a binding of
    /// its own whose key here (`e…`) only names it.
    var contributions: [MBinding] = []
    /// A contextual binding of `a0` when injected into `Consumer` (requested as the key `C`);
    /// its key here (`x…`) only names it.
    var contextual: MBinding?
    /// Contributions to `Set<MNode>` (`S`) and entries of `[String: MNode]` (`M`), the
    /// modules' and the overrides' (`Collections.swift`).
    var setEntries: [MEntry] = []
    var mapEntries: [MEntry] = []
    /// Types the root's module offers as candidates for `P` (`Key<MNode>()`), each a binding of
    /// the key `P` by the type's initializer.
    var candidates: [MBinding] = []
    /// Keys of `bindings` that a module of their own binds, which the spec's module installs
    /// twice (a near-miss: `MMutation.installedTwice`).
    var installedTwice: [String] = []
    /// How many modules install each other in a ring, from the spec's module (a near-miss:
    /// `MMutation.installRing`); 0: none.
    var installRing = 0

    func binding(_ key: String) -> MBinding? { overrides.first { $0.key == key } ?? bindings.first { $0.key == key } }
    /// The eager singletons, in the order the spec's modules bind them, which is the order they
    /// are built in: the type of a binding with properties is bound after the spec's other
    /// bindings (so that each is reached first from its alias).
    var eagerOrder: [MBinding] {
        let eager = effective.filter { $0.scope == .eager }
        let typed = { (binding: MBinding) in binding.kind == .type && !binding.props.isEmpty }
        return eager.filter { !typed($0) } + eager.filter(typed)
    }

    /// The bindings in effect: the overrides in place of what they replace.
    var effective: [MBinding] {
        bindings.map { binding in overrides.first { $0.key == binding.key } ?? binding }
            + overrides.filter { override in !bindings.contains { $0.key == override.key } }
    }
}

/// A way to make a request.
enum MPath: String, CaseIterable, Sendable {
    case sync, await, mainActor, lazyGet, lazyValue, factoryMake, factoryInstance

    var isSync: Bool {
        switch self {
        case .sync, .mainActor, .lazyGet, .factoryMake: true
        case .await, .lazyValue, .factoryInstance: false
        }
    }
}

/// One step. Members are named by the id the step that made them gave them (0: the root); a
/// step naming a member that was never made, or was dropped, does nothing (a shrunk scenario
/// may have lost the step that made it).
enum MOp: Sendable, Equatable {
    /// A request of `key` from `member`; `hold` keeps the value until the next `release`.
    case request(member: Int, key: String, path: MPath, hold: Bool)
    /// Tasks request `keys` (one each) from `member` at once.
    case concurrent(member: Int, keys: [String], path: MPath)
    /// Makes member `id`, a child of `parent` by spec `spec` (a template's child when the spec
    /// is a template).
    case makeChild(parent: Int, spec: Int, id: Int)
    /// Drops the test's reference to the member.
    case drop(member: Int)
    /// Drops every value held.
    case release
    case shutDown(member: Int)
    /// `awaitShutDown()`: closes what `shutDown()` closes (every node is `Closable`), awaiting.
    case awaitShutDown(member: Int)
    /// Shuts `member` down while `count` tasks request `key` from it through `path`.
    case shutDownDuring(member: Int, key: String, count: Int, path: MPath = .sync)
    /// A request with creation-time arguments of one of the root's keys that take them: `r`, a
    /// closure of an `Int` that asks its resolver for `r` with `n - 1` down to 0 (`depth`), or
    /// `d`, an initializer of two `Dynamic` arguments, passed as two values or as one tuple.
    case withArguments(member: Int, key: String, depth: Int, tuple: Bool, path: MPath)
    /// A lifecycle step (`Lifecycle.swift`).
    case lifecycle(MLifecycleOp)
    /// A request nesting `links` levels (`Collections.swift`): of the awaited chain (`q`), or of
    /// `r` with that argument.
    case deep(member: Int, key: String, links: Int, path: MPath)

    var member: Int? {
        switch self {
        case .request(let m, _, _, _), .concurrent(let m, _, _), .drop(let m), .shutDown(let m), .awaitShutDown(let m),
             .shutDownDuring(let m, _, _, _), .withArguments(let m, _, _, _, _), .deep(let m, _, _, _): m
        case .makeChild(let parent, _, _): parent
        case .lifecycle(let op): op.parent
        case .release: nil
        }
    }
}

struct MScenario: Sendable {
    var seed: UInt64
    var specs: [MSpec]
    /// Whether the root is built with `Injector.start` (required when an eager singleton needs await).
    var startRoot: Bool
    var ops: [MOp]
    /// How kept values close, which closes throw, which builds fail first (`Lifecycle.swift`).
    var lifecycle = MLifecycle()
}

// MARK: - Facts about a family, used by the generator, the model and the runner

extension MScenario {
    /// The spec of the key's binding as seen from `spec`, and the binding (`nil`: the key a
    /// template provides).
    func owner(of key: String, from spec: Int) -> (spec: Int, binding: MBinding?)? {
        if key == MScenario.jit.key { return (0, MScenario.jit) }
        var current: Int? = spec
        while let index = current {
            let s = specs[index]
            if s.isTemplate && key == "p" { return (index, nil) }
            if let binding = s.binding(key) { return (index, binding) }
            current = s.parent
        }
        if key == MScenario.port, let candidate = autoWired { return (0, candidate) }
        return nil
    }

    /// `JitShared`, an `Injectable` type nothing binds that declares itself a singleton (and needs
    /// the root's `MLog`): wherever it is first reached, the family's, kept by the root.
    static let jit = MBinding(key: "J", kind: .type, scope: .singleton, deps: [])

    /// The collection of every contribution, `[MNode]`.
    static let collection = "L"
    /// `Consumer`, an unscoped type nothing binds that needs `a0`, served by contextual bindings.
    static let consumer = "C"

    /// Every key visible from `spec`.
    func visibleKeys(from spec: Int) -> [String] {
        var keys: [String] = [MScenario.jit.key]
        var current: Int? = spec
        while let index = current {
            let s = specs[index]
            keys += s.effective.map(\.key)
            if !s.contributions.isEmpty && !keys.contains(MScenario.collection) { keys.append(MScenario.collection) }
            if s.isTemplate { keys.append("p") }
            keys += gatheredKeys(of: s, beside: keys)
            current = s.parent
        }
        return keys
    }

    /// Whether building the key needs `await` when nothing is stored yet: an `async` build, or
    /// an initializer over one.
    func needsAwait(_ key: String, from spec: Int) -> Bool {
        guard let (ownerSpec, binding) = owner(of: key, from: spec), let binding else { return false }
        if binding.kind.isAsync { return true }
        if binding.kind == .type { return binding.depKeys.contains { needsAwait($0, from: ownerSpec) } }
        return false
    }

    /// Every key the key's build reaches (through any binding kind), itself included.
    func reach(_ key: String, from spec: Int) -> [(spec: Int, binding: MBinding)] {
        var seen: Set<String> = []
        var result: [(spec: Int, binding: MBinding)] = []
        var stack = [(key, spec)]
        while let (next, from) = stack.popLast() {
            if next == MScenario.collection {
                // Every contribution of the spec and its ancestors.
                var current: Int? = from
                while let index = current {
                    for contribution in specs[index].contributions where seen.insert("\(index).\(contribution.key)").inserted {
                        result.append((index, contribution))
                        for dep in contribution.depKeys { stack.append((dep, index)) }
                    }
                    current = specs[index].parent
                }
                continue
            }
            if next == MScenario.set || next == MScenario.map {
                for (index, entry) in entries(set: next == MScenario.set, from: from)
                where seen.insert("\(index).\(entry.binding.key)").inserted {
                    result.append((index, entry.binding))
                    for dep in entry.binding.depKeys { stack.append((dep, index)) }
                }
                continue
            }
            guard let (ownerSpec, binding) = owner(of: next, from: from), let binding,
                  seen.insert("\(ownerSpec).\(next)").inserted else { continue }
            result.append((ownerSpec, binding))
            for dep in binding.depKeys { stack.append((dep, ownerSpec)) }
            // What its decorators ask for.
            for decorator in specs[ownerSpec].decorators where decorator.key == next {
                if let need = decorator.needs { stack.append((need, ownerSpec)) }
            }
        }
        return result
    }

    /// Whether the key's build reaches a weak value (whose sharing between tasks depends on timing).
    func reachesWeak(_ key: String, from spec: Int) -> Bool {
        reach(key, from: spec).contains { $0.binding.scope == .weak }
    }

    /// The shortest lifetime the key's value holds through values that keep nothing.
    func heldLifetime(_ key: String, from spec: Int) -> Int? {
        var seen: Set<String> = []
        return heldLifetime(key, from: spec, seen: &seen)
    }

    private func heldLifetime(_ key: String, from spec: Int, seen: inout Set<String>) -> Int? {
        guard let (ownerSpec, binding) = owner(of: key, from: spec), let binding,
              seen.insert("\(ownerSpec).\(key)").inserted else { return nil }
        if let lifetime = binding.scope.lifetime { return lifetime }
        var shortest: Int?
        for dep in binding.depKeys {
            if let held = heldLifetime(dep, from: ownerSpec, seen: &seen) { shortest = min(shortest ?? held, held) }
        }
        return shortest
    }

    var hasAsync: Bool { specs.contains { $0.effective.contains { $0.kind.isAsync } } }
    var hasObserver: Bool { specs.contains(where: \.observes) }
}

// MARK: - The generator

struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 &+ 0x1234_5678 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { n <= 1 ? 0 : Int(next() % UInt64(n)) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}

extension MScenario {
    init(seed: UInt64) {
        var random = SplitMix(seed: seed)
        self.seed = seed
        specs = [MSpec(name: "root")]
        startRoot = random.chance(25)
        ops = []
        addBindings(to: 0, prefix: "a", count: 2 + random.below(5), random: &random)
        if random.chance(25) { addRing(random: &random) }
        if random.chance(50) {
            specs.append(MSpec(name: "t", parent: 0, isTemplate: true))
            addBindings(to: specs.count - 1, prefix: "t", count: 1 + random.below(4), random: &random)
        }
        for index in 0..<random.below(3) {
            let parent = random.pick(Array(specs.indices))
            specs.append(MSpec(name: "c\(index)", parent: parent))
            addBindings(to: specs.count - 1, prefix: "c\(index)_", count: 1 + random.below(3), random: &random)
        }
        for index in specs.indices {
            for binding in specs[index].bindings where random.chance(20) {
                specs[index].decorators.append(MDecorator(key: binding.key, id: random.below(1000),
                                                          needs: decoratorNeed(of: binding, in: index, random: &random)))
                if random.chance(30) { specs[index].decorators.append(MDecorator(key: binding.key, id: random.below(1000))) }
            }
        }
        for index in specs.indices { specs[index].observes = random.chance(index == 0 ? 50 : 30) }
        for index in specs.indices where random.chance(30) { addOverride(to: index, random: &random) }
        addCandidates(random: &random)
        for index in specs.indices where random.chance(35) { addContributions(to: index, random: &random) }
        addCollections(random: &random)
        for index in specs.indices where random.chance(30) {
            specs[index].contextual = syncBinding(key: "x\(specs[index].name)", in: index, random: &random)
        }
        addOptionalDependencies(random: &random)
        if specs.contains(where: { $0.effective.contains { $0.scope == .eager && needsAwait($0.key, from: 0) } }) {
            startRoot = true
        }
        generateOps(random: &random)
        addLifecycle(seed: seed)
        addCollectionDecorators(seed: seed)
        addDeepRequest(random: &random)
        self = KnownCause.sanitized(self)
    }

    private mutating func addBindings(to spec: Int, prefix: String, count: Int, random: inout SplitMix) {
        for index in 0..<count {
            let key = "\(prefix)\(index)"
            var kind = random.pick([MKind.type, .type, .type, .instance, .closure, .provider, .asyncClosure, .asyncProvider, .asyncInitializer])
            var scope = random.pick(MScope.allCases)
            if kind == .instance { scope = .unscoped }
            // Eager in the root (built by Injector.start when it needs await) and in plain
            // children (made synchronously: nothing that needs await).
            if scope == .eager && specs[spec].isTemplate { scope = .singleton }
            if scope == .eager && spec != 0 && kind.isAsync { scope = .singleton }
            // A value built with await can only be unscoped, a singleton or an eager singleton;
            // a per-request one is an initializer's.
            if scope == .perRequest && kind.isAsync { kind = .type }
            if kind.isAsync && (scope == .weak || scope == .custom) { scope = .singleton }
            var deps: [String] = []
            if kind != .instance {
                let candidates = visibleKeys(from: spec).filter { !$0.hasPrefix("y") }
                for _ in 0..<random.below(4) where !candidates.isEmpty {
                    let dep = random.pick(candidates)
                    if !deps.contains(dep) { deps.append(dep) }
                }
                // Often, an initializer over a value of its own spec built with await and kept:
                // once that value is stored, it is built synchronously.
                let awaitedKept = specs[spec].bindings.filter { $0.kind.isAsync && $0.scope.keeps }.map(\.key)
                if kind == .type, !awaitedKept.isEmpty, random.chance(60) {
                    let dep = random.pick(awaitedKept)
                    if !deps.contains(dep) { deps.append(dep) }
                    // In a scope that builds with `await`.
                    if [.weak, .perRequest, .custom].contains(scope) { scope = random.pick([.unscoped, .singleton]) }
                }
            }
            let buildsSynchronously = kind == .closure || kind == .provider || [.weak, .perRequest, .custom].contains(scope)
                || (scope == .eager && spec != 0)
            deps.removeAll { dep in
                // A synchronous closure or provider asks for its dependencies synchronously, and
                // a weak, per-request or custom scope builds synchronously: nothing that needs await.
                if buildsSynchronously && needsAwait(dep, from: spec) { return true }
                // What a closure or provider asks for builds apart from the request's other
                // values: no per-request value below it.
                if kind.buildsApart && reach(dep, from: spec).contains(where: { $0.binding.scope == .perRequest }) { return true }
                // A kept value may not hold a shorter-lived one.
                if let own = scope.lifetime, let held = heldLifetime(dep, from: spec), held < own { return true }
                return false
            }
            if kind == .asyncInitializer {
                deps.removeAll { $0 == MScenario.jit.key }
                deps = Array(deps.prefix(2))
                if deps.count == 1 && random.chance(40) { deps = ["~" + deps[0]] }
            }
            var props: [String] = []
            if kind == .type && random.chance(30) {
                // Properties, as free to need what the initializer could need; never `JitShared`
                // (a type of its own) nor the collection.
                let split = deps.count > 0 && random.chance(40) ? random.below(deps.count + 1) : deps.count
                props = deps[split...].filter { $0 != MScenario.jit.key && $0 != MScenario.collection }
                deps = Array(deps[..<split]) + deps[split...].filter { $0 == MScenario.jit.key || $0 == MScenario.collection }
                if props.isEmpty {
                    // A property of a key no other binding would take: any key the initializer
                    // could need.
                    let candidates = visibleKeys(from: spec).filter { dep in
                        !dep.hasPrefix("y") && dep != MScenario.jit.key && dep != MScenario.collection && !deps.contains(dep)
                            && !(buildsSynchronously && needsAwait(dep, from: spec))
                            && !(scope.lifetime.map { own in heldLifetime(dep, from: spec).map { $0 < own } ?? false } ?? false)
                    }
                    if !candidates.isEmpty && random.chance(70) { props = [random.pick(candidates)] }
                }
            }
            // An optional of a key it would need anyway: the value, as the key is bound.
            if kind != .instance && kind != .asyncInitializer {
                deps = deps.map { $0 != MScenario.jit.key && $0 != MScenario.collection && random.chance(12) ? "?" + $0 : $0 }
                props = props.map { random.chance(25) ? "?" + $0 : $0 }
            }
            specs[spec].bindings.append(MBinding(key: key, kind: kind, scope: scope, deps: deps, props: props))
        }
    }

    /// The members a binding of `spec` may build for: the spec's own and its descendants'.
    func family(of spec: Int) -> [Int] {
        var result = [spec]
        var index = 0
        while index < result.count {
            let current = result[index]
            result += specs.indices.filter { specs[$0].parent == current }
            index += 1
        }
        return result
    }

    /// Optional dependencies of keys bound anywhere in the family, or nowhere (`z0`): whether
    /// each is bound depends on where it is found from (an initializer's owner, a closure's
    /// resolver), so one key is `nil` from the root and a value from the child that binds it.
    /// Each key is one that needs no await and holds nothing shorter-lived, from wherever it is
    /// found, and reaches neither the binding's key nor a key a decorator asks for more: what
    /// depends on the binding stays valid, and no cycle is made.
    private mutating func addOptionalDependencies(random: inout SplitMix) {
        var keys = Set(specs.flatMap { $0.effective.map(\.key) })
        keys.insert("z0")
        let decoratedWithNeeds = Set(specs.flatMap { $0.decorators.filter { $0.needs != nil }.map(\.key) })
        let pool = keys.filter { !$0.hasPrefix("y") }.sorted()
        for spec in specs.indices {
            for index in specs[spec].bindings.indices where random.chance(18) {
                let binding = specs[spec].bindings[index]
                guard [.type, .closure, .provider, .asyncClosure, .asyncProvider].contains(binding.kind) else { continue }
                let key = random.pick(pool)
                guard key != binding.key, !binding.depKeys.contains(key) else { continue }
                // An initializer's is found where it is bound; a closure's from the injector the
                // request is for.
                let views = binding.kind == .type ? [spec] : family(of: spec)
                let fits = views.allSatisfy { view in
                    guard owner(of: key, from: view) != nil else { return true }
                    return !needsAwait(key, from: view) && !reach(key, from: view).contains { found in
                        found.binding.key == binding.key || found.binding.scope == .perRequest || found.binding.scope == .weak
                            || decoratedWithNeeds.contains(found.binding.key) || found.binding.key.hasPrefix("y")
                    }
                }
                guard fits else { continue }
                if binding.kind == .type && random.chance(50) {
                    specs[spec].bindings[index].props.append("?" + key)
                } else {
                    specs[spec].bindings[index].deps.append("?" + key)
                }
            }
        }
    }

    /// An override: in the root, of one of its keys; in a plain child or a template, of one of its
    /// parent's.
    /// It is synchronous, unscoped or a singleton, and needs only what its original could need
    /// (the root) or what its parent sees, nothing that needs await or is shorter-lived: what
    /// depends on the key stays valid.
    private mutating func addOverride(to spec: Int, random: inout SplitMix) {
        let candidates: [String]
        if spec == 0 {
            candidates = specs[0].bindings.map(\.key).filter { !$0.hasPrefix("y") && $0 != "a0" }
        } else {
            candidates = visibleKeys(from: specs[spec].parent!).filter {
                !$0.hasPrefix("y") && $0 != "p" && $0 != MScenario.jit.key && $0 != MScenario.collection && $0 != "a0"
            }
        }
        guard !candidates.isEmpty else { return }
        let key = random.pick(candidates)
        guard !specs[spec].overrides.contains(where: { $0.key == key }) else { return }
        let kind = random.pick([MKind.type, .closure, .provider, .instance])
        let scope: MScope = kind == .instance ? .unscoped : random.pick([.unscoped, .singleton])
        var deps: [String] = []
        if kind != .instance {
            let view = spec == 0 ? 0 : specs[spec].parent!
            let pool = spec == 0 ? (specs[0].binding(key)?.depKeys ?? []) : visibleKeys(from: view).filter { !$0.hasPrefix("y") && $0 != "p" }
            for dep in pool where random.chance(40) && !deps.contains(dep) && dep != key {
                if needsAwait(dep, from: view) { continue }
                if reach(dep, from: view).contains(where: { $0.binding.scope == .perRequest || $0.binding.scope == .weak }) { continue }
                deps.append(dep)
            }
        }
        specs[spec].overrides.append(MBinding(key: key, kind: kind, scope: scope, deps: deps, isOverride: true))
    }

    /// Contributions to `[MNode]`: synchronous, unscoped or singletons, needing nothing that needs
    /// await or is shorter-lived.
    private mutating func addContributions(to spec: Int, random: inout SplitMix) {
        for index in 0..<(1 + random.below(3)) {
            let kind = random.pick([MKind.type, .closure, .provider, .instance])
            let scope: MScope = kind == .instance ? .unscoped : random.pick([.unscoped, .singleton])
            var deps: [String] = []
            if kind != .instance {
                for dep in visibleKeys(from: spec) where random.chance(25) && !deps.contains(dep) {
                    if dep.hasPrefix("y") || MScenario.gathered.contains(dep) || dep == "p" || needsAwait(dep, from: spec) { continue }
                    if reach(dep, from: spec).contains(where: { $0.binding.scope == .perRequest || $0.binding.scope == .weak }) { continue }
                    deps.append(dep)
                }
            }
            specs[spec].contributions.append(MBinding(key: "e\(specs[spec].name)_\(index)", kind: kind, scope: scope, deps: deps))
        }
    }

    /// A synchronous binding, unscoped or a singleton, needing nothing that needs await or is
    /// shorter-lived.
    func syncBinding(key: String, in spec: Int, random: inout SplitMix) -> MBinding {
        let kind = random.pick([MKind.type, .closure, .provider, .instance])
        let scope: MScope = kind == .instance ? .unscoped : random.pick([.unscoped, .singleton])
        var deps: [String] = []
        if kind != .instance {
            for dep in visibleKeys(from: spec) where random.chance(25) && !deps.contains(dep) {
                if dep.hasPrefix("y") || MScenario.gathered.contains(dep) || dep == "p" || needsAwait(dep, from: spec) { continue }
                if reach(dep, from: spec).contains(where: { $0.binding.scope == .perRequest || $0.binding.scope == .weak }) { continue }
                deps.append(dep)
            }
        }
        return MBinding(key: key, kind: kind, scope: scope, deps: deps)
    }

    /// What a decorator of `binding` asks its resolver for, sometimes: a key that needs no await,
    /// is not shorter-lived, and does not reach the decorated key.
    private func decoratorNeed(of binding: MBinding, in spec: Int, random: inout SplitMix) -> String? {
        guard random.chance(35) else { return nil }
        let candidates = visibleKeys(from: spec).filter { key in
            !key.hasPrefix("y") && key != MScenario.collection && key != binding.key && !needsAwait(key, from: spec)
                && !reach(key, from: spec).contains { $0.binding.key == binding.key || $0.binding.scope == .perRequest || $0.binding.scope == .weak }
        }
        return candidates.isEmpty ? nil : random.pick(candidates)
    }

    /// A ring of closures or providers in the root, `y0` needing `y1` … needing `y0`, each
    /// asking through its resolver, a `Lazy` or a `Factory`: every request of one is a
    /// `cyclicDependency`. All synchronous or all `async`; nothing else needs them.
    private mutating func addRing(random: inout SplitMix) {
        let count = 1 + random.below(3)
        let isAsync = random.chance(50)
        for index in 0..<count {
            let kind = isAsync ? random.pick([MKind.asyncClosure, .asyncProvider, .asyncInitializer]) : random.pick([MKind.closure, .provider])
            let scope = isAsync ? random.pick([MScope.unscoped, .singleton]) : random.pick([MScope.unscoped, .singleton, .custom])
            // An async initializer's edge closes the ring through a Lazy it is handed.
            let via = kind == .asyncInitializer ? .lazy : random.pick([MVia.direct, .lazy, .factory])
            specs[0].bindings.append(MBinding(key: "y\(index)", kind: kind, scope: scope, deps: ["\(via.rawValue)y\((index + 1) % count)"]))
        }
    }

    /// The member a request is made of: often the newest one still held, so that the members
    /// made deep in the family (grandchildren, children of a template's children) are asked as
    /// often as the root; else any.
    private func requested(from live: [Int], random: inout SplitMix) -> Int? {
        guard let newest = live.last else { return nil }
        return random.chance(40) ? newest : random.pick(live)
    }

    /// Those of `keys` whose value is built over a value built with `await` and kept, one of
    /// `stored`.
    private static func keys(_ keys: [String], over stored: Set<String>, in scenario: MScenario, from spec: Int) -> [String] {
        keys.filter { candidate in
            scenario.reach(candidate, from: spec).contains { found in
                found.binding.key != candidate && found.binding.kind.isAsync && found.binding.scope.keeps
                    && stored.contains(found.binding.key)
            }
        }
    }

    private mutating func generateOps(random: inout SplitMix) {
        // The generator's own view of the members: id → spec, and whether each is still held.
        var members: [Int: Int] = [0: 0]
        var dropped: Set<Int> = []
        // Per member, the keys its awaited requests reached.
        var awaitedReach: [Int: Set<String>] = [:]
        var nextID = 1
        for _ in 0..<(4 + random.below(18)) {
            let live = members.keys.filter { !dropped.contains($0) }.sorted()
            let roll = random.below(100)
            if roll < 45, let member = requested(from: live, random: &random) {
                let keys = visibleKeys(from: members[member]!)
                guard !keys.isEmpty else { continue }
                let spec = members[member]!
                var key = random.chance(8) ? MScenario.consumer : random.pick(keys)
                let path = random.pick(MPath.allCases)
                // Often, after an awaited request stored a value built with await, a synchronous
                // request of a value over it: built synchronously once what it awaits is stored.
                if path.isSync, let stored = awaitedReach[member], random.chance(50) {
                    let over = Self.keys(keys, over: stored, in: self, from: spec)
                    if !over.isEmpty { key = random.pick(over) }
                }
                if !path.isSync {
                    // Often, one that stores a value built with await.
                    if random.chance(30) {
                        let storing = keys.filter { candidate in
                            reach(candidate, from: spec).contains { $0.binding.kind.isAsync && $0.binding.scope.keeps }
                        }
                        if !storing.isEmpty { key = random.pick(storing) }
                    }
                    awaitedReach[member, default: []].formUnion(reach(key, from: spec).map(\.binding.key))
                }
                ops.append(.request(member: member, key: key, path: path, hold: random.chance(35)))
                // Often, at once, a synchronous request of a value over what it stored.
                if !path.isSync, let stored = awaitedReach[member], random.chance(40) {
                    let over = Self.keys(keys, over: stored, in: self, from: spec)
                    if !over.isEmpty {
                        ops.append(.request(member: member, key: random.pick(over), path: random.pick([.sync, .lazyGet, .factoryMake]),
                                            hold: false))
                    }
                }
            } else if roll < 55, let member = requested(from: live, random: &random) {
                let keys = visibleKeys(from: members[member]!).filter { !reachesWeak($0, from: members[member]!) }
                guard !keys.isEmpty else { continue }
                let count = 2 + random.below(3)
                // The same key from every task, or a key each (the ring's keys, when there is one).
                let ring = keys.filter { $0.hasPrefix("y") }
                let chosen: [String] = if random.chance(50) {
                    Array(repeating: random.pick(keys), count: count)
                } else if !ring.isEmpty && random.chance(60) {
                    ring
                } else {
                    (0..<count).map { _ in random.pick(keys) }
                }
                ops.append(.concurrent(member: member, keys: chosen, path: random.pick(MPath.allCases)))
            } else if roll < 72 {
                // A spec one of whose parents is held; most often one with no member yet, so that
                // the family's deep members (a grandchild, a template's child's child) are made.
                let childSpecs = specs.indices.filter { spec in spec != 0 && live.contains { members[$0] == specs[spec].parent } }
                guard !childSpecs.isEmpty else { continue }
                let unmade = childSpecs.filter { spec in !members.values.contains(spec) }
                let spec = random.pick(!unmade.isEmpty && random.chance(60) ? unmade : childSpecs)
                let parents = live.filter { members[$0] == specs[spec].parent }
                ops.append(.makeChild(parent: random.pick(parents), spec: spec, id: nextID))
                members[nextID] = spec
                nextID += 1
            } else if roll < 80, let member = live.isEmpty ? nil : random.pick(live) {
                ops.append(.drop(member: member))
                dropped.insert(member)
            } else if roll < 86 {
                if random.chance(50), let member = requested(from: live, random: &random) {
                    let key = random.pick(["r", "d"])
                    ops.append(.withArguments(member: member, key: key, depth: random.below(4), tuple: key == "d" && random.chance(50),
                                              path: random.pick([.sync, .await, .mainActor, .factoryMake, .factoryInstance])))
                } else {
                    ops.append(.release)
                }
            } else if roll < 94, let member = live.isEmpty ? nil : random.pick(live) {
                // The root's shutdown ends most of a scenario: rarer.
                if member == 0 && random.chance(60) { continue }
                ops.append(random.chance(40) ? .awaitShutDown(member: member) : .shutDown(member: member))
            } else if let member = live.isEmpty ? nil : random.pick(live) {
                if member == 0 && random.chance(60) { continue }
                let keys = visibleKeys(from: members[member]!).filter { !reachesWeak($0, from: members[member]!) }
                guard !keys.isEmpty else { continue }
                ops.append(.shutDownDuring(member: member, key: random.pick(keys), count: 1 + random.below(3),
                                           path: random.pick(MPath.allCases)))
            }
        }
    }
}

// MARK: - Readable steps

extension MBinding: CustomStringConvertible {
    var description: String {
        let to: String = switch kind {
        case .type: "initializer"
        case .instance: "instance"
        case .closure: "closure"
        case .provider: "provider"
        case .asyncClosure: "async closure"
        case .asyncProvider: "async provider"
        case .asyncInitializer: "async initializer"
        }
        let needs = deps.isEmpty ? "" : " needing \(deps.map(MLookalike.describe).joined(separator: ", "))"
        let properties = props.isEmpty ? "" : " with properties \(props.map(MLookalike.describe).joined(separator: ", ")), awoken"
        return "\(key): \(to)\(needs)\(properties)\(scope == .unscoped ? "" : " in \(scope.rawValue)")"
    }
}

extension MOp: CustomStringConvertible {
    var description: String {
        switch self {
        case .request(let m, let key, let path, let hold): "request \(key) from m\(m) via \(path.rawValue)\(hold ? ", held" : "")"
        case .concurrent(let m, let keys, let path): "\(keys.count) tasks request \(keys.joined(separator: ", ")) from m\(m) via \(path.rawValue) at once"
        case .makeChild(let parent, let spec, let id): "m\(id) = child of m\(parent) by spec #\(spec)"
        case .drop(let m): "drop m\(m)"
        case .release: "release held values"
        case .shutDown(let m): "shut m\(m) down"
        case .awaitShutDown(let m): "shut m\(m) down with awaitShutDown"
        case .shutDownDuring(let m, let key, let count, let path):
            "shut m\(m) down while \(count) tasks request \(key) from it via \(path.rawValue)"
        case .deep(let m, let key, let links, let path):
            key == "r" ? "request r with argument \(links) from m\(m) via \(path.rawValue)"
                : "request the awaited chain of \(links) links from m\(m) via \(path.rawValue)"
        case .withArguments(let m, let key, let depth, let tuple, let path):
            key == "r" ? "request r with argument \(depth) from m\(m) via \(path.rawValue)"
                : "request d with arguments \(tuple ? "(1, \"x\") as one tuple" : "1, \"x\"") from m\(m) via \(path.rawValue)"
        case .lifecycle(let op): op.description
        }
    }
}

extension MScenario: CustomStringConvertible {
    var description: String {
        var lines = ["scenario \(seed)\(startRoot ? " (root built by Injector.start)" : ""):"]
        for (index, spec) in specs.enumerated() {
            let kind = index == 0 ? "root" : spec.isTemplate ? "template of #\(spec.parent!) providing p" : "child spec of #\(spec.parent!)"
            lines.append("  spec #\(index) \(spec.name) (\(kind))\(spec.observes ? ", observed" : ""):")
            for binding in spec.bindings { lines.append("    \(binding)") }
            for binding in spec.overrides { lines.append("    override \(binding)") }
            for binding in spec.contributions { lines.append("    contribute to L (as \(binding))") }
            if let binding = spec.contextual { lines.append("    a0 when injected into C (as \(binding))") }
            lines += describeCollections(of: spec)
            lines += describeCollectionDecorators(of: spec)
            if !spec.installedTwice.isEmpty {
                lines.append("    installs the module of \(spec.installedTwice.joined(separator: ", ")) twice")
            }
            if spec.installRing > 0 { lines.append("    installs a ring of \(spec.installRing) module(s) installing each other") }
            for decorator in spec.decorators {
                lines.append("    decorate \(decorator.key) with dec\(decorator.id)\(decorator.needs.map { ", which asks its resolver for \($0)" } ?? "")")
            }
        }
        lines += lifecycleDescription
        lines.append("  steps (m0 is the root):")
        for (index, op) in ops.enumerated() { lines.append("    \(index + 1). \(op)") }
        return lines.joined(separator: "\n")
    }
}
