import Sightless
import Swinject
import Synchronization

// The reference graph of Documentation/Performance.md (nine types, two singletons, a dynamic
// title), and the three ways to build it: by hand, by Sightless and by Swinject. The types are
// the same for all three; only the wiring differs.

final class Logger: Injectable, Sendable {
    static let initializer = Initializer(Logger.init)
}

final class Config: Injectable, Sendable {
    let retries = 3
    static let initializer = Initializer(Config.init)
}

final class HTTP: Injectable, Sendable {
    let config: Config
    init(config: Config) { self.config = config }
    static let initializer = Initializer(HTTP.init(config:))
}

final class API: Injectable, Sendable {
    let http: HTTP
    let logger: Logger
    init(http: HTTP, logger: Logger) {
        self.http = http
        self.logger = logger
    }
    static let initializer = Initializer(API.init(http:logger:))
}

final class DB: Injectable, Sendable {
    let config: Config
    init(config: Config) { self.config = config }
    static let initializer = Initializer(DB.init(config:))
}

final class Repo: Injectable, Sendable {
    let db: DB
    let logger: Logger
    init(db: DB, logger: Logger) {
        self.db = db
        self.logger = logger
    }
    static let initializer = Initializer(Repo.init(db:logger:))
}

final class UserService: Injectable, Sendable {
    let api: API
    let repo: Repo
    init(api: API, repo: Repo) {
        self.api = api
        self.repo = repo
    }
    static let initializer = Initializer(UserService.init(api:repo:))
}

final class FeedService: Injectable, Sendable {
    let api: API
    let repo: Repo
    let users: UserService
    init(api: API, repo: Repo, users: UserService) {
        self.api = api
        self.repo = repo
        self.users = users
    }
    static let initializer = Initializer(FeedService.init(api:repo:users:))
}

final class Screen: Injectable, Sendable {
    let feed: FeedService
    let users: UserService
    let title: String
    init(feed: FeedService, users: UserService, title: String) {
        self.feed = feed
        self.users = users
        self.title = title
    }
    static let initializer = Initializer(Screen.init(feed:users:title:), .inject, .inject, .dynamic)
}

// MARK: - Hand-wired

/// What a careful person writes without a container: initializers called directly, and each
/// singleton stored once, behind a thread-safe once-check.
final class HandWired: Sendable {
    private let logger = Once<Logger>()
    private let config = Once<Config>()

    @inline(__always)
    func getLogger() -> Logger { logger.get { Logger() } }

    @inline(__always)
    func getConfig() -> Config { config.get { Config() } }

    func http() -> HTTP { HTTP(config: getConfig()) }
    func api() -> API { API(http: http(), logger: getLogger()) }
    func db() -> DB { DB(config: getConfig()) }
    func repo() -> Repo { Repo(db: db(), logger: getLogger()) }
    func users() -> UserService { UserService(api: api(), repo: repo()) }
    func feed() -> FeedService { FeedService(api: api(), repo: repo(), users: users()) }
    func screen(title: String) -> Screen { Screen(feed: feed(), users: users(), title: title) }
}

/// A lazily created object, created at most once even when threads race for it: an atomic
/// load when it exists. (The standard library's `AtomicLazyReference` does the same, but on
/// Linux its `load()` is an unspecialized call that costs several hundred instructions.)
final class Once<Object: AnyObject>: @unchecked Sendable {
    private let stored = Atomic<Unmanaged<Object>?>(nil)

    @inline(__always)
    func get(_ make: () -> Object) -> Object {
        if let object = stored.load(ordering: .acquiring) { return object.takeUnretainedValue() }
        return create(make)
    }

    @inline(never)
    private func create(_ make: () -> Object) -> Object {
        let created = Unmanaged.passRetained(make())
        let (exchanged, existing) = stored.compareExchange(expected: nil, desired: created, ordering: .acquiringAndReleasing)
        guard !exchanged, let existing else { return created.takeUnretainedValue() }
        created.release()
        return existing.takeUnretainedValue()
    }

    deinit { stored.load(ordering: .acquiring)?.release() }
}

// MARK: - Sightless

struct ReferenceModule: Module {
    func configure(_ binder: Binder) {
        binder.bind(Logger.self).in(.singleton)
        binder.bind(Config.self).in(.singleton)
    }
}

// MARK: - Swinject

func makeSwinjectContainer() -> Container {
    // Transient by default: Swinject's default graph scope would share objects within one
    // request, and the reference graph asks for 16 new ones.
    let container = Container(defaultObjectScope: .transient)
    container.register(Logger.self) { _ in Logger() }.inObjectScope(.container)
    container.register(Config.self) { _ in Config() }.inObjectScope(.container)
    container.register(HTTP.self) { r in HTTP(config: r.resolve(Config.self)!) }
    container.register(API.self) { r in API(http: r.resolve(HTTP.self)!, logger: r.resolve(Logger.self)!) }
    container.register(DB.self) { r in DB(config: r.resolve(Config.self)!) }
    container.register(Repo.self) { r in Repo(db: r.resolve(DB.self)!, logger: r.resolve(Logger.self)!) }
    container.register(UserService.self) { r in UserService(api: r.resolve(API.self)!, repo: r.resolve(Repo.self)!) }
    container.register(FeedService.self) { r in
        FeedService(api: r.resolve(API.self)!, repo: r.resolve(Repo.self)!, users: r.resolve(UserService.self)!)
    }
    container.register(Screen.self) { (r: Swinject.Resolver, title: String) in
        Screen(feed: r.resolve(FeedService.self)!, users: r.resolve(UserService.self)!, title: title)
    }
    return container
}
