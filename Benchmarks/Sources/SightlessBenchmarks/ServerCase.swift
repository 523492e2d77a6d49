import Foundation
import Sightless

// The `server` cases: the shape of a request handler in a server (`Examples/NotesServer`). Per
// request, a child made from a template with the request's value, and a handler of 5 objects,
// one of which needs the app-wide store, a singleton opened with `await` once, before the
// requests. `server` asks for the handler synchronously, `server-async` awaits it;
// `async-singleton` awaits the open store itself. Measured by instructions only
// (`--profile server …`), against the same objects wired by hand.

/// The app-wide store: opened with `await`, once.
final class NoteStore: Injectable, Sendable {
    let config: Config
    init(config: Config) async { self.config = config }
    static let initializer = Initializer(NoteStore.init(config:))
    static var scope: Scope { .singleton }
}

final class ServerRequest: Sendable {
    let path: String
    init(path: String) { self.path = path }
}

final class RequestLog: Injectable, Sendable {
    let logger: Logger
    let request: ServerRequest
    init(logger: Logger, request: ServerRequest) {
        self.logger = logger
        self.request = request
    }
    static let initializer = Initializer(RequestLog.init(logger:request:))
}

final class NoteQuery: Injectable, Sendable {
    let store: NoteStore
    let request: ServerRequest
    init(store: NoteStore, request: ServerRequest) {
        self.store = store
        self.request = request
    }
    static let initializer = Initializer(NoteQuery.init(store:request:))
}

final class NoteRenderer: Injectable, Sendable {
    let config: Config
    init(config: Config) { self.config = config }
    static let initializer = Initializer(NoteRenderer.init(config:))
}

final class NoteAccess: Injectable, Sendable {
    static let initializer = Initializer(NoteAccess.init)
}

final class NoteController: Injectable, Sendable {
    let log: RequestLog
    let query: NoteQuery
    let renderer: NoteRenderer
    let access: NoteAccess
    init(log: RequestLog, query: NoteQuery, renderer: NoteRenderer, access: NoteAccess) {
        self.log = log
        self.query = query
        self.renderer = renderer
        self.access = access
    }
    static let initializer = Initializer(NoteController.init(log:query:renderer:access:))
}

/// The app: the reference graph, its store opened, and the template of a request's child.
struct ServerApp: Sendable {
    let injector: Injector
    let requests: ChildTemplate<ServerRequest>
    let store: NoteStore
    let logger: Logger
    let config: Config

    static func open() async throws -> ServerApp {
        let injector = try Injector(modules: [ReferenceModule()])
        let store = try await injector.instance(NoteStore.self)
        let requests = try injector.childTemplate(providing: ServerRequest.self) { $0.entryPoint(NoteController.self) }
        return ServerApp(injector: injector, requests: requests, store: store,
                         logger: try injector.getInstance(Logger.self), config: try injector.getInstance(Config.self))
    }

    func handWired(_ request: ServerRequest) -> NoteController {
        NoteController(log: RequestLog(logger: logger, request: request), query: NoteQuery(store: store, request: request),
                       renderer: NoteRenderer(config: config), access: NoteAccess())
    }
}

/// Runs one of the server cases to its end on this thread.
func runServer(_ name: String, _ contender: Contender, _ n: Int, _ sink: Sink) throws {
    let box = SinkBox(sink)
    // Opened before the requests, on the concurrency runtime's own threads: the store's build
    // runs in a task of its own, which the inline executor does not run.
    let opened = OpenedApp()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        opened.set(await Result { try await ServerApp.open() })
        done.signal()
    }
    done.wait()
    let app = try opened.get()
    try runInline {
        let sink = box.sink
        let paths = (0..<8).map { "/notes/\($0)" }
        switch (name, contender) {
        case ("async-singleton", .handWired):
            for _ in 0..<n { sink.take(app.store) }
        case ("async-singleton", _):
            for _ in 0..<n { sink.take(try await app.injector.instance(NoteStore.self)) }
        case (_, .handWired):
            for index in 0..<n { sink.take(app.handWired(ServerRequest(path: paths[index & 7]))) }
        case ("server-async", _):
            for index in 0..<n {
                sink.take(try await app.requests.child(ServerRequest(path: paths[index & 7])).instance(NoteController.self))
            }
        default:
            for index in 0..<n {
                sink.take(try app.requests.child(ServerRequest(path: paths[index & 7])).getInstance(NoteController.self))
            }
        }
    }
}

/// Runs `body` to its end on this thread (see `InlineExecutor`); with `ASYNC_EXECUTOR=global`
/// in the environment, in a task of the global concurrent executor instead, as a server's
/// handlers run, while this thread waits. Under a task executor preference every executor check
/// asks the task for its preference under a lock; on the global executor it does not.
/// `onGlobalExecutor` asks for the global executor whatever the environment says.
func runInline(onGlobalExecutor: Bool = false, _ body: @escaping @Sendable () async throws -> Void) throws {
    if onGlobalExecutor || ProcessInfo.processInfo.environment["ASYNC_EXECUTOR"] == "global" {
        let finished = Finished()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do {
                try await body()
                finished.set(nil)
            } catch {
                finished.set("\(error)")
            }
            done.signal()
        }
        done.wait()
        if let failure = finished.failure { throw BenchmarkFailure(description: failure) }
        return
    }
    let executor = InlineExecutor()
    let finished = Finished()
    Task(executorPreference: executor) {
        do {
            try await body()
            finished.set(nil)
        } catch {
            finished.set("\(error)")
        }
    }
    guard executor.drain(until: { finished.isDone }) else {
        throw BenchmarkFailure(description: "the async case stopped before it finished")
    }
    if let failure = finished.failure { throw BenchmarkFailure(description: failure) }
}

/// The app opened for a server case, handed from the task that opened it.
final class OpenedApp: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<ServerApp, any Error>?
    func set(_ result: Result<ServerApp, any Error>) {
        lock.lock()
        self.result = result
        lock.unlock()
    }
    func get() throws -> ServerApp {
        lock.lock()
        defer { lock.unlock() }
        guard let result else { throw BenchmarkFailure(description: "the server app did not open") }
        return try result.get()
    }
}

extension Result where Failure == any Error {
    /// The outcome of an async body.
    init(_ body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
