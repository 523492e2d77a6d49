extension InstanceStorage {
    /// The instance, built by `build` in a task of its own the first time it is awaited: every
    /// caller that awaits it while it is being built waits for that one build, unless that build
    /// waits, directly or through others, for the build the caller runs in: then the caller
    /// throws a cycle error instead of waiting, as a thread does (`BuildCoordinator`).
    ///
    /// No lock is held while the build runs: the coordinator's lock guards only the handing out
    /// of the build's task, and its end. The build runs in its own task, so a caller that is cancelled does not cancel it
    /// for the others; a cancelled caller still waits for it and receives its outcome. A failed
    /// build stores nothing: the next caller builds again.
    func awaitInstance<Value>(
        build: @escaping @Sendable () async throws -> Transfer<Value>
    ) async throws -> Value {
        if let value = existing(as: Value.self) { return value }
        let coordinator = BuildCoordinator.process
        // The awaited build this code runs in, if any: it waits for this storage's build, which
        // must not wait for it in turn (`BuildCoordinator.beginAwaitedWait`).
        let waiter = AwaitedReentry.building
        while true {
            let claim = coordinator.claimAwaited(self, waiter: waiter) {
                Task {
                    do {
                        let value = try await AwaitedReentry.$building.withValue(self) { try await build() }
                        let kept = coordinator.finish(self, storing: value.value, awaited: true)
                        // Built after the injector was shut down: handed to no one, closed here.
                        if !kept { throw await Self.awaitedBuiltAfterShutDown(value, key: self.key, closer: self.closer) }
                    } catch {
                        coordinator.abandonAwaited(self)
                        throw error
                    }
                }
            }
            switch claim {
            case .built:
                break
            case .circle(let keys):
                throw InjectionError(.reentered(key: key, through: .otherThread), path: keys)
            case .shutDown:
                throw InjectionError(.injectorShutDown(key: key), path: [key])
            case .wait(let task):
                defer {
                    if let waiter { coordinator.endAwaitedWait(waiter, for: self) }
                }
                try await task.value
            case .synchronous:
                // Suspends until that build ends, holding no thread; when it failed, this one
                // looks again (and may build).
                await coordinator.awaitBuild(of: self)
                continue
            }
            break
        }
        guard let value = existing(as: Value.self) else { throw missing() }
        return value
    }
}

extension InstanceStorage {
    /// Suspends, holding no thread, while another thread builds the instance: the synchronous
    /// build that follows then reads it, where it would wait for that build on its thread, one
    /// of the cooperative pool's. Returns at once when the instance is stored or nobody builds it.
    nonisolated(nonsending)
    func awaitThreadBuild() async {
        guard !isFilled else { return }
        await BuildCoordinator.process.awaitBuild(of: self)
    }
}

extension InstanceStorage {
    /// `builtAfterShutDown(_:key:)` for an instance built with `await`, which may close with
    /// `await` too.
    static func awaitedBuiltAfterShutDown<Value>(
        _ value: Transfer<Value>, key: AnyKey, closer: ValueCloser?
    ) async -> InjectionError {
        if let closer {
            guard case .awaited(let close) = closer.bound(to: value.value)?.close else {
                return builtAfterShutDown(value.value, key: key, closer: closer)
            }
            do {
                try await close()
                return shutDownError(key, closing: nil)
            } catch {
                return shutDownError(key, closing: error)
            }
        }
        guard let closable = value.value as? any AsyncClosable else {
            return builtAfterShutDown(value.value, key: key, closer: nil)
        }
        do {
            try await closable.close()
            return shutDownError(key, closing: nil)
        } catch {
            return shutDownError(key, closing: error)
        }
    }
}
