import Sightless
import Testing

private final class Audited: Injectable, @unchecked Sendable {
    let pool: DatabasePool
    var api: (any Api)?
    var awoken = false
    init(pool: DatabasePool) async { self.pool = pool }
    static let initializer = Initializer(Audited.init(pool:))
    static var properties: Properties<Audited> { Properties<Audited>().inject(\.api) }
    func awakeFromInjection() { awoken = api != nil }
}

private final class MaybePool: Injectable, Sendable {
    let pool: DatabasePool?
    init(pool: DatabasePool?) { self.pool = pool }
    static let initializer = Initializer(MaybePool.init(pool:))
}

private final class OpenedStore: Injectable, Sendable {
    init() async {}
    static let initializer = Initializer(OpenedStore.init)
    static var scope: Scope { .singleton }
}

private final class OpenedIndex: Injectable, Sendable {
    init() async {}
    static let initializer = Initializer(OpenedIndex.init)
    static var scope: Scope { .singleton }
}

/// Needs two singletons that open with `await`, through one that needs nothing else.
private final class SearchHandler: Injectable, Sendable {
    let query: SearchQuery
    let index: OpenedIndex
    init(query: SearchQuery, index: OpenedIndex) {
        self.query = query
        self.index = index
    }
    static let initializer = Initializer(SearchHandler.init(query:index:))
}

private final class SearchQuery: Injectable, Sendable {
    let store: OpenedStore
    init(store: OpenedStore) { self.store = store }
    static let initializer = Initializer(SearchQuery.init(store:))
}

private struct DatabasePoolProvider: AsyncProvider {
    func provide(_ resolver: Resolver) async throws -> DatabasePool {
        try await DatabasePool(url: "provided:" + resolver.getInstance(Key<String>(named: "databaseURL")))
    }
}

private final class Inbox: Injectable, Sendable {
    let sessions: Factory<UserSession, String>
    let pool: Lazy<DatabasePool>
    init(sessions: Factory<UserSession, String>, pool: Lazy<DatabasePool>) {
        self.sessions = sessions
        self.pool = pool
    }
    static let initializer = Initializer(Inbox.init(sessions:pool:))
}

@Suite("Async construction")
struct AsyncConstructionTests {
    @Test("an async initializer is awaited by an awaited request")
    func asyncInitializer() async throws {
        let injector = try Injector(asyncBindings())
        let pool = try await injector.instance(DatabasePool.self)
        #expect(pool.url == "postgres://db")
    }

    @Test("a synchronous type that needs an awaited dependency is built by an awaited request")
    func synchronousConsumer() async throws {
        let injector = try Injector(asyncBindings())
        let service = try await injector.instance(ReportService.self)
        #expect(service.repository.pool.url == "postgres://db")
        #expect(service.api.name == "http")
    }

    @Test("an async static factory with a dynamic slot takes the request's arguments")
    func asyncFactoryWithArguments() async throws {
        let injector = try Injector(asyncBindings())
        let session = try await injector.instance(UserSession.self, arguments: "ada")
        #expect(session.user == "ada")
        #expect(session.pool.url == "postgres://db")
    }

    @Test("an awaited request with the wrong arguments names them")
    func wrongArguments() async throws {
        let injector = try Injector(asyncBindings())
        let error = await #expect(throws: InjectionError.self) { _ = try await injector.instance(UserSession.self, arguments: 42) }
        #expect(error?.kind == .argumentType)
    }

    @Test("an async closure binding is awaited")
    func asyncClosure() async throws {
        let injector = try Injector(Bindings { binder in
            binder.bind(Key<DatabasePool>(named: "replica")).to { _ async throws in try await DatabasePool(url: "replica") }
        })
        #expect(try await injector.instance(Key<DatabasePool>(named: "replica")).url == "replica")
    }

    @Test("an async provider is awaited, and may resolve through its resolver")
    func asyncProvider() async throws {
        let injector = try Injector(asyncBindings { $0.bind(Key<DatabasePool>(named: "provided")).to(provider: DatabasePoolProvider()) })
        #expect(try await injector.instance(Key<DatabasePool>(named: "provided")).url == "provided:postgres://db")
    }

    @Test("an async closure may await other keys through its resolver")
    func closureAwaitsResolver() async throws {
        let injector = try Injector(asyncBindings { binder in
            binder.bind(Key<String>(named: "summary")).to { resolver async throws in
                let repository = try await resolver.instance(RecordStore.self)
                return "repository on " + repository.pool.url
            }
        })
        #expect(try await injector.instance(Key<String>(named: "summary")) == "repository on postgres://db")
    }

    @Test("an async closure that awaits its own key is a cycle, not a hang")
    func closureAwaitsItself() async throws {
        let injector = try Injector(Bindings { binder in
            binder.bind(Key<Int>(named: "self")).to { resolver async throws in
                try await resolver.instance(Key<Int>(named: "self")) + 1
            }
        })
        let error = await #expect(throws: InjectionError.self) { _ = try await injector.instance(Key<Int>(named: "self")) }
        #expect(error?.kind == .cyclicDependency)
    }

    @Test("an async initializer's properties are set and awakeFromInjection runs after it returns")
    func propertiesAfterAsyncInitializer() async throws {
        let injector = try Injector(asyncBindings())
        let audited = try await injector.instance(Audited.self)
        #expect(audited.api?.name == "http")
        #expect(audited.awoken)
    }

    @Test("an optional dependency on an awaited type is awaited")
    func optionalAwaited() async throws {
        let injector = try Injector(asyncBindings())
        #expect(try await injector.instance(MaybePool.self).pool?.url == "postgres://db")
    }

    @Test("an awaited request of a synchronous type builds it synchronously")
    func awaitedRequestOfSynchronousType() async throws {
        let injector = try Injector(modules: [])
        let garage = try await injector.instance(Garage.self)
        _ = garage
        let house = try await injector.instance(Key<Int?>())
        #expect(house == nil)
    }

    @Test("an async initializer that throws is reported as initializerFailed with its path")
    func asyncInitializerThrows() async throws {
        let injector = try Injector(Bindings { binder in
            binder.bind(DatabasePool.self).to { _ async throws -> DatabasePool in throw OpenError.refused("pool") }
        })
        let error = await #expect(throws: InjectionError.self) { _ = try await injector.instance(RecordStore.self) }
        #expect(error?.kind == .initializerFailed)
        #expect(error?.problems.first?.path == [Key<RecordStore>().erased, Key<DatabasePool>().erased])
    }

    @Test("a Factory and a Lazy of an awaited type are awaited with instance(…) and value")
    func deferredAwaited() async throws {
        let injector = try Injector(asyncBindings())
        let inbox = try injector.getInstance(Inbox.self)   // nothing awaited yet: both are deferred
        #expect(try await inbox.sessions.instance("grace").user == "grace")
        let first = try await inbox.pool.value
        let second = try await inbox.pool.value
        #expect(first === second)
    }
}

@Suite("Needs await")
struct NeedsAwaitTests {
    @Test("a synchronous request of an async type is a needsAwait error naming it")
    func synchronousRequestOfAsyncType() throws {
        let injector = try Injector(asyncBindings())
        let error = #expect(throws: InjectionError.self) { _ = try injector.getInstance(DatabasePool.self) }
        #expect(error?.kind == .needsAwait)
        guard case .needsAwait(let key, let awaited)? = error?.problems.first?.detail else {
            Issue.record("expected needsAwait, got \(String(describing: error))")
            return
        }
        #expect(key == Key<DatabasePool>().erased)
        #expect(awaited == Key<DatabasePool>().erased)
    }

    @Test("a synchronous request of a type that needs an awaited dependency names the dependency")
    func synchronousRequestOfConsumer() throws {
        let injector = try Injector(asyncBindings())
        let error = #expect(throws: InjectionError.self) { _ = try injector.getInstance(ReportService.self) }
        guard case .needsAwait(let key, let awaited)? = error?.problems.first?.detail else {
            Issue.record("expected needsAwait, got \(String(describing: error))")
            return
        }
        #expect(key == Key<ReportService>().erased)
        #expect(awaited == Key<DatabasePool>().erased)
        #expect(error?.problems.first?.fix.contains("try await injector.instance(ReportService.self)") == true)
    }

    @Test("a synchronous make(…) of a Factory of an async type is a needsAwait error")
    func synchronousFactory() throws {
        let injector = try Injector(asyncBindings())
        let inbox = try injector.getInstance(Inbox.self)
        let error = #expect(throws: InjectionError.self) { _ = try inbox.sessions.make("ada") }
        #expect(error?.kind == .needsAwait)
        let lazy = #expect(throws: InjectionError.self) { _ = try inbox.pool.get() }
        #expect(lazy?.kind == .needsAwait)
    }

    @Test("a synchronous request of an async singleton reads it once it was awaited")
    func synchronousReadOfAwaitedSingleton() async throws {
        let injector = try Injector(asyncBindings { $0.bind(DatabasePool.self).in(.singleton) })
        #expect(throws: InjectionError.self) { _ = try injector.getInstance(DatabasePool.self) }
        let awaited = try await injector.instance(DatabasePool.self)
        #expect(try injector.getInstance(DatabasePool.self) === awaited)
        #expect(try injector.getInstance(RecordStore.self).pool === awaited)
    }

    @Test("a synchronous request through plain types over an unbuilt async singleton builds none of them, and all of them once it is stored")
    func nothingBuiltBeforeTheLeafIsStored() async throws {
        let built = Locked(0)
        let injector = try Injector(asyncBindings { binder in
            binder.bind(DatabasePool.self).in(.singleton)
            binder.bind(Tally.self).to { _ in
                built.withLock { $0 += 1 }
                return Tally()
            }
        })
        let error = #expect(throws: InjectionError.self) { _ = try injector.getInstance(TalliedReport.self) }
        guard case .needsAwait(let key, let awaited)? = error?.problems.first?.detail else {
            Issue.record("expected needsAwait, got \(String(describing: error))")
            return
        }
        #expect(key == Key<TalliedReport>().erased && awaited == Key<DatabasePool>().erased)
        #expect(built.withLock { $0 } == 0)
        let pool = try await injector.instance(DatabasePool.self)
        let report = try injector.getInstance(TalliedReport.self)
        #expect(report.store.pool === pool)
        #expect(built.withLock { $0 } == 1)
    }

    @Test("a synchronous request of a type over two async singletons builds only once both are stored")
    func synchronousRequestOnceEveryLeafIsStored() async throws {
        let injector = try Injector(modules: [])
        #expect(throws: InjectionError.self) { _ = try injector.getInstance(SearchHandler.self) }
        let store = try await injector.instance(OpenedStore.self)
        let error = #expect(throws: InjectionError.self) { _ = try injector.getInstance(SearchHandler.self) }
        #expect(error?.kind == .needsAwait)
        let index = try await injector.instance(OpenedIndex.self)
        let handler = try injector.getInstance(SearchHandler.self)
        #expect(handler.query.store === store && handler.index === index)
    }

    @Test("an eager singleton that needs await fails a synchronously built injector at once")
    func eagerAwaitedInSynchronousInjector() throws {
        let error = #expect(throws: InjectionError.self) {
            _ = try Injector(asyncBindings { $0.bind(RecordStore.self).in(.eagerSingleton) })
        }
        guard case .needsAwait(let key, let awaited)? = error?.problems.first?.detail else {
            Issue.record("expected needsAwait, got \(String(describing: error))")
            return
        }
        #expect(key == Key<RecordStore>().erased)
        #expect(awaited == Key<DatabasePool>().erased)
    }

    @Test("an awaited value in a scope that cannot keep it is reported when the injector is built")
    func awaitedInWeakScope() throws {
        let error = #expect(throws: InjectionError.self) { _ = try Injector(asyncBindings { $0.bind(DatabasePool.self).in(.weak) }) }
        guard case .awaitedInScope(let key, let scope, _)? = error?.problems.first?.detail else {
            Issue.record("expected awaitedInScope, got \(String(describing: error))")
            return
        }
        #expect(key == Key<DatabasePool>().erased)
        #expect(scope == "weak")
        #expect(error?.kind == .scopeConflict)
    }
}

/// Built by a closure that counts its builds.
private final class Tally: Sendable {}

/// A tally, built first, and a store over the async pool: a plain type two levels above it.
private final class TalliedReport: Injectable, Sendable {
    let tally: Tally
    let store: RecordStore
    init(tally: Tally, store: RecordStore) {
        self.tally = tally
        self.store = store
    }
    static let initializer = Initializer(TalliedReport.init(tally:store:))
}
