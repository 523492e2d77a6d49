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

extension HandWired {
    func asyncRepo() async -> AsyncRepo { AsyncRepo(db: await AsyncDB(config: getConfig()), logger: getLogger()) }
    func asyncUsers() async -> AsyncUserService { AsyncUserService(api: api(), repo: await asyncRepo()) }
    func asyncFeed() async -> AsyncFeedService {
        AsyncFeedService(api: api(), repo: await asyncRepo(), users: await asyncUsers())
    }
    func asyncScreen(title: String) async -> AsyncScreen {
        AsyncScreen(feed: await asyncFeed(), users: await asyncUsers(), title: title)
    }
}

extension Contenders {
    func asyncGraph(_ contender: Contender, _ n: Int, _ sink: Sink) async throws {
        switch contender {
        case .handWired:
            for _ in 0..<n { sink.take(await hand.asyncScreen(title: "Inbox")) }
        case .sightless, .swinject:
            for _ in 0..<n { sink.take(try await injector.instance(AsyncScreen.self, arguments: "Inbox")) }
        }
    }
}
