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
    nonisolated(nonsending)
    public func instance(_ arguments: repeat each Argument) async throws(InjectionError) -> Value {
        guard let injector else {
            throw InjectionError(.injectorReleased(key: key, wrapper: "A Factory"), path: [key])
        }
        // A value that awaits a Factory of itself while it is built would await for ever.
        do {
            try AwaitedReentry.check(key, through: .request)
        } catch {
            throw InjectionError.request(error, key: key)
        }
        return try await injector.awaitedRequest(Value.self, name: key.name, arguments: repeat each arguments)
    }
}
