/// An object that builds the values of a key with `await`: the async form of ``Provider``.
///
/// ```swift
/// struct PoolProvider: AsyncProvider {
///     func provide(_ resolver: Resolver) async throws -> Pool {
///         try await Pool.open(url: try resolver.getInstance(Key<String>(named: "databaseURL")))
///     }
/// }
///
/// binder.bind(Pool.self).to(provider: PoolProvider()).in(.singleton)
/// let pool = try await injector.instance(Pool.self)
/// ```
///
/// A request of the key, or of anything that needs it, is then awaited: see
/// ``Injector/instance(_:)-(Value.Type)``.
public protocol AsyncProvider<Value>: Sendable {
    /// The type of the values provided.
    associatedtype Value

    /// Builds a value; ask `resolver` for what it needs (with `try await resolver.instance(…)`
    /// for keys that are built with `await`).
    func provide(_ resolver: Resolver) async throws -> Value
}
