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

    /// The key whose `async` build makes this node need `await` (the node's own, or one it
    /// depends on), or `nil` when the node is built synchronously.
    var awaited: AnyKey? { nil }

    /// Awaits the node's value (see `AsyncPlan`), for a consumer that awaits it.
    func awaitedValue(_ request: AsyncRequest) async throws -> Transfer<Any> {
        throw InjectionError(.internalInconsistency(.notLinked(key: key)), path: [key])
    }

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
    /// How the value is awaited, when the node needs `await`; see `AsyncPlan`.
    let asyncPlan: AsyncPlan<Value>?
    private let awaitedKey: AnyKey?

    override func prime(_ injector: Injector) throws(InjectionError) {
        _ = try injector.run(self)
    }

    override var awaited: AnyKey? { awaitedKey }

    override func awaitedValue(_ request: AsyncRequest) async throws -> Transfer<Any> {
        if let value = storage?.existing(as: Value.self) { return Transfer(value) }
        guard let asyncPlan else {
            return Transfer(try AsyncSection(request: request, prefetched: nil).run { resolution in try plan(&resolution) })
        }
        return Transfer(try await asyncPlan(request))
    }

    init(_ provision: Provision<Value>, signature: DynamicSignature?) {
        self.plan = provision.plan
        self.asyncPlan = nil
        self.awaitedKey = nil
        super.init(key: provision.key, valueType: ObjectIdentifier(Value.self), signature: signature,
                   storage: provision.storage)
    }

    /// A node that needs `await` because of `awaited`.
    init(_ provision: Provision<Value>, signature: DynamicSignature?, asyncPlan: @escaping AsyncPlan<Value>, awaited: AnyKey) {
        self.plan = provision.plan
        self.asyncPlan = asyncPlan
        self.awaitedKey = awaited
        super.init(key: provision.key, valueType: ObjectIdentifier(Value.self), signature: signature,
                   storage: provision.storage)
    }
}
