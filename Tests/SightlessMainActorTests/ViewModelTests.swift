import Sightless
import Testing

@Suite("Main-actor view models")
struct ViewModelTests {
    @Test("an explicit @MainActor view model is requested synchronously on the main actor")
    func synchronousOnMainActor() throws {
        let injector = try Injector(modules: [SyncApiModule()])
        let model = try injector.getInstance(InboxViewModel.self)
        model.load()
        #expect(model.headlines == ["Local news"])
        #expect(model.awoken)
    }

    @Test("a view model with creation-time arguments is built synchronously on the main actor")
    func dynamicArguments() throws {
        let injector = try Injector(modules: [SyncApiModule()])
        let session = try injector.getInstance(SessionViewModel.self, arguments: "ada")
        #expect(session.user == "ada")
    }

    @Test("a main-actor singleton declared by its type is built once")
    func singletonOnce() throws {
        let injector = try Injector(modules: [])
        #expect(try injector.getInstance(ShellViewModel.self) === injector.getInstance(ShellViewModel.self))
    }

    @Test("a view model that needs an awaited dependency is awaited on the main actor")
    func awaitedDependency() async throws {
        let injector = try Injector(modules: [ViewModelModule()])
        let model = try await injector.instance(InboxViewModel.self)
        model.load()
        #expect(model.headlines.count == 2)
    }

    @Test("a detached task awaits a view model, built on the main actor")
    func fromDetachedTask() async throws {
        let injector = try Injector(modules: [SyncApiModule()])
        let shell = try await Task.detached { try await injector.instance(ShellViewModel.self) }.value
        #expect(shell === (try injector.getInstance(ShellViewModel.self)))
    }

    @Test("a detached task's synchronous request of a view model is an offActor error")
    func synchronousFromDetachedTask() async throws {
        let injector = try Injector(modules: [SyncApiModule()])
        let kind = await Task.detached { () -> InjectionError.Kind? in
            do {
                _ = try injector.getInstance(ShellViewModel.self)
                return nil
            } catch {
                return (error as? InjectionError)?.kind
            }
        }.value
        #expect(kind == .offActor)
    }
}

@Suite("View models isolated by default")
struct DefaultIsolatedViewModelTests {
    @Test("a view model isolated by the target's default conforms with nothing written and is built synchronously")
    func defaultIsolatedViewModel() async throws {
        let injector = try Injector(modules: [])
        let model = try injector.getInstance(SearchViewModel.self)
        model.query = "swift"
        let kind = await Task.detached { () -> InjectionError.Kind? in
            do {
                _ = try injector.getInstance(SearchViewModel.self)
                return nil
            } catch {
                return (error as? InjectionError)?.kind
            }
        }.value
        #expect(kind == .offActor)   // so it is isolated to the main actor, not inferred nonisolated
    }
}

@Suite("Main-actor view models with properties")
struct ViewModelPropertyTests {
    @Test("a main-actor property is injected on the main actor before the view model awakes")
    func propertyInjected() throws {
        let injector = try Injector(modules: [])
        let model = try injector.getInstance(ProfileViewModel.self)
        #expect(model.settings != nil)
        #expect(model.pageSize == 1)
    }

    @Test("a nonisolated class made main-actor-injectable in an extension injects its properties")
    func nonisolatedClassProperties() throws {
        let store = try Injector(modules: []).getInstance(DraftStore.self)
        #expect(store.settings?.pageSize == 1)
        #expect(store.clock != nil)
    }

    @Test("a view model and a struct isolated by default inject properties by type and by key")
    func defaultIsolatedProperties() throws {
        let injector = try Injector(modules: [])
        let model = try injector.getInstance(FilterViewModel.self)
        #expect(model.settings != nil && model.clock != nil)
        let state = try injector.getInstance(FilterState.self)
        #expect(state.settings != nil && state.clock != nil)
    }

    @Test("a detached task awaits a view model whose properties are set on the main actor")
    func propertyInjectedFromDetachedTask() async throws {
        let injector = try Injector(modules: [])
        let model = try await Task.detached { try await injector.instance(ProfileViewModel.self) }.value
        #expect(model.pageSize == 1)
    }
}

@Suite("Main-actor view models awaited with arguments")
struct AwaitedArgumentViewModelTests {
    @Test("a detached task awaits a view model with creation-time arguments, built on the main actor")
    func awaitedWithArguments() async throws {
        let injector = try Injector(modules: [SyncApiModule()])
        let session = try await Task.detached { try await injector.instance(SessionViewModel.self, arguments: "grace") }.value
        #expect(session.user == "grace")
    }
}

@Suite("Regression: an alias takes its target's isolation")
struct AliasIsolationTests {
    @Test("a singleton protocol key bound to a main-actor type builds on the main actor")
    func singletonAliasOfMainActorType() throws {
        let injector = try Injector(modules: [GreetingModule()])
        let api = try injector.getInstance((any GreetingApi).self)
        #expect(api.greeting() == "hello")
        #expect(api as AnyObject === (try injector.getInstance((any GreetingApi).self)) as AnyObject)
    }

    @Test("a singleton protocol key bound to a main-actor type is awaited from a detached task")
    func singletonAliasAwaitedOffActor() async throws {
        let injector = try Injector(modules: [GreetingModule()])
        let first = try await Task.detached {
            ObjectIdentifier(try await injector.instance((any GreetingApi).self) as AnyObject)
        }.value
        #expect(first == ObjectIdentifier(try injector.getInstance((any GreetingApi).self) as AnyObject))
    }
}

@Suite("An alias's isolation in the graph")
struct AliasIsolationExportTests {
    @Test("explain says a protocol key bound to a main-actor type is isolated to the main actor")
    func explainShowsAliasIsolation() throws {
        let injector = try Injector(modules: [GreetingModule()])
        let text = try injector.explain((any GreetingApi).self)
        #expect(text.hasPrefix("GreetingApi — singleton, alias, kept by this injector, isolated to MainActor"), "\(text)")
    }
}
