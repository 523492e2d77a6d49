import Sightless
import Swinject

// The `launch-path` case: what an iOS app builds when it launches, its types isolated to the main
// actor as Swift 6.2's default isolation makes them. Per request, 24 new objects: the app's root
// (made with the signed-in user's id, a creation-time argument), a tab bar of four screens, each
// a screen over its model and its router, a now-playing bar over its model and router, a deep-link
// handler and a tab coordinator (19, all main-actor), and five nonisolated services over five shared
// singletons (an HTTP client, a library store, analytics, settings and the playback engine).
// Requested on the main actor, measured by instructions only (`--profile launch-path …`), beside
// the same objects wired by hand and Swinject (which makes the main-actor ones in
// `MainActor.assumeIsolated`).

// MARK: Shared singletons, nonisolated

final class LaunchHttpClient: Injectable, Sendable {
    init() {}
    static let initializer = Initializer(LaunchHttpClient.init)
    static var scope: Scope { .singleton }
}

final class LaunchLibraryStore: Injectable, Sendable {
    init() {}
    static let initializer = Initializer(LaunchLibraryStore.init)
    static var scope: Scope { .singleton }
}

final class LaunchAnalytics: Injectable, Sendable {
    init() {}
    static let initializer = Initializer(LaunchAnalytics.init)
    static var scope: Scope { .singleton }
}

final class LaunchSettings: Injectable, Sendable {
    init() {}
    static let initializer = Initializer(LaunchSettings.init)
    static var scope: Scope { .singleton }
}

final class LaunchPlaybackEngine: Injectable, Sendable {
    init() {}
    static let initializer = Initializer(LaunchPlaybackEngine.init)
    static var scope: Scope { .singleton }
}

// MARK: Services, nonisolated, new per request

final class LaunchLibraryService: Injectable, Sendable {
    let client: LaunchHttpClient, store: LaunchLibraryStore
    init(client: LaunchHttpClient, store: LaunchLibraryStore) { self.client = client; self.store = store }
    static let initializer = Initializer(LaunchLibraryService.init(client:store:))
}

final class LaunchSearchService: Injectable, Sendable {
    let client: LaunchHttpClient
    init(client: LaunchHttpClient) { self.client = client }
    static let initializer = Initializer(LaunchSearchService.init(client:))
}

final class LaunchPlaylistService: Injectable, Sendable {
    let client: LaunchHttpClient, store: LaunchLibraryStore
    init(client: LaunchHttpClient, store: LaunchLibraryStore) { self.client = client; self.store = store }
    static let initializer = Initializer(LaunchPlaylistService.init(client:store:))
}

final class LaunchProfileService: Injectable, Sendable {
    let client: LaunchHttpClient, settings: LaunchSettings
    init(client: LaunchHttpClient, settings: LaunchSettings) { self.client = client; self.settings = settings }
    static let initializer = Initializer(LaunchProfileService.init(client:settings:))
}

// MARK: Main-actor models, routers and screens

@MainActor final class LaunchRouter: MainActorInjectable {
    let analytics: LaunchAnalytics
    init(analytics: LaunchAnalytics) { self.analytics = analytics }
    static let initializer = Initializer(LaunchRouter.init(analytics:))
}

@MainActor final class LaunchHomeModel: MainActorInjectable {
    let library: LaunchLibraryService, analytics: LaunchAnalytics
    init(library: LaunchLibraryService, analytics: LaunchAnalytics) { self.library = library; self.analytics = analytics }
    static let initializer = Initializer(LaunchHomeModel.init(library:analytics:))
}

@MainActor final class LaunchHomeScreen: MainActorInjectable {
    let model: LaunchHomeModel, router: LaunchRouter
    init(model: LaunchHomeModel, router: LaunchRouter) { self.model = model; self.router = router }
    static let initializer = Initializer(LaunchHomeScreen.init(model:router:))
}

@MainActor final class LaunchSearchModel: MainActorInjectable {
    let search: LaunchSearchService, analytics: LaunchAnalytics
    init(search: LaunchSearchService, analytics: LaunchAnalytics) { self.search = search; self.analytics = analytics }
    static let initializer = Initializer(LaunchSearchModel.init(search:analytics:))
}

@MainActor final class LaunchSearchScreen: MainActorInjectable {
    let model: LaunchSearchModel, router: LaunchRouter
    init(model: LaunchSearchModel, router: LaunchRouter) { self.model = model; self.router = router }
    static let initializer = Initializer(LaunchSearchScreen.init(model:router:))
}

@MainActor final class LaunchLibraryModel: MainActorInjectable {
    let library: LaunchLibraryService, playlists: LaunchPlaylistService
    init(library: LaunchLibraryService, playlists: LaunchPlaylistService) { self.library = library; self.playlists = playlists }
    static let initializer = Initializer(LaunchLibraryModel.init(library:playlists:))
}

@MainActor final class LaunchLibraryScreen: MainActorInjectable {
    let model: LaunchLibraryModel, router: LaunchRouter
    init(model: LaunchLibraryModel, router: LaunchRouter) { self.model = model; self.router = router }
    static let initializer = Initializer(LaunchLibraryScreen.init(model:router:))
}

@MainActor final class LaunchProfileModel: MainActorInjectable {
    let profile: LaunchProfileService, settings: LaunchSettings
    init(profile: LaunchProfileService, settings: LaunchSettings) { self.profile = profile; self.settings = settings }
    static let initializer = Initializer(LaunchProfileModel.init(profile:settings:))
}

@MainActor final class LaunchProfileScreen: MainActorInjectable {
    let model: LaunchProfileModel, router: LaunchRouter
    init(model: LaunchProfileModel, router: LaunchRouter) { self.model = model; self.router = router }
    static let initializer = Initializer(LaunchProfileScreen.init(model:router:))
}

@MainActor final class LaunchNowPlayingModel: MainActorInjectable {
    let engine: LaunchPlaybackEngine, analytics: LaunchAnalytics
    init(engine: LaunchPlaybackEngine, analytics: LaunchAnalytics) { self.engine = engine; self.analytics = analytics }
    static let initializer = Initializer(LaunchNowPlayingModel.init(engine:analytics:))
}

@MainActor final class LaunchNowPlayingBar: MainActorInjectable {
    let model: LaunchNowPlayingModel, router: LaunchRouter
    init(model: LaunchNowPlayingModel, router: LaunchRouter) { self.model = model; self.router = router }
    static let initializer = Initializer(LaunchNowPlayingBar.init(model:router:))
}

@MainActor final class LaunchTabCoordinator: MainActorInjectable {
    let analytics: LaunchAnalytics
    init(analytics: LaunchAnalytics) { self.analytics = analytics }
    static let initializer = Initializer(LaunchTabCoordinator.init(analytics:))
}

@MainActor final class LaunchTabs: MainActorInjectable {
    let home: LaunchHomeScreen, search: LaunchSearchScreen, library: LaunchLibraryScreen, profile: LaunchProfileScreen
    let coordinator: LaunchTabCoordinator
    init(home: LaunchHomeScreen, search: LaunchSearchScreen, library: LaunchLibraryScreen, profile: LaunchProfileScreen,
         coordinator: LaunchTabCoordinator) {
        self.home = home; self.search = search; self.library = library; self.profile = profile
        self.coordinator = coordinator
    }
    static let initializer = Initializer(LaunchTabs.init(home:search:library:profile:coordinator:))
}

@MainActor final class LaunchDeepLinks: MainActorInjectable {
    let settings: LaunchSettings
    init(settings: LaunchSettings) { self.settings = settings }
    static let initializer = Initializer(LaunchDeepLinks.init(settings:))
}

@MainActor final class LaunchRoot: MainActorInjectable {
    let userID: String, tabs: LaunchTabs, nowPlaying: LaunchNowPlayingBar, deepLinks: LaunchDeepLinks
    init(userID: String, tabs: LaunchTabs, nowPlaying: LaunchNowPlayingBar, deepLinks: LaunchDeepLinks) {
        self.userID = userID; self.tabs = tabs; self.nowPlaying = nowPlaying; self.deepLinks = deepLinks
    }
    static let initializer = Initializer(LaunchRoot.init(userID:tabs:nowPlaying:deepLinks:), .dynamic, .inject, .inject, .inject)
}

/// The shared singletons of the hand-wired app, made once.
@MainActor private struct LaunchSingletons {
    let client = LaunchHttpClient(), store = LaunchLibraryStore(), analytics = LaunchAnalytics()
    let settings = LaunchSettings(), engine = LaunchPlaybackEngine()

    func root(userID: String) -> LaunchRoot {
        let tabs = LaunchTabs(
            home: LaunchHomeScreen(model: LaunchHomeModel(library: LaunchLibraryService(client: client, store: store), analytics: analytics),
                                   router: LaunchRouter(analytics: analytics)),
            search: LaunchSearchScreen(model: LaunchSearchModel(search: LaunchSearchService(client: client), analytics: analytics),
                                       router: LaunchRouter(analytics: analytics)),
            library: LaunchLibraryScreen(model: LaunchLibraryModel(library: LaunchLibraryService(client: client, store: store),
                                                                   playlists: LaunchPlaylistService(client: client, store: store)),
                                         router: LaunchRouter(analytics: analytics)),
            profile: LaunchProfileScreen(model: LaunchProfileModel(profile: LaunchProfileService(client: client, settings: settings),
                                                                   settings: settings),
                                         router: LaunchRouter(analytics: analytics)),
            coordinator: LaunchTabCoordinator(analytics: analytics))
        return LaunchRoot(userID: userID, tabs: tabs,
                          nowPlaying: LaunchNowPlayingBar(model: LaunchNowPlayingModel(engine: engine, analytics: analytics),
                                                          router: LaunchRouter(analytics: analytics)),
                          deepLinks: LaunchDeepLinks(settings: settings))
    }
}

/// The launch path registered in Swinject, the main-actor types made in `MainActor.assumeIsolated`.
private func makeLaunchPathSwinjectContainer() -> Container {
    let container = Container(defaultObjectScope: .transient)
    container.register(LaunchHttpClient.self) { _ in LaunchHttpClient() }.inObjectScope(.container)
    container.register(LaunchLibraryStore.self) { _ in LaunchLibraryStore() }.inObjectScope(.container)
    container.register(LaunchAnalytics.self) { _ in LaunchAnalytics() }.inObjectScope(.container)
    container.register(LaunchSettings.self) { _ in LaunchSettings() }.inObjectScope(.container)
    container.register(LaunchPlaybackEngine.self) { _ in LaunchPlaybackEngine() }.inObjectScope(.container)
    container.register(LaunchLibraryService.self) { r in
        LaunchLibraryService(client: r.resolve(LaunchHttpClient.self)!, store: r.resolve(LaunchLibraryStore.self)!)
    }
    container.register(LaunchSearchService.self) { r in LaunchSearchService(client: r.resolve(LaunchHttpClient.self)!) }
    container.register(LaunchPlaylistService.self) { r in
        LaunchPlaylistService(client: r.resolve(LaunchHttpClient.self)!, store: r.resolve(LaunchLibraryStore.self)!)
    }
    container.register(LaunchProfileService.self) { r in
        LaunchProfileService(client: r.resolve(LaunchHttpClient.self)!, settings: r.resolve(LaunchSettings.self)!)
    }
    container.register(LaunchRouter.self) { r in
        let analytics = r.resolve(LaunchAnalytics.self)!
        return MainActor.assumeIsolated { LaunchRouter(analytics: analytics) }
    }
    container.register(LaunchHomeModel.self) { r in
        let library = r.resolve(LaunchLibraryService.self)!, analytics = r.resolve(LaunchAnalytics.self)!
        return MainActor.assumeIsolated { LaunchHomeModel(library: library, analytics: analytics) }
    }
    container.register(LaunchHomeScreen.self) { r in
        let model = r.resolve(LaunchHomeModel.self)!, router = r.resolve(LaunchRouter.self)!
        return MainActor.assumeIsolated { LaunchHomeScreen(model: model, router: router) }
    }
    container.register(LaunchSearchModel.self) { r in
        let search = r.resolve(LaunchSearchService.self)!, analytics = r.resolve(LaunchAnalytics.self)!
        return MainActor.assumeIsolated { LaunchSearchModel(search: search, analytics: analytics) }
    }
    container.register(LaunchSearchScreen.self) { r in
        let model = r.resolve(LaunchSearchModel.self)!, router = r.resolve(LaunchRouter.self)!
        return MainActor.assumeIsolated { LaunchSearchScreen(model: model, router: router) }
    }
    container.register(LaunchLibraryModel.self) { r in
        let library = r.resolve(LaunchLibraryService.self)!, playlists = r.resolve(LaunchPlaylistService.self)!
        return MainActor.assumeIsolated { LaunchLibraryModel(library: library, playlists: playlists) }
    }
    container.register(LaunchLibraryScreen.self) { r in
        let model = r.resolve(LaunchLibraryModel.self)!, router = r.resolve(LaunchRouter.self)!
        return MainActor.assumeIsolated { LaunchLibraryScreen(model: model, router: router) }
    }
    container.register(LaunchProfileModel.self) { r in
        let profile = r.resolve(LaunchProfileService.self)!, settings = r.resolve(LaunchSettings.self)!
        return MainActor.assumeIsolated { LaunchProfileModel(profile: profile, settings: settings) }
    }
    container.register(LaunchProfileScreen.self) { r in
        let model = r.resolve(LaunchProfileModel.self)!, router = r.resolve(LaunchRouter.self)!
        return MainActor.assumeIsolated { LaunchProfileScreen(model: model, router: router) }
    }
    container.register(LaunchNowPlayingModel.self) { r in
        let engine = r.resolve(LaunchPlaybackEngine.self)!, analytics = r.resolve(LaunchAnalytics.self)!
        return MainActor.assumeIsolated { LaunchNowPlayingModel(engine: engine, analytics: analytics) }
    }
    container.register(LaunchNowPlayingBar.self) { r in
        let model = r.resolve(LaunchNowPlayingModel.self)!, router = r.resolve(LaunchRouter.self)!
        return MainActor.assumeIsolated { LaunchNowPlayingBar(model: model, router: router) }
    }
    container.register(LaunchTabCoordinator.self) { r in
        let analytics = r.resolve(LaunchAnalytics.self)!
        return MainActor.assumeIsolated { LaunchTabCoordinator(analytics: analytics) }
    }
    container.register(LaunchTabs.self) { r in
        let home = r.resolve(LaunchHomeScreen.self)!, search = r.resolve(LaunchSearchScreen.self)!
        let library = r.resolve(LaunchLibraryScreen.self)!, profile = r.resolve(LaunchProfileScreen.self)!
        let coordinator = r.resolve(LaunchTabCoordinator.self)!
        return MainActor.assumeIsolated {
            LaunchTabs(home: home, search: search, library: library, profile: profile, coordinator: coordinator)
        }
    }
    container.register(LaunchDeepLinks.self) { r in
        let settings = r.resolve(LaunchSettings.self)!
        return MainActor.assumeIsolated { LaunchDeepLinks(settings: settings) }
    }
    container.register(LaunchRoot.self) { (r, userID: String) in
        let tabs = r.resolve(LaunchTabs.self)!, nowPlaying = r.resolve(LaunchNowPlayingBar.self)!
        let deepLinks = r.resolve(LaunchDeepLinks.self)!
        return MainActor.assumeIsolated { LaunchRoot(userID: userID, tabs: tabs, nowPlaying: nowPlaying, deepLinks: deepLinks) }
    }
    return container
}

/// Checks that a launch's root shares the app's singletons, as every contender must.
@MainActor private func checkShared(_ root: LaunchRoot, _ contender: String) throws {
    let home = root.tabs.home.model.library, library = root.tabs.library.model.library
    guard home !== library, home.client === library.client, home.store === root.tabs.library.model.playlists.store,
          root.nowPlaying.router.analytics === root.tabs.coordinator.analytics, root.userID == "user-1" else {
        throw BenchmarkFailure(description: "\(contender): the launch path does not share its singletons")
    }
}

/// Requests the launch path's root `n` times on the main actor.
@MainActor func launchPathRequests(_ contender: Contender, _ n: Int, _ sink: Sink) throws {
    switch contender {
    case .handWired:
        let app = LaunchSingletons()
        try checkShared(app.root(userID: "user-1"), "hand-wired")
        for _ in 0..<n { sink.take(app.root(userID: "user-1")) }
    case .sightless:
        let injector = try Injector(modules: [AnyModule { binder in binder.entryPoint(LaunchRoot.self) }])
        try checkShared(try injector.getInstance(LaunchRoot.self, arguments: "user-1"), "Sightless")
        for _ in 0..<n { sink.take(try injector.getInstance(LaunchRoot.self, arguments: "user-1")) }
    case .swinject:
        let container = makeLaunchPathSwinjectContainer()
        try checkShared(try unwrap(container.resolve(LaunchRoot.self, argument: "user-1"), "LaunchRoot"), "Swinject")
        for _ in 0..<n { sink.take(try unwrap(container.resolve(LaunchRoot.self, argument: "user-1"), "LaunchRoot")) }
    }
}
