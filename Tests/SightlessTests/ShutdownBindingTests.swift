import Sightless
import Testing

private final class CloseLog: Sendable {
    private let entries = Locked<[String]>([])
    func add(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

private enum CloseFailure: Error { case refused }

/// Another library's client: not Closable, closed by its binding.
private final class ForeignClient: Sendable {
    let name: String
    init(name: String) { self.name = name }
    func syncShutdown(_ log: CloseLog) { log.add("client \(name)") }
    func shutdown(_ log: CloseLog) async { log.add("client \(name) awaited") }
}

/// A value type another library hands out, closed by its binding.
private struct ForeignHandle: Sendable {
    let id: Int
}

private final class Pool: Injectable, Closable {
    let log: CloseLog
    init(log: CloseLog) { self.log = log }
    static let initializer = Initializer(Pool.init(log:))
    func close() { log.add("pool") }
}

private final class Cache: Injectable, Closable {
    let log: CloseLog
    let client: ForeignClient
    init(log: CloseLog, client: ForeignClient) {
        self.log = log
        self.client = client
    }
    static let initializer = Initializer(Cache.init(log:client:))
    func close() { log.add("cache") }
}

private struct Visitor: Sendable {
    let name: String
}

@Suite("Closing values by their binding")
struct ShutdownBindingTests {
    @Test("a binding's closer closes its singleton once, at shutdown")
    func closerRunsOnce() throws {
        let log = CloseLog()
        let injector = try Injector(Bindings { binder in
            binder.bind(ForeignClient.self).to { _ in ForeignClient(name: "a") }.in(.singleton).onShutdown { client in
                client.syncShutdown(log)
            }
        })
        _ = try injector.getInstance(ForeignClient.self)
        _ = try injector.getInstance(ForeignClient.self)
        #expect(log.all.isEmpty)
        try injector.shutDown()
        try injector.shutDown()
        #expect(log.all == ["client a"])
    }

    @Test("a binding's closer runs in reverse order of construction among Closable values")
    func closerInConstructionOrder() throws {
        let log = CloseLog()
        let injector = try Injector(Bindings { binder in
            binder.bind(CloseLog.self).to(instance: log)
            binder.bind(Pool.self).in(.singleton)
            binder.bind(ForeignClient.self).to { resolver in
                _ = try resolver.getInstance(Pool.self)
                return ForeignClient(name: "a")
            }.in(.singleton).onShutdown { client in client.syncShutdown(log) }
            binder.bind(Cache.self).in(.singleton)
        })
        _ = try injector.getInstance(Cache.self)   // the pool, then the client, then the cache
        try injector.shutDown()
        #expect(log.all == ["cache", "client a", "pool"])
    }

    @Test("a template's closer closes each child's own value when that child shuts down")
    func perChildValues() throws {
        let log = CloseLog()
        let app = try Injector(modules: [])
        let requests = try app.childTemplate(providing: Visitor.self) { binder in
            binder.bind(ForeignClient.self).to { resolver in
                ForeignClient(name: try resolver.getInstance(Visitor.self).name)
            }.in(.singleton).onShutdown { client in client.syncShutdown(log) }
        }
        let ada = try requests.child(Visitor(name: "ada"))
        let grace = try requests.child(Visitor(name: "grace"))
        _ = try ada.getInstance(ForeignClient.self)
        _ = try grace.getInstance(ForeignClient.self)
        try grace.shutDown()
        #expect(log.all == ["client grace"])
        try requests.withChild(Visitor(name: "alan")) { child in _ = try child.getInstance(ForeignClient.self) }
        #expect(log.all == ["client grace", "client alan"])
        try app.shutDown()
        #expect(log.all == ["client grace", "client alan", "client ada"])
    }

    @Test("a closer's error is reported as closeFailed, and the other values are closed all the same")
    func closerErrorReported() throws {
        let log = CloseLog()
        let injector = try Injector(Bindings { binder in
            binder.bind(CloseLog.self).to(instance: log)
            binder.bind(Pool.self).in(.singleton)
            binder.bind(ForeignClient.self).to { _ in ForeignClient(name: "a") }.in(.singleton).onShutdown { _ in
                throw CloseFailure.refused
            }
        })
        _ = try injector.getInstance(Pool.self)
        _ = try injector.getInstance(ForeignClient.self)
        let error = #expect(throws: InjectionError.self) { try injector.shutDown() }
        #expect(error?.kind == .closeFailed)
        #expect(error?.problems.first?.underlying as? CloseFailure == .refused)
        #expect(log.all == ["pool"])
    }

    @Test("a closer on an unscoped binding is a scopeConflict when the injector is built")
    func closerOnUnscopedBinding() throws {
        let error = #expect(throws: InjectionError.self) {
            try Injector(Bindings { binder in
                binder.bind(ForeignClient.self).to { _ in ForeignClient(name: "a") }.in(.unscoped).onShutdown { _ in }
            })
        }
        #expect(error?.kind == .scopeConflict)
        guard case .closerNotKept(let key, let scope)? = error?.problems.first?.detail else {
            Issue.record("expected closerNotKept, got \(String(describing: error))")
            return
        }
        #expect(key == AnyKey(Key<ForeignClient>()))
        #expect(scope == "unscoped")
        #expect(error?.description.contains(".in(.singleton).onShutdown") == true)
    }

    @Test("a closer on a per-request binding is a scopeConflict too")
    func closerOnPerRequestBinding() throws {
        let error = #expect(throws: InjectionError.self) {
            try Injector(Bindings { binder in
                binder.bind(CloseLog.self).to(instance: CloseLog())
                binder.bind(Pool.self).in(.perRequest).onShutdown { _ in }
            })
        }
        #expect(error?.kind == .scopeConflict)
    }

    @Test("a closer takes the place of a Closable value's own close()")
    func closerReplacesClose() throws {
        let log = CloseLog()
        let injector = try Injector(Bindings { binder in
            binder.bind(CloseLog.self).to(instance: log)
            binder.bind(Pool.self).in(.singleton).onShutdown { pool in pool.log.add("pool by binding") }
        })
        _ = try injector.getInstance(Pool.self)
        try injector.shutDown()
        #expect(log.all == ["pool by binding"])
    }

    @Test("an object kept by a singleton alias too is closed once, by its binding's closer")
    func aliasClosedOnceByCloser() throws {
        let log = CloseLog()
        let injector = try Injector(Bindings { binder in
            binder.bind(CloseLog.self).to(instance: log)
            binder.bind(Pool.self).in(.singleton).onShutdown { pool in pool.log.add("pool by binding") }
            binder.bind(Key<Pool>(named: "main")).to(Pool.self).in(.singleton)
        })
        _ = try injector.getInstance(Key<Pool>(named: "main"))
        try injector.shutDown()
        #expect(log.all == ["pool by binding"])
    }

    @Test("a closer closes a value type kept as a singleton")
    func closerOfValueType() throws {
        let log = CloseLog()
        let injector = try Injector(Bindings { binder in
            binder.bind(ForeignHandle.self).to { _ in ForeignHandle(id: 7) }.in(.eagerSingleton).onShutdown { handle in
                log.add("handle \(handle.id)")
            }
        })
        try injector.shutDown()
        #expect(log.all == ["handle 7"])
    }

    @Test("an awaiting closer runs in awaitShutDown, in order with the others")
    func awaitingCloser() async throws {
        let log = CloseLog()
        let injector = try Injector(Bindings { binder in
            binder.bind(CloseLog.self).to(instance: log)
            binder.bind(Pool.self).in(.singleton)
            binder.bind(ForeignClient.self).to { resolver in
                _ = try resolver.getInstance(Pool.self)
                return ForeignClient(name: "a")
            }.in(.singleton).onShutdown { client async throws in await client.shutdown(log) }
        })
        _ = try injector.getInstance(ForeignClient.self)
        try await injector.awaitShutDown()
        #expect(log.all == ["client a awaited", "pool"])
    }

    @Test("the synchronous shutDown leaves a value whose closer awaits open, as it leaves an AsyncClosable")
    func synchronousShutDownLeavesAwaitingCloser() throws {
        let log = CloseLog()
        let injector = try Injector(Bindings { binder in
            binder.bind(ForeignClient.self).to { _ in ForeignClient(name: "a") }.in(.singleton).onShutdown { client async in
                await client.shutdown(log)
            }
        })
        _ = try injector.getInstance(ForeignClient.self)
        try injector.shutDown()
        #expect(log.all.isEmpty)
    }

    @Test("a closer closes a singleton built with await")
    func closerOfAwaitedSingleton() async throws {
        let log = CloseLog()
        let injector = try Injector(Bindings { binder in
            binder.bind(ForeignClient.self).to { _ async in ForeignClient(name: "awaited") }.in(.singleton)
                .onShutdown { client in client.syncShutdown(log) }
        })
        _ = try await injector.instance(ForeignClient.self)
        try await injector.awaitShutDown()
        #expect(log.all == ["client awaited"])
    }

    @Test("a closer closes a template child's singleton built with await, when the child's scope ends")
    func closerOfAwaitedPerChildSingleton() async throws {
        let log = CloseLog()
        let app = try Injector(modules: [])
        let requests = try app.childTemplate(providing: Visitor.self) { binder in
            binder.bind(ForeignClient.self).to { resolver async throws in
                ForeignClient(name: try await resolver.instance(Visitor.self).name)
            }.in(.singleton).onShutdown { client async in await client.shutdown(log) }
        }
        try await requests.withChild(Visitor(name: "ada")) { child in
            _ = try await child.instance(ForeignClient.self)
        }
        #expect(log.all == ["client ada awaited"])
    }
}
