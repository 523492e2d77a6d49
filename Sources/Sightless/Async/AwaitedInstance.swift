extension InstanceStorage {
    /// The instance, built by `build` in a task of its own the first time it is awaited: every
    /// caller that awaits it while it is being built waits for that one build.
    ///
    /// No lock is held while the build runs: the coordinator's lock guards only the handing out
    /// of the build's task, and its end. The build runs in its own task, so a caller that is cancelled does not cancel it
    /// for the others; a cancelled caller still waits for it and receives its outcome. A failed
    /// build stores nothing: the next caller builds again.
    func awaitInstance<Value>(
        _ coordinator: BuildCoordinator, build: @escaping @Sendable () async throws -> Transfer<Value>
    ) async throws -> Value {
        if let value = existing(as: Value.self) { return value }
        let task = try coordinator.withLock { () throws(InjectionError) -> Task<Void, any Error>? in
            if let running = awaitedBuild { return running }
            if isFilled { return nil }
            if sealed { throw InjectionError(.injectorShutDown(key: key), path: [key]) }
            let task = Task {
                do {
                    let value = try await build()
                    var kept = false
                    coordinator.finish(self) {
                        kept = self.store(value.value)
                        self.awaitedBuild = nil
                    }
                    // Built after the injector was shut down: handed to no one, closed here.
                    if !kept { throw await Self.awaitedBuiltAfterShutDown(value, key: self.key) }
                } catch {
                    coordinator.withLock { self.awaitedBuild = nil }
                    throw error
                }
            }
            awaitedBuild = task
            return task
        }
        try await task?.value
        guard let value = existing(as: Value.self) else {
            throw InjectionError(.internalInconsistency(.notStored(key: key)), path: [key])
        }
        return value
    }
}

extension InstanceStorage {
    /// `builtAfterShutDown(_:key:)` for an instance built with `await`, which may close with
    /// `await` too.
    static func awaitedBuiltAfterShutDown<Value>(_ value: Transfer<Value>, key: AnyKey) async -> InjectionError {
        guard let closable = value.value as? any AsyncClosable else { return builtAfterShutDown(value.value, key: key) }
        do {
            try await closable.close()
            return shutDownError(key, closing: nil)
        } catch {
            return shutDownError(key, closing: error)
        }
    }
}
