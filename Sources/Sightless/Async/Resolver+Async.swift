extension Resolver {
    /// Builds, or finds, the value of a type, awaiting what needs `await`: for `async` closure
    /// and provider bindings.
    ///
    /// ```swift
    /// binder.bind(Repository.self).to { resolver async throws in
    ///     Repository(pool: try await resolver.instance(Pool.self))
    /// }
    /// ```
    nonisolated(nonsending)
    public func instance<Value>(_ type: Value.Type) async throws(InjectionError) -> sending Value {
        try await injector.awaitedRequest(Value.self, name: nil)
    }

    /// Builds, or finds, the value of a key, awaiting what needs `await`.
    ///
    /// ```swift
    /// let replica = try await resolver.instance(Key<Pool>(named: "replica"))
    /// ```
    nonisolated(nonsending)
    public func instance<Value>(_ key: Key<Value>) async throws(InjectionError) -> sending Value {
        try await injector.awaitedRequest(Value.self, name: key.name)
    }

    /// Builds a value of a type that takes dynamic arguments, awaiting what needs `await`.
    ///
    /// ```swift
    /// let session = try await resolver.instance(Session.self, arguments: "ada")
    /// ```
    nonisolated(nonsending)
    public func instance<Value, each Argument>(
        _ type: Value.Type, arguments: repeat each Argument
    ) async throws(InjectionError) -> Value {
        try await injector.awaitedRequest(Value.self, name: nil, arguments: repeat each arguments)
    }

    /// Builds a value of a key that takes dynamic arguments, awaiting what needs `await`.
    ///
    /// ```swift
    /// let session = try await resolver.instance(Key<Session>(named: "admin"), arguments: "ada")
    /// ```
    nonisolated(nonsending)
    public func instance<Value, each Argument>(
        _ key: Key<Value>, arguments: repeat each Argument
    ) async throws(InjectionError) -> Value {
        try await injector.awaitedRequest(Value.self, name: key.name, arguments: repeat each arguments)
    }
}
