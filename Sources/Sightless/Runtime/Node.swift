/// A key of the compiled graph, linked to the nodes of its dependencies.
class AnyNode: @unchecked Sendable {
    let key: AnyKey
    /// The creation-time arguments a request for this key must bring, or `nil`.
    let signature: DynamicSignature?
    /// The instance storage of a singleton node, read directly once the instance exists: the
    /// fast path of requests, handles and initializer arguments, with no closure call.
    let singleton: SingletonStorage?

    init(key: AnyKey, signature: DynamicSignature?, singleton: SingletonStorage? = nil) {
        self.key = key
        self.signature = signature
        self.singleton = singleton
    }
}

/// A node that produces values of one type. Its plan is immutable once linked, so any thread
/// may run it.
final class Node<Value>: AnyNode, @unchecked Sendable {
    let plan: Plan<Value>

    init(key: AnyKey, plan: @escaping Plan<Value>, signature: DynamicSignature?, singleton: SingletonStorage? = nil) {
        self.plan = plan
        super.init(key: key, signature: signature, singleton: singleton)
    }

    static func scoped(key: AnyKey, scope: Scope, plan: @escaping Plan<Value>, signature: DynamicSignature?) -> Node {
        switch scope.kind {
        case .unscoped:
            return Node(key: key, plan: plan, signature: signature)
        case .singleton:
            let storage = SingletonStorage(key: key)
            return Node(key: key, plan: { resolution in try storage.instance(&resolution, build: plan) },
                        signature: signature, singleton: storage)
        }
    }
}
