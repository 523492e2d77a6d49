/// A key of the compiled graph, linked to the nodes of its dependencies.
@usableFromInline
class AnyNode {
    @usableFromInline let key: AnyKey
    /// The identity of the type of the values the node produces: a `Node<Value>` has
    /// `ObjectIdentifier(Value.self)`. Checked before the node is used as one.
    @usableFromInline let valueType: ObjectIdentifier
    /// The dynamic arguments a request for this key must bring, or `nil`.
    @usableFromInline let signature: DynamicSignature?
    /// Where a storing scope keeps the instance, read directly once it exists: the fast path of
    /// requests, handles and initializer arguments, with no closure call. Its `valueType` is
    /// always the node's (`init` keeps no storage of another type).
    @usableFromInline let storage: InstanceStorage?

    /// Builds the node's value once and drops it: what an eager scope asks when the injector is
    /// built, its value then kept by the scope.
    func prime(_ injector: Injector) throws(InjectionError) {}

    init(key: AnyKey, valueType: ObjectIdentifier, signature: DynamicSignature?, storage: InstanceStorage?) {
        self.key = key
        self.valueType = valueType
        self.signature = signature
        self.storage = storage?.valueType == valueType ? storage : nil
    }
}

/// A node that produces values of one type. Its plan is immutable once linked, so any thread
/// may run it.
@usableFromInline
final class Node<Value>: AnyNode {
    @usableFromInline let plan: Plan<Value>

    override func prime(_ injector: Injector) throws(InjectionError) {
        _ = try injector.run(self)
    }

    init(_ provision: Provision<Value>, signature: DynamicSignature?) {
        self.plan = provision.plan
        super.init(key: provision.key, valueType: ObjectIdentifier(Value.self), signature: signature,
                   storage: provision.storage)
    }
}
