extension Factory {
    /// Builds a new value from the arguments, awaiting what needs `await`: the async form of
    /// ``make(_:)``.
    ///
    /// ```swift
    /// final class Inbox: Injectable {
    ///     let sessions: Factory<Session, String>
    ///     init(sessions: Factory<Session, String>) { self.sessions = sessions }
    ///     static let initializer = Initializer(Inbox.init(sessions:))
    ///
    ///     func open(for user: String) async throws -> Session { try await sessions.instance(user) }
    /// }
    /// ```
    @inlinable nonisolated(nonsending)
    public func instance(_ arguments: repeat each Argument) async throws(InjectionError) -> Value {
        if let made { return try Self.making(made, key: key, repeat each arguments) }
        guard let injector else { throw released() }
        // Inlined where the factory is used: the arguments are placed with their types known.
        // Whether building the value again from inside its own build is a cycle is the node's
        // to say (`Meaning.Reentry`): with creation-time arguments it is a recursion.
        if let value = try await injector.awaitedRequestPlacing(
            Value.self, name: key.name, found: node, arguments: repeat each arguments) {
            return value
        }
        return try await injector.awaitedRequest(Value.self, name: key.name, arguments: repeat each arguments)
    }
}
