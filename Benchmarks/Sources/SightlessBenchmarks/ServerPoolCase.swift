import Foundation
import Sightless

// The `server-pool` cases: a server's handler over its database pool. The pool opens with
// `await` and is an eager singleton, built by `Injector.start` before any request. Per request,
// a child made from a template with the request's value; in it, a session of the request's own
// (`RequestDatabase`, bound `.in(.singleton)` in the template: one per child) leases from the
// pool, and a handler and its query share that session. `server-pool` awaits the handler
// (`try await child.instance(…)`); `server-pool-sync` asks for it synchronously
// (`try child.getInstance(…)`), which a started pool should allow; where the library refuses
// (needs await), the case prints `fails: …` and measures nothing, and
// `Benchmarks/instructions` reports that instead of stopping. Measured by instructions only
// (`--profile server-pool …`), against the same objects wired by hand.

/// The app-wide connection pool: opened with `await`, once, by `Injector.start`.
final class ConnectionPool: Injectable, Sendable {
    let config: Config
    init(config: Config) async { self.config = config }
    static let initializer = Initializer(ConnectionPool.init(config:))
    static var scope: Scope { .eagerSingleton }
}

final class PoolRequest: Sendable {
    let path: String
    init(path: String) { self.path = path }
}

/// A request's session, leased from the pool: one per child.
final class RequestDatabase: Injectable, Sendable {
    let pool: ConnectionPool
    init(pool: ConnectionPool) { self.pool = pool }
    static let initializer = Initializer(RequestDatabase.init(pool:))
}

final class HealthQuery: Injectable, Sendable {
    let database: RequestDatabase
    init(database: RequestDatabase) { self.database = database }
    static let initializer = Initializer(HealthQuery.init(database:))
}

final class HealthCheckController: Injectable, Sendable {
    let database: RequestDatabase
    let query: HealthQuery
    let request: PoolRequest
    init(database: RequestDatabase, query: HealthQuery, request: PoolRequest) {
        self.database = database
        self.query = query
        self.request = request
    }
    static let initializer = Initializer(HealthCheckController.init(database:query:request:))
}

struct PoolModule: Module {
    func configure(_ binder: Binder) {
        binder.install(ReferenceModule())
        binder.entryPoint(ConnectionPool.self)
    }
}

/// The server: started, its pool built, and the template of a request's child.
struct PoolServer: Sendable {
    let injector: Injector
    let requests: ChildTemplate<PoolRequest>
    let pool: ConnectionPool

    static func start() async throws -> PoolServer {
        let injector = try await Injector.start(modules: [PoolModule()])
        let requests = try injector.childTemplate(providing: PoolRequest.self) { binder in
            binder.bind(RequestDatabase.self).in(.singleton)
            binder.entryPoint(HealthCheckController.self)
        }
        return PoolServer(injector: injector, requests: requests, pool: try await injector.instance(ConnectionPool.self))
    }

    func handWired(_ request: PoolRequest) -> HealthCheckController {
        let database = RequestDatabase(pool: pool)
        return HealthCheckController(database: database, query: HealthQuery(database: database), request: request)
    }
}

/// What a case prints instead of its checksum when the library refuses its requests.
struct CaseFails: Error {
    let reason: String
}

/// Runs a server-pool case to its end on this thread: `n` requests, each a child and a handler.
func runServerPool(_ name: String, _ contender: Contender, _ n: Int, _ sink: Sink) throws {
    let started = Started()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        started.set(await Result { try await PoolServer.start() })
        done.signal()
    }
    done.wait()
    let server = try started.get()
    let paths = (0..<8).map { "/health/\($0)" }
    switch (name, contender) {
    case (_, .handWired):
        for index in 0..<n { sink.take(server.handWired(PoolRequest(path: paths[index & 7]))) }
    case ("server-pool-sync", _):
        do {
            let child = try server.requests.child(PoolRequest(path: "/"))
            let first = try child.getInstance(HealthCheckController.self)
            guard first.database === first.query.database, first.database.pool === server.pool else {
                throw BenchmarkFailure(description: "the request's session is not one per child over the started pool")
            }
        } catch let error as InjectionError where error.kind == .needsAwait {
            throw CaseFails(reason: "\(error)")
        }
        for index in 0..<n {
            sink.take(try server.requests.child(PoolRequest(path: paths[index & 7])).getInstance(HealthCheckController.self))
        }
    default:
        // On the global executor: the session a child keeps is awaited once per child, and its
        // one build runs in a task of its own, which the inline executor does not run.
        let box = SinkBox(sink)
        try runInline(onGlobalExecutor: true) {
            let first = try await server.requests.child(PoolRequest(path: "/")).instance(HealthCheckController.self)
            guard first.database === first.query.database, first.database.pool === server.pool else {
                throw BenchmarkFailure(description: "the request's session is not one per child over the started pool")
            }
            let sink = box.sink
            for index in 0..<n {
                sink.take(try await server.requests.child(PoolRequest(path: paths[index & 7])).instance(HealthCheckController.self))
            }
        }
    }
}

/// The server started for a server-pool case, handed from the task that started it.
final class Started: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<PoolServer, any Error>?
    func set(_ result: Result<PoolServer, any Error>) {
        lock.lock()
        self.result = result
        lock.unlock()
    }
    func get() throws -> PoolServer {
        lock.lock()
        defer { lock.unlock() }
        guard let result else { throw BenchmarkFailure(description: "the server did not start") }
        return try result.get()
    }
}
