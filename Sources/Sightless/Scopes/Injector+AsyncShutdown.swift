extension Injector {
    /// Shuts the injector down, awaiting the values that close with `await`: closes every
    /// ``Closable`` and ``AsyncClosable`` value its storing scopes kept, newest first, each
    /// once, and refuses requests from then on. The async form of ``shutDown()``.
    ///
    /// ```swift
    /// try await injector.awaitShutDown()
    /// ```
    ///
    /// Every close runs even when an earlier one throws; the failures are reported together as
    /// ``InjectionError/Kind/closeFailed``. A second shutdown, of either form, does nothing.
    nonisolated(nonsending)
    public func awaitShutDown() async throws(InjectionError) {
        guard !isShutDown.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var closing: [(storage: InstanceStorage, value: AnyObject, creation: Int)] = []
        for storage in sealedStorages() {
            if let awaited = storage.awaitedClosing {
                closing.append((storage, awaited.value, awaited.creation))
            } else if let closable = storage.closing {
                closing.append((storage, closable.value, closable.creation))
            }
        }
        closing.sort { $0.creation > $1.creation }
        var problems: [InjectionError.Problem] = []
        var closed: Set<ObjectIdentifier> = []
        for (storage, value, _) in closing {
            // One object may be kept twice (a singleton, and a singleton alias of it): close it once.
            guard closed.insert(ObjectIdentifier(value)).inserted else { continue }
            do {
                if let awaited = value as? any AsyncClosable {
                    try await Self.close(Transfer(awaited))
                } else if let closable = value as? any Closable {
                    try closable.close()
                }
            } catch {
                problems.append(InjectionError.Problem(
                    .closeFailed(key: storage.key, error: String(describing: error)), path: [storage.key], underlying: error))
            }
        }
        if let error = InjectionError(problems: problems) { throw error }
    }

    /// Awaits one value's `close()`, off the caller's isolation.
    private static func close(_ value: Transfer<any AsyncClosable>) async throws {
        try await value.value.close()
    }
}
