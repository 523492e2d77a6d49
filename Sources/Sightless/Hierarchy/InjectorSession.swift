/// The child injector of a user's session, replaced as a whole: at log-in, when the session
/// learns a value (a user's key, say), and at log-out. The Sightless form of resetting a key or
/// a scope of a container.
///
/// Declare the session's bindings once, as a ``ChildTemplate`` providing the values a session
/// is made with, and make the session from it, with no session yet:
///
/// ```swift
/// let sessions = try app.childTemplate(providing: User.self) { binder in
///     binder.bind(Inbox.self).in(.singleton)        // one per session
/// }
/// let session = InjectorSession(sessions)
///
/// try await session.replace(alice)                  // log-in: a child made with alice
/// let unread = try await session.withCurrent { child in
///     try await child.instance(Inbox.self).unread
/// }
/// try await session.replace(bob)                    // alice's Inbox is closed, bob's is new
/// try await session.end()                           // log-out: bob's values are closed
/// ```
///
/// `withCurrent` hands its body the current session's child, whole: a body that starts before a
/// replacement uses the old session to its end, one that starts after it the new one, and no
/// body ever sees a mix of the two, nor a value the replacement closed. A replaced session is
/// closed once the last body using it has returned, by whichever side leaves last: the
/// `async` `replace(_:)` waits for those bodies, then awaits the close; the synchronous one
/// leaves the close to the last body.
///
/// With no session (before the first `replace(_:)`, after `end()`), `withCurrent` throws
/// ``InjectionError/Kind/noSession``. A shutdown of the template's parent closes the current
/// session's values with the parent's, as it closes any child's; its requests then throw
/// ``InjectionError/Kind/injectorShutDown``, and so does a later `replace(_:)`. Dropping the
/// session releases its child without closing it: end it first.
public final class InjectorSession<each Value: Sendable>: Sendable {
    /// The template every session is made from.
    ///
    /// ```swift
    /// print(session.template.exportGraph(as: .text))   // what a session binds
    /// ```
    public let template: ChildTemplate<repeat each Value>
    private let state = Locked(SessionState())

    /// A session holder made from `template`, with no session yet: start one with
    /// `replace(_:)`.
    ///
    /// ```swift
    /// let sessions = try app.childTemplate(providing: User.self, modules: [SessionModule()])
    /// let session = InjectorSession(sessions)
    /// ```
    public init(_ template: ChildTemplate<repeat each Value>) {
        self.template = template
    }

    /// Whether there is a session: `false` before the first `replace(_:)` and after `end()`.
    ///
    /// ```swift
    /// if !session.isActive { showLogIn() }
    /// ```
    ///
    /// Another thread may replace or end the session at any time: use the session through
    /// `withCurrent`, which sees one session whole, rather than asking first.
    public var isActive: Bool { state.withLock { $0.current != nil } }

    private var key: AnyKey { AnyKey(type: InjectorSession<repeat each Value>.self, name: nil) }

    // MARK: Replacing

    /// Replaces the session with a new one made with `values`, and closes the old one's
    /// values when the last body using it returns. The synchronous form, for code that cannot
    /// await.
    ///
    /// ```swift
    /// try session.replace(user)   // log-in, or the user's PIN key became known
    /// ```
    ///
    /// The new child is made first, as ``ChildTemplate/child(_:)`` makes it: if that throws,
    /// the old session stays. Then it becomes the current session, atomically: a `withCurrent`
    /// starting from now on gets it. The old session is shut down as ``Injector/shutDown()``
    /// shuts an injector down, at once when no body uses it, or else by the last body using it
    /// when it returns; this form does not wait for those bodies (a thread that waited might be
    /// the one running one of them).
    ///
    /// This form cannot await: a session whose values close with `await` (``AsyncClosable``
    /// values, or closers that await) is replaced by the `async` form, which closes them;
    /// ``Injector/shutDown()`` leaves them open. Replacements racing each other each close the
    /// session they replaced; the last one made is current.
    ///
    /// - Throws: an ``InjectionError`` when the new child cannot be made (see
    ///   ``ChildTemplate/child(_:)``), or when the old session, closed now, failed to close
    ///   (``InjectionError/Kind/closeFailed``; the new session is current all the same).
    ///
    /// Unavailable from `async` code, where `try await session.replace(user)` picks the `async`
    /// form. In top-level code that awaits (`main.swift`, a script), Swift still ranks this form
    /// first and reports it unavailable: make the call from an `async` function.
    @available(*, noasync, message: "in async code, the async replace closes AsyncClosable values and awaiting closers: write try await (from top-level code, inside an async function)")
    public func replace(_ values: repeat each Value) throws(InjectionError) {
        let child = try template.child(repeat each values)
        if case .close(let old) = swap(to: child, waiting: false) { try old.shutDown() }
    }

    /// Replaces the session with a new one made with `values`, waits for the bodies still
    /// using the old one to return, then closes the old one's values, awaiting those that close
    /// with `await`.
    ///
    /// ```swift
    /// try await session.replace(user)   // returns once the old session is closed
    /// ```
    ///
    /// The new child is made first: if that throws, the old session stays. Then it becomes the
    /// current session, atomically, and the old one is shut down as ``Injector/awaitShutDown()``
    /// shuts an injector down, once no body uses it. Waiting suspends the task; it blocks no
    /// thread.
    ///
    /// Called from a body of `withCurrent` using the old session (directly, or from a task it
    /// started and awaits), the replacement does not wait for that body, which would wait for
    /// it in turn: it returns once the new session is current, and the old one is closed when
    /// the last body using it returns. So it is when the task is cancelled while it waits.
    ///
    /// - Throws: an ``InjectionError`` when the new child cannot be made, or the old session's
    ///   values failed to close (``InjectionError/Kind/closeFailed``; the new session is current
    ///   all the same).
    nonisolated(nonsending)
    public func replace(_ values: repeat each Value) async throws(InjectionError) {
        let child = try template.child(repeat each values)
        try await retire(swap(to: child, waiting: true))
    }

    /// Ends the session: the log-out. `withCurrent` throws ``InjectionError/Kind/noSession``
    /// from now on, until `replace(_:)` starts a new one; the ended session's values are closed
    /// when the last body using it returns.
    ///
    /// ```swift
    /// try session.end()
    /// ```
    ///
    /// The synchronous form, closing as the synchronous `replace(_:)` closes. Ending a session
    /// that has none does nothing.
    ///
    /// - Throws: ``InjectionError/Kind/closeFailed`` when the ended session, closed now, failed
    ///   to close.
    ///
    /// Unavailable from `async` code, where `try await session.end()` picks the `async` form.
    @available(*, noasync, message: "in async code, the async end closes AsyncClosable values and awaiting closers: write try await (from top-level code, inside an async function)")
    public func end() throws(InjectionError) {
        if case .close(let old) = swap(to: nil, waiting: false) { try old.shutDown() }
    }

    /// Ends the session, waits for the bodies still using it to return, then closes its values,
    /// awaiting those that close with `await`.
    ///
    /// ```swift
    /// try await session.end()   // log-out: returns once the session is closed
    /// ```
    ///
    /// Closing as the `async` `replace(_:)` closes, after the same wait.
    ///
    /// - Throws: ``InjectionError/Kind/closeFailed`` when the session's values failed to close.
    nonisolated(nonsending)
    public func end() async throws(InjectionError) {
        try await retire(swap(to: nil, waiting: true))
    }

    // MARK: Using

    /// Runs `body` with the current session's child: the same session, whole, for the whole
    /// body, however the session is replaced meanwhile.
    ///
    /// ```swift
    /// let inbox = try session.withCurrent { child in try child.getInstance(Inbox.self) }
    /// ```
    ///
    /// A replacement that happens while `body` runs leaves the body its session: its values
    /// stay open until the last body using it returns. When that body is this one, the session
    /// is closed before `withCurrent` returns, as ``Injector/shutDown()`` closes it; a failure
    /// to close is thrown then, unless `body` threw, whose error wins.
    ///
    /// Keep neither the child nor its values beyond `body`: once the session is replaced and
    /// its last body returned, the child is shut down.
    ///
    /// A draining shutdown of the injector the sessions' template was made from
    /// (``Injector/awaitShutDown(draining:)``) waits for the body, as it waits for a
    /// `withChild` body, and refuses a body that would start after it began.
    ///
    /// - Throws: ``InjectionError/Kind/noSession`` when there is no session,
    ///   ``InjectionError/Kind/injectorShutDown`` while a draining shutdown waits, or the error
    ///   `body` threw.
    ///
    /// Unavailable from `async` code, where `try await session.withCurrent { child in … }`
    /// picks an `async` form even for a synchronous body, and closes a replaced session's
    /// values that close with `await`.
    @available(*, noasync, message: "in async code, the async withCurrent closes AsyncClosable values and awaiting closers: write try await")
    public func withCurrent<Result>(_ body: (Injector) throws -> Result) throws -> Result {
        let counted = try template.parent.enterBody(key)
        defer { template.parent.leaveBody(counted) }
        let (id, child) = try enter()
        let result: Result
        do {
            result = try body(child)
        } catch {
            if case .close(let old) = leave(id) { try? old.shutDown() }
            throw error
        }
        if case .close(let old) = leave(id) { try old.shutDown() }
        return result
    }

    /// Awaits `body` with the current session's child: the same session, whole, for the whole
    /// body, however the session is replaced meanwhile.
    ///
    /// ```swift
    /// let unread = try await session.withCurrent { child in
    ///     try await child.instance(Inbox.self).unread
    /// }
    /// ```
    ///
    /// As the synchronous form, but a replaced session that this body is the last to use is
    /// closed as ``Injector/awaitShutDown()`` closes it, awaiting the values that close with
    /// `await`. `body` runs on the caller's actor; a task cancelled while it runs still leaves
    /// the session, and closes it when it was the last user.
    ///
    /// A draining shutdown waits for the body, as for the synchronous form's.
    ///
    /// - Throws: ``InjectionError/Kind/noSession`` when there is no session,
    ///   ``InjectionError/Kind/injectorShutDown`` while a draining shutdown waits, or the error
    ///   `body` threw.
    nonisolated(nonsending)
    public func withCurrent<Result>(
        _ body: nonisolated(nonsending) (Injector) async throws -> Result
    ) async throws -> Result {
        let counted = try template.parent.enterBody(key)
        defer { template.parent.leaveBody(counted) }
        let (id, child) = try enter()
        let use = SessionUse(session: ObjectIdentifier(self), generation: id)
        let result: Result
        do {
            result = try await SessionUse.$entered.withValue(SessionUse.entered + [use], operation: {
                try await body(child)
            }, isolation: #isolation)
        } catch {
            if case .close(let old) = leave(id) { try? await old.awaitShutDown() }
            throw error
        }
        if case .close(let old) = leave(id) { try await old.awaitShutDown() }
        return result
    }

    /// Runs the synchronous `body` with the current session's child, closing a replaced session
    /// that this body is the last to use as the `async` form closes it, awaiting the values that
    /// close with `await`: what `async` code gets when its body does not await.
    ///
    /// ```swift
    /// let count = try await session.withCurrent { child in try child.getInstance(Inbox.self).count }
    /// ```
    ///
    /// Swift prefers it to the synchronous form in `async` code, where that form is unavailable.
    nonisolated(nonsending)
    public func withCurrent<Result>(_ body: (Injector) throws -> Result) async throws -> Result {
        try await withCurrent { (child: Injector) async throws -> Result in try body(child) }
    }

    // MARK: The sessions' bookkeeping

    /// Counts a body using the current session.
    private func enter() throws(InjectionError) -> (Int, Injector) {
        let entered = state.withLock { state -> (Int, Injector)? in
            guard let id = state.current, let child = state.sessions[id]?.child else { return nil }
            state.sessions[id]?.users += 1
            return (id, child)
        }
        guard let entered else { throw InjectionError(.noSession(session: key), path: [key]) }
        return entered
    }

    /// A body using session `id` returned: what it closes, if it was the session's last user
    /// and the session is retired.
    private func leave(_ id: Int) -> SessionState.Closing {
        let (closing, waiter) = state.withLock { state -> (SessionState.Closing, CheckedContinuation<Bool, Never>?) in
            guard var session = state.sessions[id] else { return (.none, nil) }
            session.users -= 1
            guard session.users == 0, session.retired else {
                state.sessions[id] = session
                return (.none, nil)
            }
            if let waiter = session.waiter {
                state.sessions[id] = nil
                return (.none, waiter)
            }
            if session.closedByLastUser {
                state.sessions[id] = nil
                return (.close(session.child), nil)
            }
            // The replacement has not begun to wait yet: it finds no user left, and closes.
            state.sessions[id] = session
            return (.none, nil)
        }
        waiter?.resume(returning: true)
        return closing
    }

    /// Makes `child` (`nil`: none) the current session and retires the one it replaces: to
    /// close now when no body uses it, else by its last user, or, when `waiting`, by the
    /// replacement once those bodies returned, unless this task is one of them.
    private func swap(to child: Injector?, waiting: Bool) -> SessionState.Closing {
        let inside = SessionUse.entered.filter { $0.session == ObjectIdentifier(self) }.map(\.generation)
        return state.withLock { state in
            let old = state.current
            if let child {
                state.next += 1
                state.sessions[state.next] = SessionState.Session(child: child)
                state.current = state.next
            } else {
                state.current = nil
            }
            guard let old, var session = state.sessions[old] else { return .none }
            if session.users == 0 {
                state.sessions[old] = nil
                return .close(session.child)
            }
            session.retired = true
            session.closedByLastUser = !waiting || inside.contains(old)
            state.sessions[old] = session
            return session.closedByLastUser ? .none : .wait(old, session.child)
        }
    }

    /// Closes what `swap` retired, awaiting the bodies still using it first.
    nonisolated(nonsending)
    private func retire(_ closing: SessionState.Closing) async throws(InjectionError) {
        switch closing {
        case .none:
            return
        case .close(let old):
            try await old.awaitShutDown()
        case .wait(let id, let old):
            if await lastUserLeft(id) { try await old.awaitShutDown() }
        }
    }

    /// Waits until no body uses the retired session `id`: `true` when this replacement is to
    /// close it, `false` when its task was cancelled first, and the session's last user closes
    /// it.
    nonisolated(nonsending)
    private func lastUserLeft(_ id: Int) async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let now = state.withLock { state -> Bool? in
                    guard var session = state.sessions[id] else { return false }
                    if session.users == 0 {
                        state.sessions[id] = nil
                        return true
                    }
                    if Task.isCancelled {
                        session.closedByLastUser = true
                        state.sessions[id] = session
                        return false
                    }
                    session.waiter = continuation
                    state.sessions[id] = session
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
                guard var session = state.sessions[id], let waiter = session.waiter else { return nil }
                session.waiter = nil
                session.closedByLastUser = true
                state.sessions[id] = session
                return waiter
            }
            waiter?.resume(returning: false)
        }
    }
}

/// The sessions of an ``InjectorSession``: the current one, and those replaced that bodies
/// still use.
private struct SessionState {
    struct Session {
        let child: Injector
        /// The bodies of `withCurrent` using it.
        var users = 0
        /// Replaced or ended: closed once `users` falls to zero.
        var retired = false
        /// Closed by its last user, rather than by the replacement.
        var closedByLastUser = false
        /// The `async` replacement waiting for the last user, which resumes it.
        var waiter: CheckedContinuation<Bool, Never>?
    }

    /// What a replacement or a body leaving closes.
    enum Closing {
        case none
        case close(Injector)
        /// The replacement waits for the last user of session `Int`, then closes it.
        case wait(Int, Injector)
    }

    var current: Int?
    var next = 0
    var sessions: [Int: Session] = [:]
}

/// A session a task's `withCurrent` bodies use: a replacement from one of them does not wait
/// for it.
private struct SessionUse: Sendable {
    let session: ObjectIdentifier
    let generation: Int

    @TaskLocal static var entered: [SessionUse] = []
}
