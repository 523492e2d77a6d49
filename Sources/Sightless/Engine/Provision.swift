/// How a binding provides the values of one key: what a ``ScopeStrategy`` receives, unscoped,
/// and returns, wrapped.
///
/// A scope decides when to build a new value and when to give one it kept. It calls ``get(_:)``
/// on the unscoped provision to build a value, and returns a provision of its own:
///
/// ```swift
/// struct CountingScope: ScopeStrategy {
///     let builds: Counter
///     func scope<Value>(_ unscoped: Provision<Value>) -> Provision<Value> {
///         Provision(unscoped.key) { resolution in
///             builds.increment()
///             return try unscoped.get(&resolution)
///         }
///     }
/// }
/// ```
///
/// A scope that keeps one instance, like ``Scope/singleton``, stores it in an
/// ``InstanceStorage`` with ``stored(in:)``: requests then read an existing instance without a
/// lock or a closure call.
public struct Provision<Value>: Sendable {
    /// The key whose values this provision gives.
    public let key: AnyKey
    @usableFromInline let plan: Plan<Value>
    /// Where a storing scope keeps its instance, read directly once it exists.
    let storage: InstanceStorage?

    /// A provision that runs `body` for every value.
    ///
    /// ```swift
    /// Provision(unscoped.key) { resolution in try unscoped.get(&resolution) }
    /// ```
    public init(_ key: AnyKey, _ body: @escaping @Sendable (inout Resolution) throws -> Value) {
        self.init(key: key, plan: body, storage: nil)
    }

    init(key: AnyKey, plan: @escaping Plan<Value>, storage: InstanceStorage?) {
        self.key = key
        self.plan = plan
        self.storage = storage
    }

    /// A value: runs the provision for the request `resolution` belongs to.
    ///
    /// ```swift
    /// let value = try unscoped.get(&resolution)
    /// ```
    public func get(_ resolution: inout Resolution) throws -> Value {
        try plan(&resolution)
    }

    /// The same provision, keeping the first value it builds in `storage` and giving that one
    /// from then on: one thread builds it while the others that ask wait for it, whichever
    /// injectors the storage is handed to, and it is read without a lock afterwards. A build that
    /// throws keeps nothing, and the next request builds again; once the shutdown of an injector
    /// that keeps the storage has sealed it, no build begins, and its requests throw
    /// ``InjectionError/Kind/injectorShutDown`` in every injector.
    ///
    /// ```swift
    /// func scope<Value>(_ unscoped: Provision<Value>) -> Provision<Value> {
    ///     unscoped.stored(in: InstanceStorage(unscoped.key))
    /// }
    /// ```
    public func stored(in storage: InstanceStorage) -> Provision<Value> {
        let plan = plan
        return Provision(key: key, plan: { resolution in try storage.instance(&resolution, build: plan) }, storage: storage)
    }
}
