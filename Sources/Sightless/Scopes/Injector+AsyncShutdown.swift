extension Injector {
    /// Shuts the injector down, awaiting the values that close with `await`: closes every
    /// ``Closable`` and ``AsyncClosable`` value its storing scopes kept, its live children's
    /// first, then its own newest first, each once, and refuses requests from then on. The
    /// async form of ``shutDown()``, with the same order and the same effect on the family.
    ///
    /// ```swift
    /// try await injector.awaitShutDown()
    /// ```
    ///
    /// Every close runs even when an earlier one throws; the failures are reported together as
    /// ``InjectionError/Kind/closeFailed``. A second shutdown, of either form, does nothing.
    nonisolated(nonsending)
    public func awaitShutDown() async throws(InjectionError) {
        guard let values = beginShutdown() else { return }
        var problems: [InjectionError.Problem] = []
        // One object may be kept twice (a singleton, and a singleton alias of it): closed once.
        for closing in ClosingValue.once(values) {
            do {
                if case .awaited(let close) = closing.closer {
                    try await Self.close(close)
                } else if closing.closer == nil, let awaited = closing.object as? any AsyncClosable {
                    unsafe try await Self.close(Transfer(awaited))
                } else {
                    try closing.closeSynchronously()
                }
            } catch {
                problems.append(Self.closeFailed(closing, error))
            }
        }
        if let error = InjectionError(problems: problems) { throw error }
    }

    /// Awaits one value's `close()`, off the caller's isolation.
    private static func close(_ value: Transfer<any AsyncClosable>) async throws {
        try await value.value.close()
    }

    /// Awaits a binding's closer, off the caller's isolation.
    private static func close(_ close: @Sendable () async throws -> Void) async throws {
        try await close()
    }
}
