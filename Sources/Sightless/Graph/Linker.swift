/// Links one node: hands its descriptor the plans of the nodes it depends on, and lays out its
/// creation-time arguments.
final class Linker: Linking {
    private let key: AnyKey
    private let nodes: LinkedNodes
    private var arguments = DynamicSignature.Builder()
    private var inherited: DynamicSignature?

    init(key: AnyKey, nodes: LinkedNodes) {
        self.key = key
        self.nodes = nodes
    }

    var dynamicSignature: DynamicSignature? { inherited ?? arguments.build() }

    var rethrow: @Sendable (any Error) -> InjectionError {
        let key = key
        return { error in InjectionError.wrap(error, at: key) }
    }

    func plan<Value>(for dependency: Dependency, as type: Value.Type) throws -> Plan<Value> {
        if let node = nodes.node(for: dependency.key) {
            if dependency.role == .target { inherited = node.signature }
            // The node of a key whose type is Value is always a Node<Value>.
            return unsafeDowncast(node, to: Node<Value>.self).plan
        }
        if dependency.isDeferred, let deferred = Value.self as? any DeferredDependency.Type,
           let plan = try deferred.deferredPlan(linking: self, dependency: dependency) as? Plan<Value> {
            return plan
        }
        if dependency.wrappedKey != nil, let optional = Value.self as? any OptionalDependency.Type,
           let plan = try optional.optionalPlan(linking: self, dependency: dependency) as? Plan<Value> {
            return plan
        }
        throw InjectionError(.missingBinding, key: dependency.key,
                             message: "Nothing provides \(dependency.key), needed by \(key) (\(dependency.role)).",
                             fix: "Bind \(dependency.key) in a module.", location: dependency.location)
    }

    func singleton(for dependency: Dependency) -> SingletonStorage? {
        nodes.node(for: dependency.key)?.singleton
    }

    func optionalPlan<Wrapped>(for dependency: Dependency, wrapped: Wrapped.Type) throws -> Plan<Wrapped?> {
        guard let wrappedKey = dependency.wrappedKey, let node = nodes.node(for: wrappedKey) else {
            return { _ in nil }
        }
        let plan = unsafeDowncast(node, to: Node<Wrapped>.self).plan
        return { resolution in try plan(&resolution) }
    }

    func deferredNode<Value>(for dependency: Dependency, as type: Value.Type) throws -> NodeReference<Value> {
        let reference = NodeReference<Value>(key: dependency.deferredKey ?? dependency.key)
        nodes.pendingReferences.append(PendingReference(fill: reference.fill(from:)))
        return reference
    }

    func dynamicPlan<Value>(for dependency: Dependency, as type: Value.Type) -> Plan<Value> {
        let offset = arguments.add(dependency, as: Value.self)
        let key = key
        return { resolution in
            guard let arguments = resolution.arguments else {
                throw InjectionError(.argumentCount, key: key,
                                     message: "\(key) needs creation-time arguments, and none were passed.",
                                     fix: "Request it with getInstance(\(key.typeName).self, arguments: …).")
            }
            return (arguments + offset).assumingMemoryBound(to: Value.self).pointee
        }
    }
}
