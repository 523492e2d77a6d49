extension InstanceStorage {
    /// The instance, built by `build` in a task of its own the first time it is awaited: every
    /// caller that awaits it while it is being built waits for that one build.
    ///
    /// No lock is held while the build runs: the lock guards only the handing out of the build's
    /// task. The build runs in its own task, so a caller that is cancelled does not cancel it
    /// for the others; a cancelled caller still waits for it and receives its outcome. A failed
    /// build stores nothing: the next caller builds again.
    func awaitInstance<Value>(
        _ coordinator: BuildCoordinator, build: @escaping @Sendable () async throws -> Transfer<Value>
    ) async throws -> Value {
        if let value = existing(as: Value.self) { return value }
        let task = awaitedBuild.withLock { running -> Task<Void, any Error>? in
            if let running { return running }
            if isFilled { return nil }
            let task = Task {
                do {
                    let value = try await build()
                    coordinator.finish(self) { self.store(value.value) }
                    self.awaitedBuild.withLock { $0 = nil }
                } catch {
                    self.awaitedBuild.withLock { $0 = nil }
                    throw error
                }
            }
            running = task
            return task
        }
        try await task?.value
        guard let value = existing(as: Value.self) else {
            throw InjectionError(.internalInconsistency(.notStored(key: key)), path: [key])
        }
        return value
    }
}
