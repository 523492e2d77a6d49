/// Links one node: hands its descriptor the plans of the nodes it depends on, and lays out its
/// dynamic arguments.
final class Linker: Linking, LinkingNode {
    private let key: AnyKey
    private let location: SourceLocation?
    private let nodes: LinkedNodes
    let owner: CompilationOwner
    /// The node's dynamic arguments, laid out as they are linked; made for the first one, so
    /// that a node without any (most of them) makes no builder and no signature token.
    private var arguments: DynamicSignature.Builder?
    private var inherited: DynamicSignature?
    private(set) var awaitedDependencies: [AnyNode] = []
    /// See `LinkingNode.guardsAwaited`.
    var guardsAwaited = false
    var collectsReads = false
    var mainActorBody: Any?
    /// The node the last call of `plan(for:as:)` found, by the dependency's key.
    private var lastFound: (key: AnyKey, node: AnyNode)?

    /// What the graph decided for the node being linked.
    let meaning: Meaning
    var reentry: Meaning.Reentry { meaning.reentry }

    /// How the binding closes the value its scope keeps, if it says (`onShutdown`).
    let closer: ValueCloser?

    /// For a value built on an actor only for what it holds (`Meaning.isolatedForBuild`), the
    /// way from it to the value isolated there; `nil` otherwise.
    var heldIsolated: HeldIsolation?

    /// The edges the graph found for the node being linked, and the dependencies of its recipe
    /// they fill (`BindingGraph.Edge.dependencyIndex`): a dependency's node is found by its edge,
    /// with no key hashed.
    private let edges: [BindingGraph.Edge]
    private let dependencies: [Dependency]
    /// Where the next search of `edges` starts: a recipe links its dependencies in order, so
    /// each is found at once.
    private var nextEdge = 0

    init(
        key: AnyKey, location: SourceLocation?, nodes: LinkedNodes, owner: CompilationOwner, meaning: Meaning = .plain,
        closer: ValueCloser? = nil, edges: [BindingGraph.Edge] = [], dependencies: [Dependency] = []
    ) {
        self.key = key
        self.edges = edges
        self.dependencies = dependencies
        self.closer = closer
        self.meaning = meaning
        self.owner = owner
        self.location = location
        self.nodes = nodes
    }

    var dynamicSignature: DynamicSignature? { inherited ?? arguments?.build() }

    /// Runs `body` on the builder of the node's dynamic arguments, made if there is none yet.
    private func layingOutArguments<Result>(_ body: (inout DynamicSignature.Builder) -> Result) -> Result {
        var builder = arguments ?? DynamicSignature.Builder()
        arguments = nil   // the builder's slots stay uniquely referenced while `body` adds to them
        defer { arguments = builder }
        return body(&builder)
    }

    var decorators: [Decorator] { nodes.decorators[key] ?? [] }

    /// The key whose node fills this node's dependency on `key`: the key of a contextual
    /// binding for this consumer, or `key` itself.
    private func served(_ dependency: AnyKey) -> AnyKey {
        nodes.contextual.isEmpty ? dependency : nodes.contextual[key]?[dependency] ?? dependency
    }

    var observers: InstanceObservers? { nodes.observers }

    var rethrow: @Sendable (any Error) -> InjectionError {
        if let made = madeRethrow { return made }
        let key = key, location = location
        let made: @Sendable (any Error) -> InjectionError = { error in
            InjectionError.wrap(error, at: key, location: location)
        }
        madeRethrow = made
        return made
    }
    /// `rethrow`, made once per node: each plan of the node that rethrows keeps the same closure.
    private var madeRethrow: (@Sendable (any Error) -> InjectionError)?

    func mainActorPlan<Value>(for dependency: Dependency, as type: Value.Type) -> MainActorPlan<Value>? {
        guard let found = lastFound, found.key == dependency.key, keyAwaitedInPlace(for: dependency) == nil else { return nil }
        return (found.node as? Node<Value>)?.mainActorPlan
    }

    func plan<Value>(for dependency: Dependency, as type: Value.Type) throws -> Plan<Value> {
        if let node = edgeTarget(of: dependency) ?? nodes.node(for: served(dependency.key)) {
            lastFound = (dependency.key, node)
            let typed = try node.typed(as: Value.self)
            if dependency.isTarget { inherited = node.signature }
            if node.awaited != nil {
                awaitedDependencies.append(node)
                if guardsAwaited, let covered = typed.coveredPlan { return covered }
            }
            return typed.plan
        }
        if dependency.isDeferred, let deferred = DependencyTraits.of(Value.self).deferred,
           let plan = deferred.deferredPlan(for: dependency) as? Plan<Value> {
            return plan
        }
        if let wrapped = dependency.wrappedKey?.type {
            // Opened from the wrapped type the dependency read from its metadata, rather than
            // by a conformance, whose first lookup scans every conformance record.
            func open<Wrapped>(_ type: Wrapped.Type) throws -> Plan<Value>? {
                try optionalPlan(for: dependency, wrapped: Wrapped.self) as? Plan<Value>
            }
            if let plan = try open(wrapped) { return plan }
        }
        throw InjectionError(.internalInconsistency(.notLinked(key: dependency.key)), path: [key, dependency.key],
                             location: dependency.location)
    }

    /// The node that fills `dependency`: an initializer asks for a dependency's plan, then at
    /// once for what else it needs of that node, found again without a lookup.
    /// The linked node of the edge that fills `dependency` at once (not through a wrapped type,
    /// nor deferred), if the graph found one and it is linked; `nil` sends the caller to the
    /// nodes by key.
    private func edgeTarget(of dependency: Dependency) -> AnyNode? {
        let count = edges.count
        var position = nextEdge
        for _ in 0..<count {
            if position == count { position = 0 }
            let edge = edges[position]
            position += 1
            guard !edge.throughWrapped, !edge.isDeferred, let target = edge.target,
                  dependencies[edge.dependencyIndex].key == dependency.key else { continue }
            nextEdge = position
            return nodes.byNode[target]
        }
        return nil
    }

    private func linkedNode(for dependency: Dependency) -> AnyNode? {
        if let (key, node) = lastFound, key == dependency.key { return node }
        return nodes.node(for: served(dependency.key))
    }

    func storage(for dependency: Dependency) -> InstanceStorage? {
        linkedNode(for: dependency)?.storage
    }

    func keyAwaitedInPlace(for dependency: Dependency) -> AnyKey? {
        guard let node = linkedNode(for: dependency), node.awaitsInPlace, node.isolation == nil else { return nil }
        return node.key
    }

    func optionalPlan<Wrapped>(for dependency: Dependency, wrapped: Wrapped.Type) throws -> Plan<Wrapped?> {
        // `Lazy<T>?` or `Factory<T, …>?`: the wrapper when `T` can be built, else nil.
        if let target = dependency.deferredKey, let deferred = DependencyTraits.of(Wrapped.self).deferred {
            guard nodes.willExist(target), let plan = deferred.deferredPlan(for: dependency) as? Plan<Wrapped> else {
                return { _ in nil }
            }
            return { resolution in try plan(&resolution) }
        }
        guard let wrappedKey = dependency.wrappedKey, let node = nodes.node(for: served(wrappedKey)) else {
            return { _ in nil }
        }
        if dependency.isTarget { inherited = node.signature }
        if node.awaited != nil { awaitedDependencies.append(node) }
        let plan = try node.typed(as: Wrapped.self).plan
        return { resolution in try plan(&resolution) }
    }

    func dynamicPlan<Value>(for dependency: Dependency, as type: Value.Type) -> Plan<Value> {
        layingOutArguments { arguments in
            arguments.plan(role: dependency.role, key: dependency.key, location: dependency.location, owner: key,
                           as: Value.self)
        }
    }

    func dynamicSlot<Value>(for dependency: Dependency, as type: Value.Type) -> DynamicSlot {
        layingOutArguments { arguments in
            arguments.slot(role: dependency.role, key: dependency.key, location: dependency.location, owner: key,
                           as: Value.self)
        }
    }
}
