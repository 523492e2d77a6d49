#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Sightless
import Synchronization

/// A value behind a pthread mutex, which the thread sanitizer sees (it does not see
/// `Synchronization.Mutex`'s futex on Linux, and reports its closures as racing).
final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}

// The library's side of a scenario: modules made from its specs, the family built from them,
// and each step run through the public API, with what it shows recorded in the same form as
// the model's prediction (`MRawStep`).

/// The scenario's shared record: every node built (a serial, and a weak reference to find
/// what is alive), builds per label, what observers heard, and what was closed.
final class MLog: Sendable {
    private final class WeakNode {
        weak var node: MNode?
        let label: String
        init(_ node: MNode) {
            self.node = node
            label = node.label
        }
    }

    private struct State {
        var serial = 0
        var builds: [String: Int] = [:]
        var events: [String: Int] = [:]
        var closes: [(id: Int, label: String)] = []
        var closeCounts: [Int: Int] = [:]
        /// The label of the binding whose declarations each closed node's close followed.
        var closedAs: [Int: String] = [:]
        var nodes: [Int: WeakNode] = [:]
        var violations: [String] = []
    }

    private let state = Locked(State())
    /// The lifecycle declarations the values read, and the builds that failed.
    let lifecycle = MLifecycleLog()

    func nextSerial(_ label: String) -> Int {
        state.withLock { state in
            state.serial += 1
            state.builds[label, default: 0] += 1
            return state.serial
        }
    }

    func track(_ node: MNode) {
        let weak = WeakNode(node)
        state.withLock { $0.nodes[node.serial] = weak }
    }

    func heard(_ event: String) { state.withLock { $0.events[event, default: 0] += 1 } }

    /// Something the model says never happens (an awake before the properties are set, twice).
    func violated(_ what: String) { state.withLock { $0.violations.append(what) } }

    func takeViolations() -> [String] {
        state.withLock { state in
            defer { state.violations = [] }
            return state.violations
        }
    }

    func closed(_ node: MNode) {
        state.withLock { state in
            state.closes.append((node.serial, node.label))
            state.closeCounts[node.serial, default: 0] += 1
            state.closedAs[node.serial] = node.closing
        }
    }

    /// The label of the binding whose declarations the close of the node `serial` followed (a
    /// decorated value's: the decorated binding's), or `nil` when it was not closed.
    func closedAs(_ serial: Int) -> String? { state.withLock { $0.closedAs[serial] } }

    func isClosed(_ serial: Int) -> Bool { state.withLock { $0.closeCounts[serial] != nil } }
    func closedTwice() -> [Int] { state.withLock { $0.closeCounts.filter { $0.value > 1 }.map(\.key).sorted() } }

    func takeCloses() -> [(id: Int, label: String)] {
        state.withLock { state in
            defer { state.closes = [] }
            return state.closes
        }
    }

    var builds: [String: Int] { state.withLock { $0.builds } }
    var events: [String: Int] { state.withLock { $0.events } }

    /// The serials of the nodes alive, with their labels.
    func alive() -> [Int: String] {
        state.withLock { state in
            var alive: [Int: String] = [:]
            for (serial, weak) in state.nodes where weak.node != nil { alive[serial] = weak.label }
            return alive
        }
    }
}

/// The one type of value: what built it, and what it holds. Every node is `Closable`
/// (`MNode.make`), so a shutdown closes whatever a storing scope kept, but a node with
/// properties (`PNode`) whose binding keeps nothing: the library refuses an unkept `Closable`
/// type built at once into another value (a `scopeConflict`). A node with properties holds
/// its properties' values after its initializer's, set before the library hands it out.
class MNode: @unchecked Sendable {
    let serial: Int
    let label: String
    /// The label of the binding whose lifecycle declarations its close follows: its own, or for
    /// a decorator's value, the decorated binding's.
    let closing: String
    fileprivate(set) var deps: [MNode]
    let log: MLog

    init(_ label: String, _ deps: [MNode], _ log: MLog, closingAs closing: String? = nil) {
        self.label = label
        self.closing = closing ?? label
        self.deps = deps
        self.log = log
        serial = log.nextSerial(label)
        log.track(self)
    }

    /// A node that is `Closable`, or `AsyncClosable` when its binding's values close so; a
    /// decorator's value closes as the values of the binding it decorates (`closingAs`) are
    /// declared to, so that a shutdown shows whether the decorated value or the value it wraps
    /// is closed.
    static func make(_ label: String, _ deps: [MNode], _ log: MLog, closingAs closing: String? = nil) -> MNode {
        log.lifecycle.close(of: closing ?? label) == .asyncClosable
            ? AsyncClosingNode(label, deps, log, closingAs: closing) : ClosingNode(label, deps, log, closingAs: closing)
    }

    /// Records a close, and throws when the binding's close throws.
    func recordClose() throws { try log.lifecycle.close(self) }

    var tree: MTree { MTree(label: label, id: serial, children: deps.map(\.tree)) }
    var all: [MNode] { [self] + deps.flatMap(\.all) }
}

final class ClosingNode: MNode, Closable, @unchecked Sendable {
    func close() throws { try recordClose() }
}

/// A type nothing binds that declares itself a singleton: built just in time, the family's
/// wherever it is first reached. It needs the root's `MLog`, so that its node is recorded.
final class JitShared: Injectable, Closable, Sendable {
    let node: MNode
    init(log: MLog) { node = MNode.make(MScenario.jit.key, [], log) }
    static let initializer = Initializer(JitShared.init(log:))
    static var scope: Scope { .singleton }
    func close() throws { try node.recordClose() }
}

/// An unscoped type nothing binds that needs `a0`: contextual bindings serve it.
final class Consumer: Injectable, Sendable {
    let node: MNode
    init(log: MLog, a0: MNode) { node = MNode.make(MScenario.consumer, [a0], log) }
    static let initializer = Initializer(Consumer.init(log:a0:), .inject, .named("a0"))
}

/// The raw slot of a dependency's key (`?key`: an optional of it).
func slot(_ key: String) -> RawSlot {
    let (name, lookalike) = MLookalike.split(key)
    if lookalike { return .inject(Key<MLookalike.Node>(named: name)) }
    let (plain, via) = MVia.split(key)
    if via == .optional { return .inject(plain == MScenario.port ? Key<MNode?>() : Key<MNode?>(named: plain)) }
    return key == MScenario.jit.key ? .inject(JitShared.self) : .inject(nodeKey(key))
}

/// The node of an argument read from a raw initializer's arguments (`nil`: an optional one of
/// a key nothing binds).
func node<Built>(_ arguments: Initializer<Built>.Arguments, at index: Int, key: String) throws(InjectionError) -> MNode? {
    if MVia.split(key).via == .optional { return try arguments.value(at: index, as: MNode?.self) }
    return key == MScenario.jit.key ? try arguments.value(at: index, as: JitShared.self).node : try arguments.value(at: index, as: MNode.self)
}

// MARK: - Types with properties

/// A number written as a type (`B1<B0<B1<Z>>>` is 5), so that a type stands for one entry of
/// `MDescriptors`, whatever the scenario: an `Injectable` type's descriptors are read once per
/// process and must depend on the type alone.
protocol MCode: SendableMetatype { static var value: Int { get } }
enum Z: MCode { static var value: Int { 0 } }
enum B0<High: MCode>: MCode { static var value: Int { High.value * 2 } }
enum B1<High: MCode>: MCode { static var value: Int { High.value * 2 + 1 } }
/// The code of a type with properties whose binding keeps its values until shutdown: a
/// `Closable` type.
enum Kept<Inner: MCode>: MCode, MKept { static var value: Int { Inner.value } }
protocol MKept {}

/// What a type with properties declares: the label its values carry, its initializer's
/// dependencies and its properties (as `MBinding` writes them).
struct MDescriptor: Hashable, Sendable {
    var label: String
    var deps: [String]
    var props: [String]
}

/// Descriptors numbered for the process, each number a type (an `MCode`): append-only, so a
/// type's number always means the same descriptor.
final class MTypeTable<Descriptor: Hashable & Sendable>: Sendable {
    private let table = Locked<(list: [Descriptor], index: [Descriptor: Int])>(([], [:]))

    subscript(_ code: Int) -> Descriptor { table.withLock { $0.list[code] } }

    /// The type that stands for `descriptor`, `Kept` (`Closable`) when `kept`.
    func code(of descriptor: Descriptor, kept: Bool) -> any MCode.Type {
        let number = table.withLock { table in
            if let known = table.index[descriptor] { return known }
            table.list.append(descriptor)
            table.index[descriptor] = table.list.count - 1
            return table.list.count - 1
        }
        func keep<Inner: MCode>(_ inner: Inner.Type) -> any MCode.Type { Kept<Inner>.self }
        return kept ? keep(Self.type(number)) : Self.type(number)
    }

    private static func type(_ number: Int) -> any MCode.Type {
        guard number > 0 else { return Z.self }
        func wrap<High: MCode>(_ high: High.Type) -> any MCode.Type { number % 2 == 0 ? B0<High>.self : B1<High>.self }
        return wrap(type(number / 2))
    }
}

/// Every descriptor a `PNode` was made for.
enum MDescriptors {
    private static let types = MTypeTable<MDescriptor>()

    static subscript(_ code: Int) -> MDescriptor { types[code] }

    /// The type that stands for `descriptor`, `Kept` (`Closable`) when `kept`.
    static func code(of descriptor: MDescriptor, kept: Bool) -> any MCode.Type { types.code(of: descriptor, kept: kept) }
}

/// An `Injectable` node with properties: its initializer (raw, of the descriptor's
/// dependencies, and the root's `MLog`), then its properties, then `awakeFromInjection()`,
/// which records itself once the properties are all set, and a violation otherwise.
/// What `PNode` is, whatever its code: how an observer tells its builds.
protocol MPropertiesNode {}

final class PNode<Code: MCode>: MNode, Injectable, MPropertiesNode, @unchecked Sendable {
    private var set: [Bool] = []
    private var awoken = false

    static var descriptor: MDescriptor { MDescriptors[Code.value] }

    static var initializer: Initializer<PNode<Code>> {
        let descriptor = descriptor
        return Initializer<PNode<Code>>([.inject(MLog.self)] + descriptor.deps.map(slot)) { arguments in
            let log = try arguments.value(at: 0, as: MLog.self)
            var nodes: [MNode] = []
            for (index, dep) in descriptor.deps.enumerated() {
                if let found = try node(arguments, at: index + 1, key: dep) { nodes.append(found) }
            }
            let built = PNode<Code>(descriptor.label, nodes, log)
            built.set = Array(repeating: false, count: descriptor.props.count)
            return built
        }
    }

    static var properties: Properties<PNode<Code>> {
        var properties = Properties<PNode<Code>>()
        for (index, prop) in descriptor.props.enumerated() {
            let (key, via) = MVia.split(prop)
            properties = via == .optional ? properties.inject(\.[optional: index], nodeKey(key))
                : properties.inject(\.[required: index], nodeKey(key))
        }
        return properties
    }

    /// A node of the type made by a decorator: no properties, never awoken.
    static func decorated(_ label: String, _ deps: [MNode], _ log: MLog) -> PNode<Code> { PNode<Code>(label, deps, log) }

    subscript(required index: Int) -> MNode {
        get { self }
        set { fill(index, newValue) }
    }

    subscript(optional index: Int) -> MNode? {
        get { nil }
        set { fill(index, newValue) }
    }

    private func fill(_ index: Int, _ value: MNode?) {
        if awoken || set[index] { log.violated("property \(index) of \(label) (serial \(serial)) set again or after awakeFromInjection") }
        set[index] = true
        if let value { deps.append(value) }
    }

    func awakeFromInjection() {
        if awoken { log.violated("\(label) (serial \(serial)) awoken twice") }
        if set.contains(false) { log.violated("\(label) (serial \(serial)) awoken before its properties were set") }
        awoken = true
        log.heard("awake:\(label)")
    }
}

extension PNode: Closable where Code: MKept {
    func close() throws { try recordClose() }
}

/// The name of the key a binding with properties binds its type under, in its spec's modules
/// (the key of the scenario is an alias of it): `key@spec`, `'` for an override's.
func propertiesKeyName(_ binding: MBinding, in spec: MSpec) -> String {
    "\(binding.key)@\(spec.name)\(binding.isOverride ? "'" : "")"
}

/// The type of a binding with properties: `Closable` when its scope keeps its values until
/// shutdown, and then the type, not its alias, is in the binding's scope and decorated.
func propertiesCode(_ binding: MBinding) -> any MCode.Type {
    MDescriptors.code(of: MDescriptor(label: binding.label, deps: binding.deps, props: binding.props), kept: binding.scope.keeps)
}

private func bindPropertiesType<Code: MCode>(_ code: Code.Type, _ binder: Binder, _ name: String, _ scope: MScope?) {
    let builder = binder.bind(Key<PNode<Code>>(named: name))
    if let scope { builder.in(scope.scope) }
}

private func decoratePropertiesType<Code: MCode>(
    _ code: Code.Type, _ binder: Binder, _ name: String, label: String, need: String?, log: MLog
) {
    if let need {
        binder.decorate(Key<PNode<Code>>(named: name)) { (value: PNode<Code>, resolver: Resolver) throws -> PNode<Code> in
            PNode<Code>.decorated(label, [value] + [try syncDependency(resolver, need)].compactMap { $0 }, log)
        }
    } else {
        binder.decorate(Key<PNode<Code>>(named: name)) { (value: PNode<Code>) -> PNode<Code> in PNode<Code>.decorated(label, [value], log) }
    }
}

private func aliasPropertiesType<Code: MCode>(_ code: Code.Type, _ start: BindingBuilder<MNode>, _ name: String)
    -> ScopedBindingBuilder<MNode> {
    start.to(Key<PNode<Code>>(named: name))
}

/// A scope of one's own that keeps one value in an `InstanceStorage`.
struct KeepOne: ScopeStrategy {
    func scope<Value>(_ unscoped: Provision<Value>) -> Provision<Value> {
        unscoped.stored(in: InstanceStorage(unscoped.key))
    }
}

/// A dependency asked for synchronously, as `MVia` says (`nil`: an optional of a key its
/// resolver does not see bound).
func syncDependency(_ resolver: Resolver, _ dep: String) throws(InjectionError) -> MNode? {
    let (key, via) = MVia.split(dep)
    if key == MScenario.jit.key {
        switch via {
        case .direct: return try resolver.getInstance(JitShared.self).node
        case .lazy: return try resolver.getInstance(Lazy<JitShared>.self).get().node
        case .factory: return try resolver.getInstance(Factory<JitShared>.self).make().node
        case .optional: return try resolver.getInstance(JitShared?.self)?.node
        }
    }
    let name = key == MScenario.port ? nil : key
    switch via {
    case .direct: return try resolver.getInstance(Key<MNode>(named: name))
    case .lazy: return try resolver.getInstance(Key<Lazy<MNode>>(named: name)).get()
    case .factory: return try resolver.getInstance(Key<Factory<MNode>>(named: name)).make()
    case .optional: return try resolver.getInstance(Key<MNode?>(named: name))
    }
}

/// A dependency awaited, as `MVia` says.
func awaitedDependency(_ resolver: Resolver, _ dep: String) async throws(InjectionError) -> MNode? {
    let (key, via) = MVia.split(dep)
    if key == MScenario.jit.key {
        switch via {
        case .direct: return try await resolver.instance(JitShared.self).node
        case .lazy: return try await resolver.getInstance(Lazy<JitShared>.self).value.node
        case .factory: return try await resolver.getInstance(Factory<JitShared>.self).instance().node
        case .optional: return try await resolver.instance(JitShared?.self)?.node
        }
    }
    let name = key == MScenario.port ? nil : key
    switch via {
    case .direct: return try await resolver.instance(Key<MNode>(named: name))
    case .lazy: return try await resolver.getInstance(Key<Lazy<MNode>>(named: name)).value
    case .factory: return try await resolver.getInstance(Key<Factory<MNode>>(named: name)).instance()
    case .optional: return try await resolver.instance(Key<MNode?>(named: name))
    }
}

struct SyncMaker: Provider {
    let label: String
    let deps: [String]
    let log: MLog
    func provide(_ resolver: Resolver) throws -> MNode {
        var nodes: [MNode] = []
        for dep in deps { if let found = try syncDependency(resolver, dep) { nodes.append(found) } }
        return try MNode.build(label, nodes, log)
    }
}

struct AsyncMaker: AsyncProvider {
    let label: String
    let deps: [String]
    let log: MLog
    func provide(_ resolver: Resolver) async throws -> MNode {
        var nodes: [MNode] = []
        for dep in deps { if let found = try await awaitedDependency(resolver, dep) { nodes.append(found) } }
        await Task.yield()
        return try MNode.build(label, nodes, log)
    }
}

extension MScope {
    var scope: Scope {
        switch self {
        case .unscoped: .unscoped
        case .singleton: .singleton
        case .weak: .weak
        case .perRequest: .perRequest
        case .custom: Scope("keep one", KeepOne())
        case .eager: .eagerSingleton
        }
    }
}

/// The module of one spec.
struct MModule: Module {
    let spec: MSpec
    let log: MLog
    let instances: [String: MNode]
    /// Whether this is the module of the spec's overrides, which binds them alone.
    var overrides = false
    /// The keys an observer records (a contribution's key is the library's own).
    var known: Set<String> = []
    /// Whether the spec's contextual binding replaces an ancestor's, and so is an override.
    var contextualOverrides = false
    /// For the module of bindings a spec installs twice: the keys the spec's overrides replace.
    /// The type of such a binding with properties is bound unscoped: the scope belongs to the
    /// binding the override replaced (an eager one would be built, or refused, where the model
    /// has none), and the type is there only as the duplicate the module makes.
    var replacedKeys: Set<String> = []

    private func bindContextual(_ contextual: MBinding, _ binder: Binder) {
        apply(contextual, binder.bind(Key<MNode>(named: "a0")).whenInjected(into: Consumer.self))
    }

    func configure(_ binder: Binder) {
        let log = log
        if overrides {
            bind(spec.overrides, binder)
            if let contextual = spec.contextual, contextualOverrides { bindContextual(contextual, binder) }
            bindCollections(binder)
            return
        }
        if spec.parent == nil {
            binder.bind(MLog.self).to(instance: log)
            // `r`: a closure of a creation-time argument that recurses down to 0.
            binder.bind(Key<MNode>(named: "r")).to { (resolver: Resolver, depth: Int) throws -> MNode in
                depth <= 0 ? MNode.make("r", [], log) : MNode.make("r", [try resolver.getInstance(Key<MNode>(named: "r"), arguments: depth - 1)], log)
            }
            // `d`: an initializer of two creation-time arguments.
            binder.bind(Key<MNode>(named: "d")).to(Initializer<MNode>([.dynamic(Int.self), .dynamic(String.self)]) { _ in
                MNode.make("d", [], log)
            })
        }
        bind(spec.bindings.filter { !spec.installedTwice.contains($0.key) }, binder)
        if !spec.installedTwice.isEmpty {
            // A module of those bindings alone (of a spec with a parent: no root's own keys).
            var part = MModule(spec: MSpec(name: spec.name, parent: 0, bindings: spec.bindings.filter { spec.installedTwice.contains($0.key) }),
                               log: log, instances: instances)
            part.replacedKeys = Set(spec.overrides.map(\.key))
            binder.install(part)
            binder.install(part)
        }
        if spec.installRing > 0 { binder.install(MRing(index: 0, count: spec.installRing)) }
        for contribution in spec.contributions { apply(contribution, binder.contribute(to: [MNode].self)) }
        bindCollections(binder)
        if let contextual = spec.contextual, !contextualOverrides { bindContextual(contextual, binder) }
        // The types of the bindings with properties this module or the spec's overrides bind,
        // last, so that each is reached first from its alias.
        for binding in (spec.bindings.filter { !spec.installedTwice.contains($0.key) } + spec.overrides) where !binding.props.isEmpty
            && binding.kind == .type && spec.effective.contains(binding) {
            let scope = binding.scope.keeps && !replacedKeys.contains(binding.key) ? binding.scope : nil
            bindPropertiesType(propertiesCode(binding), binder, propertiesKeyName(binding, in: spec), scope)
        }
        decorateAndObserve(binder)
    }

    private func bind(_ bindings: [MBinding], _ binder: Binder) {
        for binding in bindings { apply(binding, binder.bind(nodeKey(binding.key))) }
    }

    /// Finishes `start`, the binding of a key or a contribution, as `binding` says.
    func apply(_ binding: MBinding, _ start: BindingBuilder<MNode>) {
        let log = log
        let label = binding.label
        let deps = binding.deps
        let builder: ScopedBindingBuilder<MNode>
        switch binding.kind {
        case .instance:
            start.to(instance: instances[binding.key]!)
            return
        case .type where !binding.props.isEmpty:
            // An alias of the `Injectable` type that declares the properties, in its scope; or,
            // for a scope that keeps values until shutdown, unscoped (the type is in it).
            builder = aliasPropertiesType(propertiesCode(binding), start, propertiesKeyName(binding, in: spec))
            if binding.scope.keeps { return }
        case .type:
            let names = binding.deps.map { dep in MVia.split(dep).via == .optional ? dep : MVia.split(dep).key }
            builder = start.to(Initializer<MNode>(names.map(slot)) { arguments in
                var nodes: [MNode] = []
                for (index, name) in names.enumerated() { if let found = try node(arguments, at: index, key: name) { nodes.append(found) } }
                return try MNode.build(label, nodes, log)
            })
        case .closure:
            builder = start.to { (resolver: Resolver) throws -> MNode in
                var nodes: [MNode] = []
                for dep in deps { if let found = try syncDependency(resolver, dep) { nodes.append(found) } }
                return try MNode.build(label, nodes, log)
            }
        case .provider:
            builder = start.to(provider: SyncMaker(label: label, deps: deps, log: log))
        case .asyncClosure:
            builder = start.to { (resolver: Resolver) async throws -> MNode in
                var nodes: [MNode] = []
                for dep in deps { if let found = try await awaitedDependency(resolver, dep) { nodes.append(found) } }
                await Task.yield()
                return try MNode.build(label, nodes, log)
            }
        case .asyncProvider:
            builder = start.to(provider: AsyncMaker(label: label, deps: deps, log: log))
        case .asyncInitializer:
            builder = start.to(asyncInitializer(label: label, deps: deps, log: log))
        }
        if binding.scope != .unscoped { addCloser(binding, builder.in(binding.scope.scope)) }
    }

    private func decorateAndObserve(_ binder: Binder) {
        let known = known
        let log = log
        decorateCollections(binder)
        for decorator in spec.decorators {
            let label = "dec\(decorator.id)"
            if let binding = spec.effective.first(where: { $0.key == decorator.key }), binding.kind == .type, !binding.props.isEmpty,
               binding.scope.keeps {
                decoratePropertiesType(propertiesCode(binding), binder, propertiesKeyName(binding, in: spec), label: label,
                                       need: decorator.needs, log: log)
                continue
            }
            // The decorated binding: an override in place of the spec's binding of the key.
            let closing = spec.effective.first { $0.key == decorator.key }?.label
            if let need = decorator.needs {
                binder.decorate(Key<MNode>(named: decorator.key)) { (value: MNode, resolver: Resolver) throws -> MNode in
                    MNode.make(label, [value] + [try syncDependency(resolver, need)].compactMap { $0 }, log, closingAs: closing)
                }
            } else {
                binder.decorate(Key<MNode>(named: decorator.key)) { (value: MNode) -> MNode in
                    MNode.make(label, [value], log, closingAs: closing)
                }
            }
        }
        if spec.observes {
            let name = spec.name
            binder.observe { event in
                if ObjectIdentifier(event.key.type) == ObjectIdentifier(JitShared.self) { log.heard("\(name):\(MScenario.jit.key)") }
                if ObjectIdentifier(event.key.type) == ObjectIdentifier(Consumer.self) { log.heard("\(name):\(MScenario.consumer)") }
                // An array's, a set's and a map's builds, gathered on each request.
                if ObjectIdentifier(event.key.type) == ObjectIdentifier([MNode].self) { log.heard("\(name):\(MScenario.collection)") }
                if ObjectIdentifier(event.key.type) == ObjectIdentifier(Set<MNode>.self) { log.heard("\(name):\(MScenario.set)") }
                if ObjectIdentifier(event.key.type) == ObjectIdentifier([String: MNode].self) { log.heard("\(name):\(MScenario.map)") }
                // A candidate's type builds `P`'s values.
                if event.key.type is any MCandidateNode.Type { log.heard("\(name):\(MScenario.port)") }
                // A binding with properties is an alias, which builds nothing: its type's build
                // is the binding's.
                if event.key.type is any MPropertiesNode.Type, let typeName = event.key.name, let at = typeName.firstIndex(of: "@") {
                    log.heard("\(name):\(typeName[..<at])")
                }
                guard ObjectIdentifier(event.key.type) == ObjectIdentifier(MNode.self), case let key = event.key.name ?? MScenario.port,
                      known.contains(key) else { return }
                log.heard("\(name):\(key)")
            }
        }
    }
}

/// One of `count` modules that install each other in a ring, the last installing the first.
struct MRing: Module, Equatable {
    let index: Int
    let count: Int
    func configure(_ binder: Binder) { binder.install(MRing(index: (index + 1) % count, count: count)) }
}

/// An `async` initializer of the binding's dependencies: none, one (perhaps a `Lazy` of its
/// key, awaited), or two.
private func asyncInitializer(label: String, deps: [String], log: MLog) -> Initializer<MNode> {
    let split = deps.map(MVia.split)
    switch split.count {
    case 0:
        return Initializer<MNode>({ () async throws -> MNode in
            await Task.yield()
            return try MNode.build(label, [], log)
        })
    case 1 where split[0].via == .lazy:
        return Initializer<MNode>({ (other: Lazy<MNode>) async throws -> MNode in
            try MNode.build(label, [try await other.value], log)
        }, .named(split[0].key))
    case 1:
        return Initializer<MNode>({ (other: MNode) async throws -> MNode in
            await Task.yield()
            return try MNode.build(label, [other], log)
        }, .named(split[0].key))
    default:
        return Initializer<MNode>({ (first: MNode, second: MNode) async throws -> MNode in
            await Task.yield()
            return try MNode.build(label, [first, second], log)
        }, .named(split[0].key), .named(split[1].key))
    }
}

/// What a request returned: its tree, and the nodes it holds (which the test holds when asked to).
struct Fetched: Sendable {
    let tree: MTree
    let nodes: [MNode]

    init(tree: MTree, nodes: [MNode]) {
        self.tree = tree
        self.nodes = nodes
    }

    init(node: MNode) { self.init(tree: node.tree, nodes: [node]) }
}

/// Numbers each collection a request returns (a value, with no identity of its own).
private let collections = Atomic(0)

struct LibraryRunner {
    let scenario: MScenario
    let log = MLog()
    var members: [Int: Injector] = [:]
    var templates: [Int: ChildTemplate<MNode>] = [:]
    var held: [MNode] = []

    init(scenario: MScenario) { self.scenario = scenario }

    private func instances(of bindings: [MBinding]) -> [String: MNode] {
        var made: [String: MNode] = [:]
        for binding in bindings where binding.kind == .instance {
            made[binding.key] = MNode.make(binding.label, [], log)
        }
        return made
    }

    /// The spec's module and, if it has overrides, their module.
    func modules(_ spec: Int) -> (modules: [any Module], overrides: [any Module]) {
        let s = scenario.specs[spec]
        // A contextual binding an ancestor declares too is bound by the ancestor: this one
        // replaces it, as an override.
        var ancestor = s.parent
        var replaces = false
        while let index = ancestor {
            if scenario.specs[index].contextual != nil { replaces = true }
            ancestor = scenario.specs[index].parent
        }
        let contextual = s.contextual.map { [$0] } ?? []
        let entries = s.entryBindings
        let module = MModule(spec: s, log: log,
                             instances: instances(of: s.bindings + s.contributions + (replaces ? [] : contextual) + entries.filter { !$0.isOverride }),
                             known: known, contextualOverrides: replaces)
        guard !s.overrides.isEmpty || (replaces && !contextual.isEmpty) || entries.contains(where: \.isOverride) else {
            return ([module] + collectionModules(spec), [])
        }
        return ([module] + collectionModules(spec),
                [MModule(spec: s, log: log, instances: instances(of: s.overrides + (replaces ? contextual : []) + entries.filter(\.isOverride)),
                         overrides: true, contextualOverrides: replaces)])
    }

    /// Every key the scenario binds.
    private var known: Set<String> {
        Set(scenario.specs.flatMap { $0.bindings.map(\.key) + $0.overrides.map(\.key) } + ["r", "d"])
    }

    mutating func setUp() async -> MRawStep {
        var step = MRawStep()
        log.lifecycle.declare(scenario.lifecycle)
        do {
            let (rootModules, rootOverrides) = modules(0)
            let root = scenario.startRoot ? try await Injector.start(modules: rootModules, overrides: rootOverrides)
                : try Injector(modules: rootModules, overrides: rootOverrides)
            members[0] = root
            for (index, spec) in scenario.specs.enumerated() where spec.isTemplate {
                let (templateModules, templateOverrides) = modules(index)
                templates[index] = try root.childTemplate(providing: Key<MNode>(named: "p"), modules: templateModules, overrides: templateOverrides)
            }
        } catch {
            step.outcomes.append(.error(error.kind))
        }
        finish(&step)
        return step
    }

    /// One request through `path`.
    static func fetch(_ injector: Injector, _ name: String, _ path: MPath) async -> Result<Fetched, InjectionError> {
        if let gathered = await fetchGathered(injector, name, path) { return gathered }
        if name == MScenario.collection {
            return await fetch(injector, Key<[MNode]>(), path).map { nodes in
                Fetched(tree: MTree(label: MScenario.collection, id: -collections.add(1, ordering: .relaxed).newValue,
                                    children: nodes.map(\.tree)), nodes: nodes)
            }
        }
        if name == MScenario.jit.key {
            return await fetch(injector, Key<JitShared>(), path).map { Fetched(node: $0.node) }
        }
        if name == MScenario.consumer {
            return await fetch(injector, Key<Consumer>(), path).map { Fetched(node: $0.node) }
        }
        return await fetch(injector, Key<MNode>(named: name), path).map(Fetched.init(node:))
    }

    static func fetch<Value: Sendable>(_ injector: Injector, _ key: Key<Value>, _ path: MPath) async -> Result<Value, InjectionError> {
        let name = key.name
        do {
            switch path {
            case .sync: return .success(try injector.getInstance(key))
            case .await: return .success(try await injector.instance(key))
            case .mainActor:
                return await MainActor.run { () -> Result<Value, InjectionError> in
                    do throws(InjectionError) { return .success(try injector.getInstance(key)) } catch { return .failure(error) }
                }
            case .lazyGet: return .success(try injector.getInstance(Key<Lazy<Value>>(named: name)).get())
            case .lazyValue: return .success(try await injector.getInstance(Key<Lazy<Value>>(named: name)).value)
            case .factoryMake: return .success(try injector.getInstance(Key<Factory<Value>>(named: name)).make())
            case .factoryInstance: return .success(try await injector.getInstance(Key<Factory<Value>>(named: name)).instance())
            }
        } catch {
            return .failure(error)
        }
    }

    /// A request of `r` (with `depth`) or `d` (with 1 and "x", as two values or one tuple).
    static func fetchWithArguments(_ injector: Injector, _ name: String, depth: Int, tuple: Bool, _ path: MPath) async
        -> Result<MNode, InjectionError> {
        let key = Key<MNode>(named: name)
        do {
            if name == "r" {
                switch path {
                case .await, .lazyValue: return .success(try await injector.instance(key, arguments: depth))
                case .mainActor:
                    return await MainActor.run { () -> Result<MNode, InjectionError> in
                        do throws(InjectionError) { return .success(try injector.getInstance(key, arguments: depth)) } catch { return .failure(error) }
                    }
                case .factoryMake: return .success(try injector.getInstance(Key<Factory<MNode, Int>>(named: name)).make(depth))
                case .factoryInstance: return .success(try await injector.getInstance(Key<Factory<MNode, Int>>(named: name)).instance(depth))
                case .sync, .lazyGet: return .success(try injector.getInstance(key, arguments: depth))
                }
            }
            switch path {
            case .await, .lazyValue:
                return .success(tuple ? try await injector.instance(key, arguments: (1, "x")) : try await injector.instance(key, arguments: 1, "x"))
            case .mainActor:
                return await MainActor.run { () -> Result<MNode, InjectionError> in
                    do throws(InjectionError) {
                        return .success(tuple ? try injector.getInstance(key, arguments: (1, "x")) : try injector.getInstance(key, arguments: 1, "x"))
                    } catch { return .failure(error) }
                }
            case .factoryMake: return .success(try injector.getInstance(Key<Factory<MNode, Int, String>>(named: name)).make(1, "x"))
            case .factoryInstance: return .success(try await injector.getInstance(Key<Factory<MNode, Int, String>>(named: name)).instance(1, "x"))
            case .sync, .lazyGet:
                return .success(tuple ? try injector.getInstance(key, arguments: (1, "x")) : try injector.getInstance(key, arguments: 1, "x"))
            }
        } catch {
            return .failure(error)
        }
    }

    /// The outcome of a request; `racing`: made while a shutdown ran, so that what it got may
    /// have been closed after it got it.
    func outcome(_ result: Result<Fetched, InjectionError>, _ step: inout MRawStep, racing: Bool = false) -> MOutcome {
        switch result {
        case .success(let fetched):
            for part in fetched.nodes.flatMap(\.all) where !racing && log.isClosed(part.serial) {
                step.violations.append("handed out \(part.label) (serial \(part.serial)), which was closed")
            }
            return .value(fetched.tree)
        case .failure(let error):
            if let record = lifecycleRecord(of: error) { step.lifecycle.append(record) }
            return .error(error.kind)
        }
    }

    mutating func perform(_ op: MOp) async -> MRawStep {
        var step = MRawStep()
        switch op {
        case .request(let member, let key, let path, let hold):
            guard let injector = members[member] else { break }
            let result = await Self.fetch(injector, key, path)
            if hold, case .success(let fetched) = result { held += fetched.nodes }
            step.outcomes.append(outcome(result, &step))
        case .concurrent(let member, let keys, let path):
            guard let injector = members[member] else { break }
            let results = await withTaskGroup(of: (Int, Result<Fetched, InjectionError>).self) { group in
                for (index, key) in keys.enumerated() { group.addTask { (index, await Self.fetch(injector, key, path)) } }
                var results: [(Int, Result<Fetched, InjectionError>)] = []
                for await result in group { results.append(result) }
                return results.sorted { $0.0 < $1.0 }.map(\.1)
            }
            for result in results { step.outcomes.append(outcome(result, &step)) }
        case .makeChild(let parent, let spec, let id):
            guard let parentInjector = members[parent] else { break }
            do {
                if scenario.specs[spec].isTemplate {
                    let value = MNode.make("p", [], log)
                    guard let template = templates[spec] else { break }
                    members[id] = try template.child(value)
                } else {
                    let (childModules, childOverrides) = modules(spec)
                    members[id] = try parentInjector.child(modules: childModules, overrides: childOverrides)
                }
            } catch {
                step.outcomes.append(.error(error.kind))
            }
        case .drop(let member):
            members[member] = nil
        case .release:
            held = []
        case .shutDown(let member):
            guard let injector = members[member] else { break }
            _ = log.takeCloses()
            do { try injector.shutDown() } catch { step.lifecycle.append(shutdownRecord(of: error)) }
            step.closes = log.takeCloses()
        case .withArguments(let member, let key, let depth, let tuple, let path):
            guard let injector = members[member] else { break }
            let result = await Self.fetchWithArguments(injector, key, depth: depth, tuple: tuple, path)
            step.outcomes.append(outcome(result.map(Fetched.init(node:)), &step))
        case .deep(let member, let key, let links, let path):
            guard let injector = members[member] else { break }
            step.outcomes.append(outcome(await Self.fetchDeep(injector, key: key, links: links, path: path), &step))
        case .awaitShutDown(let member):
            guard let injector = members[member] else { break }
            _ = log.takeCloses()
            do { try await injector.awaitShutDown() } catch { step.lifecycle.append(shutdownRecord(of: error)) }
            step.closes = log.takeCloses()
        case .shutDownDuring(let member, let key, let count, let path):
            guard let injector = members[member] else { break }
            let results = await withTaskGroup(of: (Int, Result<Fetched, InjectionError>?).self) { group in
                for index in 0..<count { group.addTask { (index, await Self.fetch(injector, key, path)) } }
                group.addTask {
                    try? injector.shutDown()
                    return (-1, nil)
                }
                var results: [(Int, Result<Fetched, InjectionError>)] = []
                for await (index, result) in group { if let result { results.append((index, result)) } }
                return results.sorted { $0.0 < $1.0 }.map(\.1)
            }
            for result in results { step.outcomes.append(outcome(result, &step, racing: true)) }
            step.closesUnknown = true
            _ = log.takeCloses()
        case .lifecycle(let op):
            await performWithChild(op, step: &step)
        }
        finish(&step)
        return step
    }

    private func finish(_ step: inout MRawStep) {
        step.violations += closeFailedOrderViolations(step, closedAs: log.closedAs)
        step.builds = log.builds
        step.events = log.events
        step.alive = Set(log.alive().keys)
        for serial in log.closedTwice() { step.violations.append("closed serial \(serial) more than once") }
        step.violations += log.takeViolations()
    }

    /// Drops the whole family and everything held; returns what is still alive after a grace
    /// period (a leak).
    mutating func tearDown() async -> [Int: String] {
        members = [:]
        templates = [:]
        held = []
        for _ in 0..<100 {
            if log.alive().isEmpty { return [:] }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return log.alive()
    }
}
