import Sightless

// View models declared `@MainActor` explicitly, as an app declares them whatever its default
// isolation: they conform to `MainActorInjectable` with no `nonisolated`, `@preconcurrency` or
// `@MainActor in`, and are built on the main actor.

@MainActor
final class InboxViewModel: MainActorInjectable {
    let api: any FeedApi
    let settings: Settings
    private(set) var headlines: [String] = []
    private(set) var awoken = false
    init(api: any FeedApi, settings: Settings) {
        self.api = api
        self.settings = settings
    }
    static let initializer = Initializer(InboxViewModel.init(api:settings:))
    func awakeFromInjection() { awoken = true }
    func load() { headlines = api.headlines() }
}

@MainActor
final class SessionViewModel: MainActorInjectable {
    let inbox: InboxViewModel
    let user: String
    init(inbox: InboxViewModel, user: String) {
        self.inbox = inbox
        self.user = user
    }
    static let initializer = Initializer(SessionViewModel.init(inbox:user:), .inject, .dynamic)
}

@MainActor
final class ShellViewModel: MainActorInjectable {
    let clock: Clock
    init(clock: Clock) { self.clock = clock }
    static let initializer = Initializer(ShellViewModel.init(clock:))
    static var scope: Scope { .singleton }
}

struct ViewModelModule: Module {
    func configure(_ binder: Binder) {
        binder.bind((any FeedApi).self).to { _ async in await HttpFeedApi() }
    }
}

struct SyncApiModule: Module {
    func configure(_ binder: Binder) {
        binder.bind((any FeedApi).self).to(StaticFeedApi.self)
    }
}

@MainActor
final class StaticFeedApi: FeedApi, MainActorInjectable {
    init() {}
    func headlines() -> [String] { ["Local news"] }
    static let initializer = Initializer(StaticFeedApi.init)
}

/// A view model with no annotation at all: on the main actor by the target's default isolation,
/// which conforming to `MainActorInjectable` keeps.
final class SearchViewModel: MainActorInjectable {
    let clock: Clock
    var query = ""
    init(clock: Clock) { self.clock = clock }
    static let initializer = Initializer(SearchViewModel.init(clock:))
}

/// A view model with an injected property, set on the main actor before it awakes.
@MainActor
final class ProfileViewModel: MainActorInjectable {
    var settings: Settings?
    private(set) var pageSize = 0
    init() {}
    static let initializer = Initializer(ProfileViewModel.init)
    static let properties = Properties<ProfileViewModel>().inject(\.settings)
    func awakeFromInjection() { pageSize = settings?.pageSize ?? 0 }
}

/// A protocol key whose one implementation is a main-actor type: a singleton alias of it takes
/// the implementation's isolation.
protocol GreetingApi {
    func greeting() -> String
}

final class HttpGreetingApi: GreetingApi, MainActorInjectable {
    init() {}
    func greeting() -> String { "hello" }
    static let initializer = Initializer(HttpGreetingApi.init)
}

struct GreetingModule: Module {
    func configure(_ binder: Binder) {
        binder.bind((any GreetingApi).self).to(HttpGreetingApi.self).in(.singleton)
    }
}

/// A model declared `nonisolated` in this target, isolated to the main actor by default, and made
/// main-actor-injectable in an extension: its key paths are `Sendable`, and `Properties` takes
/// them as written. Before `Properties` had forms for them, "ambiguous use of
/// 'inject(_:named:fileID:line:)'".
nonisolated final class DraftStore {
    var settings: Settings?
    var clock: Clock?
    init() {}
}

extension DraftStore: MainActorInjectable {
    static let initializer = Initializer(DraftStore.init)
    static let properties = Properties<DraftStore>().inject(\.settings).inject(\.clock, Key<Clock>())
}

/// A view model isolated by the target's default, with a property injected from a key.
final class FilterViewModel: MainActorInjectable {
    var settings: Settings?
    var clock: Clock?
    init() {}
    static let initializer = Initializer(FilterViewModel.init)
    static let properties = Properties<FilterViewModel>().inject(\.settings).inject(\.clock, Key<Clock>())
}

/// A struct isolated by the target's default, with injected properties.
struct FilterState: MainActorInjectable {
    var settings: Settings?
    var clock: Clock?
    static let initializer = Initializer(FilterState.init)
    static let properties = Properties<FilterState>().inject(\.settings).inject(\.clock, Key<Clock>())
}
