// A graceful shutdown: the `withChild` bodies in flight end before the injector's values close.

extension Injector {
    /// Shuts the injector down once the `withChild` bodies in flight below it have ended, or
    /// `timeout` has passed: refuses new bodies at once, waits for those running, then closes
    /// every value as ``awaitShutDown()`` does. The graceful shutdown of a server.
    ///
    /// ```swift
    /// // The server stopped accepting connections; the requests in flight finish first.
    /// let unfinished = try await injector.awaitShutDown(draining: .seconds(10))
    /// if unfinished > 0 { logger.warning("\(unfinished) requests were still running") }
    /// ```
    ///
    /// From the call on, `withChild` of this injector, of a ``ChildTemplate`` made from it, or
    /// of any injector below it, throws ``InjectionError/Kind/injectorShutDown`` before making
    /// the child (the request is refused whole: answer it with HTTP 503, say). A body that began
    /// before the call runs on with its child and the injector's values, which are all still
    /// open; once it returns, its child is closed, and when none is left the injector shuts
    /// down. Waiting suspends the task; it blocks no thread.
    ///
    /// When `timeout` passes first, or the calling task is cancelled, the injector shuts down
    /// anyway, with bodies still running: their later requests throw
    /// ``InjectionError/Kind/injectorShutDown``, and the values they hold are closed under them,
    /// their children's first. Sightless cannot cancel them: a body runs in its caller's task
    /// (it may be a non-`Sendable` closure, isolated to the caller), and public Swift gives no
    /// sound way to cancel another task without its `Task` handle (`withUnsafeCurrentTask`'s
    /// task must not escape its closure). Cancel them where they run: a server cancels its
    /// connections' tasks after its own grace period, before this deadline.
    ///
    /// Only `withChild` bodies and the `withCurrent` bodies of an ``InjectorSession``
    /// whose template was made from the injector or one below it are counted: a child
    /// made with `child(…)` and shut down by hand, or a value used outside any body, is not
    /// waited for. A body that calls this method on its
    /// own injector waits for itself, until `timeout`.
    ///
    /// - Parameter timeout: how long to wait for the bodies in flight.
    /// - Returns: how many bodies were still running when the injector shut down: 0 when all
    ///   ended in time.
    /// - Throws: ``InjectionError/Kind/closeFailed`` for the values whose close threw, as
    ///   ``awaitShutDown()`` does.
    @discardableResult
    nonisolated(nonsending)
    public func awaitShutDown(draining timeout: Duration) async throws(InjectionError) -> Int {
        let lifecycle = lifecycle
        let drain = family.drain
        lifecycle.beginDraining(in: drain)
        let deadline = ContinuousClock.now.advanced(by: timeout)
        let drained = await drain.wait(until: { lifecycle.bodiesInFamily == 0 }, deadline: deadline)
        let running = drained ? 0 : lifecycle.bodiesInFamily
        try await awaitShutDown()
        return running
    }

    /// Counts a `withChild` body of a child of this injector, `key`, until `leaveBody`:
    /// refused with ``InjectionError/Kind/injectorShutDown`` while a draining shutdown of this
    /// injector or of one of its parents waits.
    func enterBody(_ key: AnyKey) throws(InjectionError) -> InjectorLifecycle {
        let lifecycle = lifecycle
        guard lifecycle.enterBody(in: family.drain) else {
            throw InjectionError(.shuttingDown(key: key), path: [key])
        }
        return lifecycle
    }

    /// The body `enterBody` counted in `lifecycle` ended, its child closed.
    func leaveBody(_ lifecycle: InjectorLifecycle) {
        lifecycle.leaveBody(in: family.drain)
    }
}
