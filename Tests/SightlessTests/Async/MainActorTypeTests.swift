import Sightless
import Testing

/// How many times each main-actor type was built, across tests (each test counts its own).
private let builds = Locked<[String: Int]>([:])

private final class NewsApi: Injectable, Sendable {
    static let initializer = Initializer(NewsApi.init)
}

@MainActor
private final class FeedModel: MainActorInjectable {
    let api: NewsApi
    init(api: NewsApi, counter: String) {
        self.api = api
        builds.withLock { $0[counter, default: 0] += 1 }
    }
    static let initializer = Initializer(FeedModel.init(api:counter:), .inject, .named("counter"))
}

/// A nonisolated, unscoped consumer of a main-actor value.
private final class FeedPresenter: Injectable, Sendable {
    let model: FeedModel
    init(model: FeedModel) { self.model = model }
    static let initializer = Initializer(FeedPresenter.init(model:))
}

/// A nonisolated singleton that holds a main-actor value through an unscoped one.
private final class FeedCache: Injectable {
    init(presenter: FeedPresenter) {}
    static let initializer = Initializer(FeedCache.init(presenter:))
}

/// A nonisolated singleton that reaches a main-actor value later, on demand.
private final class LazyFeedCache: Injectable {
    let model: Lazy<FeedModel>
    init(model: Lazy<FeedModel>) { self.model = model }
    static let initializer = Initializer(LazyFeedCache.init(model:))
}

/// A nonisolated singleton, by its own declaration, that holds a main-actor value.
private final class FeedArchive: Injectable {
    init(model: FeedModel) {}
    static let initializer = Initializer(FeedArchive.init(model:))
    static var scope: Scope { .singleton }
}

/// A main-actor singleton that holds another main-actor value: both on the same actor.
@MainActor
private final class ShellModel: MainActorInjectable {
    let feed: FeedModel
    init(feed: FeedModel) { self.feed = feed }
    static let initializer = Initializer(ShellModel.init(feed:))
    static var scope: Scope { .singleton }
}

/// A main-actor type whose initializer is `async`: awaited, then awoken on the main actor.
@MainActor
private final class LoadedModel: MainActorInjectable {
    let api: NewsApi
    private(set) var awoken = false
    init(api: NewsApi) async { self.api = api }
    static let initializer = Initializer(LoadedModel.init(api:))
    func awakeFromInjection() { awoken = true }
}

/// A module counting the builds of its `FeedModel` under `counter`.
private struct FeedModule: Module {
    let counter: String
    /// The scope of the binding of `FeedModel`; `nil` leaves it unbound (just in time).
    var feedScope: Scope? = .unscoped
    func configure(_ binder: Binder) {
        binder.bind(Key<String>(named: "counter")).to(instance: counter)
        if let feedScope { binder.bind(FeedModel.self).in(feedScope) }
    }
}

private func count(_ counter: String) -> Int { builds.withLock { $0[counter] ?? 0 } }

/// The kind of error a request made on a detached task throws, if any (also used by
/// `MainActorRegionTests`).
func kindOffMainActor(_ request: @escaping @Sendable () throws -> Void) async -> InjectionError.Kind? {
    await Task.detached {
        do {
            try request()
            return nil
        } catch {
            return (error as? InjectionError)?.kind
        }
    }.value
}

@Suite("Main-actor types")
struct MainActorTypeTests {
    @Test("a MainActorInjectable type is built synchronously when requested on the main actor")
    @MainActor
    func synchronousOnMainActor() throws {
        let injector = try Injector(modules: [FeedModule(counter: #function)])
        let model = try injector.getInstance(FeedModel.self)
        #expect(count(#function) == 1)
        _ = model.api
    }

    @Test("a detached task awaits a main-actor value: the injector compiles and builds it on the main actor")
    func awaitedFromDetachedTask() async throws {
        let injector = try Injector(modules: [FeedModule(counter: #function, feedScope: nil)])   // built off the main actor
        let presenter = try await Task.detached { try await injector.instance(FeedPresenter.self) }.value
        #expect(count(#function) == 1)
        _ = presenter
    }

    @Test("a synchronous request of a main-actor value from a detached task throws offActor")
    @MainActor
    func synchronousOffMainActor() async throws {
        let injector = try Injector(modules: [FeedModule(counter: #function)])
        _ = try injector.getInstance(FeedModel.self)   // compiled on the main actor
        #expect(await kindOffMainActor { _ = try injector.getInstance(FeedModel.self) } == .offActor)
        #expect(count(#function) == 1)
    }

    @Test("a synchronous request of a nonisolated value that needs a main-actor one throws offActor off the main actor")
    @MainActor
    func consumerOffMainActor() async throws {
        let injector = try Injector(modules: [FeedModule(counter: #function)])
        _ = try injector.getInstance(FeedPresenter.self)   // on the main actor: built synchronously
        #expect(await kindOffMainActor { _ = try injector.getInstance(FeedPresenter.self) } == .offActor)
        #expect(count(#function) == 1)
    }

    @Test("an injector built synchronously off the main actor reports a bound main-actor type's descriptors as offActor")
    func boundDescriptorsOffMainActor() {
        let error = #expect(throws: InjectionError.self) { _ = try Injector(modules: [FeedModule(counter: #function)]) }
        #expect(error?.kind == .offActor)
    }

    @Test("an injector built off the main actor reports a main-actor type's descriptors as offActor on a synchronous request")
    func descriptorsOffMainActor() async throws {
        let injector = try Injector(modules: [])
        let error = #expect(throws: InjectionError.self) { _ = try injector.getInstance(ShellModel.self) }
        guard case .descriptorsOffActor(let key, let actor)? = error?.problems.first?.detail else {
            Issue.record("expected descriptorsOffActor, got \(String(describing: error))")
            return
        }
        #expect(key == Key<ShellModel>().erased)
        #expect(actor == "MainActor")
    }

    @Test("a main-actor singleton is built once, on the main actor, under 100 concurrent awaiting tasks")
    func singletonOnceUnderConcurrentCallers() async throws {
        // Started off the main actor: the binding's descriptors are read on the main actor.
        let injector = try await Injector.start(modules: [FeedModule(counter: #function, feedScope: .singleton)])
        let identities = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<100 {
                group.addTask { ObjectIdentifier(try await injector.instance(FeedModel.self)) }
            }
            var seen: Set<ObjectIdentifier> = []
            for try await identity in group { seen.insert(identity) }
            return seen
        }
        #expect(identities.count == 1)
        #expect(count(#function) == 1)
    }

    @Test("a main-actor singleton awaited by tasks and requested synchronously on the main actor is one instance")
    @MainActor
    func singletonSharedBetweenSyncAndAwaited() async throws {
        let injector = try Injector(modules: [FeedModule(counter: #function)])
        let awaited = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<20 {
                group.addTask { ObjectIdentifier(try await injector.instance(ShellModel.self)) }
            }
            var seen: Set<ObjectIdentifier> = []
            for try await identity in group { seen.insert(identity) }
            return seen
        }
        #expect(awaited == [ObjectIdentifier(try injector.getInstance(ShellModel.self))])
        #expect(count(#function) == 1)
    }

    @Test("a nonisolated singleton holding a main-actor value through an unscoped one is built on the main actor")
    @MainActor
    func nonisolatedSingletonHoldsMainActorValue() throws {
        let injector = try Injector(modules: [FeedModule(counter: #function), Bindings { $0.bind(FeedCache.self).in(.singleton) }])
        _ = try injector.getInstance(FeedCache.self)
        _ = try injector.getInstance(FeedCache.self)
        #expect(count(#function) == 1)
    }

    @Test("requested synchronously off the main actor before it is built, such a singleton throws offActor with the path and a fix naming it")
    @MainActor
    func nonisolatedSingletonOffMainActor() async throws {
        let injector = try Injector(modules: [FeedModule(counter: #function), Bindings { $0.bind(FeedCache.self).in(.singleton) }])
        let error = await Task.detached { () -> InjectionError? in
            do {
                _ = try injector.getInstance(FeedCache.self)
                return nil
            } catch {
                return error as? InjectionError
            }
        }.value
        #expect(error?.kind == .offActor)
        #expect(error?.path == [Key<FeedCache>().erased, Key<FeedPresenter>().erased, Key<FeedModel>().erased])
        #expect(error?.problems.first?.fix.contains("try await injector.instance(FeedCache.self)") == true)
        #expect(count(#function) == 0)
    }

    @Test("a nonisolated singleton first requested later, needing a main-actor value compiled before, is built on the main actor")
    @MainActor
    func holderCompiledOnFirstRequest() throws {
        let injector = try Injector(modules: [FeedModule(counter: #function)])
        let model = try injector.getInstance(FeedModel.self)
        _ = try injector.getInstance(FeedArchive.self)
        #expect(count(#function) == 2)   // unscoped: one for the request, one for the archive
        _ = model
    }

    @Test("a nonisolated singleton may hold a Lazy of a main-actor value, and get it on the main actor")
    @MainActor
    func lazyOfMainActorValue() throws {
        let injector = try Injector(modules: [FeedModule(counter: #function), Bindings { $0.bind(LazyFeedCache.self).in(.singleton) }])
        let cache = try injector.getInstance(LazyFeedCache.self)
        _ = try cache.model.get()
        #expect(count(#function) == 1)
    }

    @Test("a main-actor singleton may hold another main-actor value")
    @MainActor
    func mainActorSingletonHoldsMainActorValue() throws {
        let injector = try Injector(modules: [FeedModule(counter: #function)])
        #expect(try injector.getInstance(ShellModel.self).feed === injector.getInstance(ShellModel.self).feed)
    }

    @Test("a main-actor type with an async initializer is awaited from any task and awoken on the main actor")
    @MainActor
    func asyncInitializer() async throws {
        let injector = try Injector(modules: [])
        let model = try await Task.detached { try await injector.instance(LoadedModel.self) }.value
        #expect(model.awoken)
        #expect(await kindOffMainActor { _ = try injector.getInstance(LoadedModel.self) } == .needsAwait)
        let error = #expect(throws: InjectionError.self) { _ = try injector.getInstance(LoadedModel.self) }
        #expect(error?.kind == .needsAwait)
    }

    @Test("Injector.start off the main actor reads main-actor descriptors there and awaits an eager main-actor singleton")
    func startAwaitsEagerMainActorSingleton() async throws {
        let injector = try await Task.detached {
            try await Injector.start(modules: [FeedModule(counter: #function, feedScope: .eagerSingleton)])
        }.value
        #expect(count(#function) == 1)
        _ = try await injector.instance(FeedModel.self)
        #expect(count(#function) == 1)
    }
}
