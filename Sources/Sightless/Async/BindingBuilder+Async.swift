// The async twins of `to(_:)` and `to(provider:)`, which Swift picks for an async closure.
extension BindingBuilder {
    /// Binds the key to an `async` closure, awaited for every request (or once, in the
    /// singleton scope). The key, and everything that builds it at once, is then requested with
    /// `try await`.
    ///
    /// ```swift
    /// binder.bind(Pool.self).to { resolver async throws in
    ///     try await Pool.open(url: try resolver.getInstance(Key<String>(named: "databaseURL")))
    /// }.in(.singleton)
    /// ```
    @discardableResult
    public func to(_ make: @escaping @Sendable (Resolver) async throws -> Value) -> ScopedBindingBuilder<Value> {
        binder.replace(at: index, with: .awaitedClosure(key, location: location, make: make))
        return scoped
    }

    /// Binds the key to an ``AsyncProvider``, awaited for every request (or once, in the
    /// singleton scope).
    ///
    /// ```swift
    /// binder.bind(Pool.self).to(provider: PoolProvider()).in(.singleton)
    /// ```
    @discardableResult
    public func to<P: AsyncProvider>(provider: P) -> ScopedBindingBuilder<Value> where P.Value == Value {
        binder.replace(at: index, with: .awaitedProvider(key, location: location, provider: provider))
        return scoped
    }
}

extension Recipe {
    /// A provider binding that awaits.
    static func awaitedProvider<Value, P: AsyncProvider>(_ key: Key<Value>, location: SourceLocation, provider: P) -> Recipe
    where P.Value == Value {
        awaitedClosure(key, location: location, source: .provider) { resolver in try await provider.provide(resolver) }
    }
}
