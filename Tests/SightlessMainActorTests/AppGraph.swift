import Sightless

// A small app, written in a target whose code is isolated to the main actor by default: a
// protocol and its implementation, services, and view models, with no `nonisolated`,
// `@preconcurrency` or `@MainActor in` anywhere. Services that conform to `Injectable` are
// inferred nonisolated; the view models and the protocol's implementation stay on the main
// actor, and are bound with `async` closures, which build them there.

protocol FeedApi {
    func headlines() -> [String]
}

final class HttpFeedApi: FeedApi {
    init() {}
    func headlines() -> [String] { ["Swift 6.3 released", "Sightless awaits"] }
}

final class Settings: Injectable {
    var pageSize = 1
    init() {}
    static let initializer = Initializer(Settings.init)
    static var scope: Scope { .singleton }
}

final class Clock: Injectable {
    init() {}
    static let initializer = Initializer(Clock.init)
}

final class FeedViewModel {
    let api: any FeedApi
    let settings: Settings
    private(set) var headlines: [String] = []
    init(api: any FeedApi, settings: Settings) {
        self.api = api
        self.settings = settings
    }
    func load() { headlines = Array(api.headlines().prefix(settings.pageSize)) }
}

final class DetailViewModel {
    let title: String
    let clock: Clock
    init(title: String, clock: Clock) {
        self.title = title
        self.clock = clock
    }
}

final class AppModel {
    let feed: FeedViewModel
    let detail: DetailViewModel
    init(feed: FeedViewModel, detail: DetailViewModel) {
        self.feed = feed
        self.detail = detail
    }
}

struct AppModule: Module {
    func configure(_ binder: Binder) {
        binder.bind((any FeedApi).self).to { _ async in await HttpFeedApi() }
        binder.bind(FeedViewModel.self).to { resolver async throws in
            let api = try await resolver.instance((any FeedApi).self)
            return await FeedViewModel(api: api, settings: try resolver.getInstance(Settings.self))
        }.in(.singleton)
        binder.bind(DetailViewModel.self).to { resolver async throws in
            await DetailViewModel(title: "Inbox", clock: try resolver.getInstance(Clock.self))
        }
        binder.bind(AppModel.self).to { resolver async throws in
            let feed = try await resolver.instance(FeedViewModel.self)
            let detail = try await resolver.instance(DetailViewModel.self)
            return await AppModel(feed: feed, detail: detail)
        }
    }
}

/// The app's modules as one constant that any task may read: `nonisolated`, which a list of
/// modules may be since a module is `Sendable`.
nonisolated let appModules: [any Module] = [AppModule(), AnyModule { $0.bind(Key<String>(named: "region")).to(instance: "eu") }]
