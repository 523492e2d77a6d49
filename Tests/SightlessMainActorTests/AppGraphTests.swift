import Sightless
import Testing

@Suite("An app with default main-actor isolation")
struct AppGraphTests {
    @Test("view models, services and a protocol binding are built and awaited from the main actor")
    func buildsFromMainActor() async throws {
        let injector = try Injector(modules: [AppModule()])
        let app = try await injector.instance(AppModel.self)
        app.feed.load()
        #expect(app.feed.headlines == ["Swift 6.3 released"])
        #expect(app.detail.title == "Inbox")
    }

    @Test("a main-actor singleton is built once and shared by every request")
    func mainActorSingletonOnce() async throws {
        let injector = try Injector(modules: [AppModule()])
        let first = try await injector.instance(AppModel.self)
        let second = try await injector.instance(AppModel.self)
        #expect(first !== second)
        #expect(first.feed === second.feed)
        first.feed.settings.pageSize = 2
        second.feed.load()
        #expect(second.feed.headlines.count == 2)
    }

    @Test("a detached task builds an injector from the app's nonisolated list of modules")
    func nonisolatedModules() async throws {
        let region = try await Task.detached {
            try Injector(modules: appModules).getInstance(Key<String>(named: "region"))
        }.value
        #expect(region == "eu")
    }

    @Test("a detached task awaits the same main-actor singleton")
    func requestedFromDetachedTask() async throws {
        let injector = try Injector(modules: [AppModule()])
        let fromMain = try await injector.instance(FeedViewModel.self)
        let fromDetached = try await Task.detached { try await injector.instance(FeedViewModel.self) }.value
        #expect(fromMain === fromDetached)
    }

    @Test("a main-actor value requested synchronously is a needsAwait error")
    func synchronousRequestNeedsAwait() throws {
        let injector = try Injector(modules: [AppModule()])
        let error = #expect(throws: InjectionError.self) { _ = try injector.getInstance(AppModel.self) }
        #expect(error?.kind == .needsAwait)
    }

    @Test("an Injectable service of the app target is built synchronously")
    func injectableServiceSynchronous() throws {
        let injector = try Injector(modules: [AppModule()])
        #expect(try injector.getInstance(Settings.self) === injector.getInstance(Settings.self))
    }
}
