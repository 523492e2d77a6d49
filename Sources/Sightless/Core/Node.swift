/// A key of the compiled graph, linked to the nodes of its dependencies.
class AnyNode {
    let key: AnyKey
    /// The identity of the type of the values the node produces: a `Node<Value>` has
    /// `ObjectIdentifier(Value.self)`. Checked before the node is used as one.
    @usableFromInline let valueType: ObjectIdentifier
    /// The creation-time arguments a request for this key must bring, or `nil`.
    let signature: DynamicSignature?
    /// Where a storing scope keeps the instance, read directly once it exists: the fast path of
    /// requests, handles and initializer arguments, with no closure call.
    let storage: InstanceStorage?

    init(key: AnyKey, valueType: ObjectIdentifier, signature: DynamicSignature?, storage: InstanceStorage?) {
        self.key = key
        self.valueType = valueType
        self.signature = signature
        self.storage = storage
    }
}

/// A node that produces values of one type. Its plan is immutable once linked, so any thread
/// may run it.
final class Node<Value>: AnyNode {
    let plan: Plan<Value>

    init(_ provision: Provision<Value>, signature: DynamicSignature?) {
        self.plan = provision.plan
        super.init(key: provision.key, valueType: ObjectIdentifier(Value.self), signature: signature,
                   storage: provision.storage)
    }
}
