extension Lazy {
    /// The value, built with `await` on first use and kept: the async form of ``get()``, for a
    /// value that needs `await`.
    ///
    /// ```swift
    /// final class Reports: Injectable {
    ///     let pool: Lazy<Pool>
    ///     init(pool: Lazy<Pool>) { self.pool = pool }
    ///     static let initializer = Initializer(Reports.init(pool:))
    ///
    ///     func monthly() async throws -> Report { try await Report(pool: pool.value) }
    /// }
    /// ```
    ///
    /// Callers that await it at the same time wait for one build.
    public var value: Value {
        get async throws(InjectionError) {
            if let value = storage.existing(as: Value.self) { return value }
            if let made { return try made.value(key) }
            guard let injector else {
                throw InjectionError(.injectorReleased(key: key, wrapper: "Lazy<\(key.typeName)>"), path: [key])
            }
            let node = try injector.compiledNode(Value.self, name: key.name)
            guard let plan = node.asyncPlan else {
                await node.storage?.awaitThreadBuild()
                return try get()
            }
            if injector.isShutDownInFamily { throw injector.shutDownError(key) }
            if let value = node.storage?.existing(as: Value.self) { return value }
            // A value a scope keeps is the scope's to keep, as with `get()`.
            let kept: AsyncPlan<Value>
            if node.meaning.owner != .none {
                kept = plan
            } else {
                let storage = storage
                kept = { request in
                    try await storage.awaitInstance { unsafe Transfer(try await plan(request)) }
                }
            }
            do {
                // A value that awaits a Lazy of itself while it is built would await for ever.
                try AwaitedReentry.check(key, through: .request)
                var request = AsyncRequest(injector: injector, arguments: nil)
                // What a Lazy held by a value its injector keeps builds is kept by that value:
                // it holds the injector weakly in turn, as with `get()`.
                if strong == nil { request = request.kept(by: injector, weakly: true) }
                return try await injector.awaitPlan(kept, request)
            } catch {
                throw InjectionError.request(error, key: key)
            }
        }
    }
}
