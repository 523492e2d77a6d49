/// A key of the compiled graph, linked to the nodes of its dependencies.
class AnyNode: @unchecked Sendable {
    let key: AnyKey
    /// The creation-time arguments a request for this key must bring, or `nil`.
    let signature: DynamicSignature?

    init(key: AnyKey, signature: DynamicSignature?) {
        self.key = key
        self.signature = signature
    }
}

/// A node that produces values of one type. Its plan is immutable once linked, so any thread
/// may run it.
final class Node<Value>: AnyNode, @unchecked Sendable {
    let plan: Plan<Value>
    /// The instance storage of a singleton node, read directly once the instance exists: the
    /// fast path of requests and handles, with no closure call.
    let singleton: SingletonStorage?

    init(key: AnyKey, plan: @escaping Plan<Value>, signature: DynamicSignature?, singleton: SingletonStorage? = nil) {
        self.plan = plan
        self.singleton = singleton
        super.init(key: key, signature: signature)
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
