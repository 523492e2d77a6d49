import Sightless
import Synchronization

/// The app's sessions with its store: each request leases one and gives it back when the
/// request's child injector is shut down, whether the handler returned or threw.
public final class SessionPool: Injectable, Sendable {
    private let counts = Mutex((leased: 0, returned: 0))

    init() {}

    public static let initializer = Initializer(SessionPool.init)
    public static var scope: Scope { .singleton }

    /// Sessions leased and not given back yet.
    public var open: Int { counts.withLock { $0.leased - $0.returned } }
    /// Sessions given back since the server started.
    public var returned: Int { counts.withLock { $0.returned } }

    func lease() { counts.withLock { $0.leased += 1 } }
    func giveBack() { counts.withLock { $0.returned += 1 } }
}

/// One request's session, leased from the pool when the request first needs it, and given back
/// when the request's child injector is shut down (`withChild` in `RequestScopeMiddleware`).
public final class NotesSession: Injectable, AsyncClosable, Sendable {
    let pool: SessionPool

    init(pool: SessionPool) {
        self.pool = pool
        pool.lease()
    }

    public static let initializer = Initializer(NotesSession.init(pool:))

    /// Gives the session back: called once, when the request's child is shut down.
    public func close() async {
        pool.giveBack()
    }
}
