extension Injector {
    /// Shuts the injector down: closes every ``Closable`` value its storing scopes kept, in the
    /// reverse order of their creation, and refuses requests from then on.
    ///
    /// ```swift
    /// let injector = try Injector(modules: [ServerModule()])
    /// defer { try? injector.shutDown() }
    /// ```
    ///
    /// Each value is closed exactly once, however many threads shut the injector down at the
    /// same time: the first call closes them, later calls return at once. A value whose
    /// `close()` throws does not stop the others; every error is reported together, each as
    /// ``InjectionError/Kind/closeFailed``. A child closes its own values and never its
    /// parent's; shutting a parent down leaves its children to be shut down themselves. After
    /// shutdown, a request throws ``InjectionError/Kind/injectorShutDown``; so does one that was
    /// building a kept value when the injector was shut down, and the value it built is closed.
    public func shutDown() throws(InjectionError) {
        guard !isShutDown.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let storages = sealedStorages()
            .compactMap { storage in storage.closing.map { (storage, $0) } }
            .sorted { $0.1.creation > $1.1.creation }
        var problems: [InjectionError.Problem] = []
        var closed: Set<ObjectIdentifier> = []
        for (storage, closing) in storages {
            // One object may be kept twice (a singleton, and a singleton alias of it): close it once.
            guard closed.insert(ObjectIdentifier(closing.value)).inserted else { continue }
            do {
                try closing.value.close()
            } catch {
                problems.append(InjectionError.Problem(
                    .closeFailed(key: storage.key, error: String(describing: error)), path: [storage.key], underlying: error))
            }
        }
        if let error = InjectionError(problems: problems) { throw error }
    }
}

extension Injector {
    /// The storages of every value the injector keeps, sealed: nothing more is compiled, and a
    /// value built from now on is closed by its builder rather than stored, so each kept value is
    /// closed once, by the shutdown or by its builder.
    func sealedStorages() -> [InstanceStorage] {
        let storages = nodes.seal().compactMap(\.storage) + keptStorages
        InstanceStorage.seal(storages, in: builds)
        return storages
    }
}
