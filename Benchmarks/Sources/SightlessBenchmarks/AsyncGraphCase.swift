import Foundation
import Sightless

// The `async-graph` case: the reference graph with one async leaf. `DB` opens with `await`, so
// everything that builds one at once (`Repo`, `UserService`, `FeedService`, `Screen`) needs
// `await` too. Measured by instructions only (`--profile async-graph …`), against the same
// graph wired by hand in async code.

final class AsyncDB: Injectable, Sendable {
    let config: Config
    init(config: Config) async {
        self.config = config
    }
    static let initializer = Initializer(AsyncDB.init(config:))
}

final class AsyncRepo: Injectable, Sendable {
    let db: AsyncDB
    let logger: Logger
    init(db: AsyncDB, logger: Logger) {
        self.db = db
        self.logger = logger
    }
    static let initializer = Initializer(AsyncRepo.init(db:logger:))
}

final class AsyncUserService: Injectable, Sendable {
    let api: API
    let repo: AsyncRepo
    init(api: API, repo: AsyncRepo) {
        self.api = api
        self.repo = repo
    }
    static let initializer = Initializer(AsyncUserService.init(api:repo:))
}

final class AsyncFeedService: Injectable, Sendable {
    let api: API
    let repo: AsyncRepo
    let users: AsyncUserService
    init(api: API, repo: AsyncRepo, users: AsyncUserService) {
        self.api = api
        self.repo = repo
        self.users = users
    }
    static let initializer = Initializer(AsyncFeedService.init(api:repo:users:))
}

final class AsyncScreen: Injectable, Sendable {
    let feed: AsyncFeedService
    let users: AsyncUserService
    let title: String
    init(feed: AsyncFeedService, users: AsyncUserService, title: String) {
        self.feed = feed
        self.users = users
        self.title = title
    }
    static let initializer = Initializer(AsyncScreen.init(feed:users:title:), .inject, .inject, .dynamic)
}

/// How hand-wired code opens an `AsyncDB`: by calling its initializer, which the compiler then
/// inlines (`Direct`, the `async-graph` case), or through a function value, as a container that
/// stores an `async` initializer must (`ByValue`, the `async-graph-by-value` case).
protocol AsyncDBOpening: Sendable {
    func open(_ config: Config) async -> AsyncDB
}

struct Direct: AsyncDBOpening {
    @inline(__always)
    func open(_ config: Config) async -> AsyncDB { await AsyncDB(config: config) }
}

struct ByValue: AsyncDBOpening {
    let make: @Sendable (Config) async -> AsyncDB
    func open(_ config: Config) async -> AsyncDB { await make(config) }
}

/// `AsyncDB.init(config:)` as a function value, read where the optimizer cannot see which
/// function it holds.
@inline(never)
func asyncDBInitializer() -> @Sendable (Config) async -> AsyncDB {
    let direct: @Sendable (Config) async -> AsyncDB = AsyncDB.init(config:)
    let wrapped: @Sendable (Config) async -> AsyncDB = { config in await AsyncDB(config: config) }
    return ProcessInfo.processInfo.environment["SIGHTLESS_NEVER_SET"] == nil ? direct : wrapped
}

extension HandWired {
    func asyncRepo<Opening: AsyncDBOpening>(_ db: Opening) async -> AsyncRepo {
        AsyncRepo(db: await db.open(getConfig()), logger: getLogger())
    }
    func asyncUsers<Opening: AsyncDBOpening>(_ db: Opening) async -> AsyncUserService {
        AsyncUserService(api: api(), repo: await asyncRepo(db))
    }
    func asyncFeed<Opening: AsyncDBOpening>(_ db: Opening) async -> AsyncFeedService {
        AsyncFeedService(api: api(), repo: await asyncRepo(db), users: await asyncUsers(db))
    }
    func asyncScreen<Opening: AsyncDBOpening>(title: String, _ db: Opening) async -> AsyncScreen {
        AsyncScreen(feed: await asyncFeed(db), users: await asyncUsers(db), title: title)
    }
}

extension Contenders {
    /// `AsyncScreen`s with the title "Inbox": requested of the injector, or (`throughFactory`, the
    /// `async-factory` case) made by a `Factory<AsyncScreen, String>` resolved once,
    /// `try await screens.instance("Inbox")`; by hand, the same calls either way.
    func asyncGraph(_ contender: Contender, throughFactory: Bool, _ n: Int, _ sink: Sink) async throws {
        switch contender {
        case .handWired:
            for _ in 0..<n { sink.take(await hand.asyncScreen(title: "Inbox", Direct())) }
        case .sightless where throughFactory:
            let screens = try injector.getInstance(Factory<AsyncScreen, String>.self)
            for _ in 0..<n { sink.take(try await screens.instance("Inbox")) }
        case .sightless, .swinject:
            for _ in 0..<n { sink.take(try await injector.instance(AsyncScreen.self, arguments: "Inbox")) }
        }
    }
}

// MARK: - Running async work on this thread

/// Runs every job of the tasks that prefer it on the thread that drains it: the async case then
/// runs on one thread, as valgrind needs (it cannot follow the concurrency runtime's worker
/// threads), and its instruction count holds no thread hand-offs.
final class InlineExecutor: TaskExecutor, @unchecked Sendable {
    private var jobs: [UnownedJob] = []
    private let lock = NSLock()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        lock.lock()
        jobs.append(job)
        lock.unlock()
    }

    /// Runs the queued jobs until `done` says so; `false` if the queue ran dry before.
    func drain(until done: () -> Bool) -> Bool {
        while !done() {
            lock.lock()
            let job = jobs.isEmpty ? nil : jobs.removeFirst()
            lock.unlock()
            guard let job else { return false }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
        return true
    }
}

/// The `async-graph-by-value` case, hand-wired only: `AsyncScreen`s wired by hand with each
/// `AsyncDB` opened through a function value, the least any container that stores an `async`
/// initializer can pay (a call of an async function it cannot inline, with its frame and its
/// executor switches).
func runAsyncGraphByValue(_ contenders: Contenders, _ n: Int, _ sink: Sink) throws {
    let box = SinkBox(sink)
    let db = ByValue(make: asyncDBInitializer())
    try runInline {
        for _ in 0..<n { box.sink.take(await contenders.hand.asyncScreen(title: "Inbox", db)) }
    }
}

/// Runs the `async-graph` case (or, `throughFactory`, `async-factory`) to its end on this thread.
func runAsyncGraph(
    _ contenders: Contenders, _ contender: Contender, throughFactory: Bool = false, _ n: Int, _ sink: Sink
) throws {
    let box = SinkBox(sink)
    try runInline { try await contenders.asyncGraph(contender, throughFactory: throughFactory, n, box.sink) }
}

final class Finished: @unchecked Sendable {
    private let lock = NSLock()
    private var done = false
    private(set) var failure: String?
    func set(_ failure: String?) {
        lock.lock()
        self.failure = failure
        done = true
        lock.unlock()
    }
    var isDone: Bool {
        lock.lock()
        defer { lock.unlock() }
        return done
    }
}

/// The sink, handed to the task that runs on this same thread.
struct SinkBox: @unchecked Sendable {
    let sink: Sink
    init(_ sink: Sink) { self.sink = sink }
}
