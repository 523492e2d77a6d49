import Sightless
import Testing

private final class ShutdownLog: Sendable {
    private let entries = Locked<[String]>([])
    func add(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

private enum ShutdownFailure: Error { case stuck }

private final class ShutdownPool: Injectable, Closable {
    let log: ShutdownLog
    init(log: ShutdownLog) { self.log = log }
    static let initializer = Initializer(ShutdownPool.init(log:))
    func close() throws { log.add("pool") }
}

private final class ShutdownCache: Injectable, Closable {
    let log: ShutdownLog
    let pool: ShutdownPool
    init(log: ShutdownLog, pool: ShutdownPool) {
        self.log = log
        self.pool = pool
    }
    static let initializer = Initializer(ShutdownCache.init(log:pool:))
    func close() throws { log.add("cache") }
}

private final class ShutdownStuck: Injectable, Closable {
    static let initializer = Initializer(ShutdownStuck.init)
    func close() throws { throw ShutdownFailure.stuck }
}

private final class ShutdownSession: Injectable, Closable {
    let log: ShutdownLog
    init(log: ShutdownLog) { self.log = log }
    static let initializer = Initializer(ShutdownSession.init(log:))
    func close() throws { log.add("session") }
}

@Suite("Shutdown")
struct ShutdownTests {
    private func module(_ log: ShutdownLog) -> Bindings {
        Bindings { binder in
            binder.bind(ShutdownLog.self).to(instance: log)
            binder.bind(ShutdownPool.self).in(.singleton)
            binder.bind(ShutdownCache.self).in(.singleton)
        }
    }

    @Test("shutdown closes kept values in reverse order of creation")
    func reverseOrder() throws {
        let log = ShutdownLog()
        let injector = try Injector(module(log))
        _ = try injector.getInstance(ShutdownCache.self)   // builds the pool first, then the cache
        try injector.shutDown()
        #expect(log.all == ["cache", "pool"])
    }

    @Test("shutdown closes each value exactly once under concurrent calls")
    func exactlyOnce() throws {
        let log = ShutdownLog()
        let injector = try Injector(module(log))
        _ = try injector.getInstance(ShutdownCache.self)
        race(threads: 8) { _ in _ = try? injector.shutDown() }
        #expect(log.all.sorted() == ["cache", "pool"])
    }

    @Test("an object kept by two scopes (a singleton and a singleton alias of it) is closed once")
    func sharedObjectClosedOnce() throws {
        let log = ShutdownLog()
        let injector = try Injector(modules: [module(log), Bindings { binder in
            binder.bind(Key<ShutdownPool>(named: "main")).to(ShutdownPool.self).in(.singleton)
        }])
        #expect(try injector.getInstance(Key<ShutdownPool>(named: "main")) === (try injector.getInstance(ShutdownPool.self)))
        try injector.shutDown()
        #expect(log.all == ["pool"])
    }

    @Test("a close that throws is reported, and the others are closed all the same")
    func failuresCollected() throws {
        let log = ShutdownLog()
        let injector = try Injector(modules: [module(log), Bindings { $0.bind(ShutdownStuck.self).in(.singleton) }])
        _ = try injector.getInstance(ShutdownCache.self)
        _ = try injector.getInstance(ShutdownStuck.self)
        let error = #expect(throws: InjectionError.self) { try injector.shutDown() }
        #expect(error?.kind == .closeFailed)
        #expect(error?.underlying is ShutdownFailure)
        #expect(log.all == ["cache", "pool"])
    }

    @Test("a request after shutdown is an error")
    func requestAfterShutdown() throws {
        let injector = try Injector(module(ShutdownLog()))
        _ = try injector.getInstance(ShutdownPool.self)
        try injector.shutDown()
        let error = #expect(throws: InjectionError.self) { _ = try injector.getInstance(ShutdownPool.self) }
        guard case .injectorShutDown(let key)? = error?.problems.first?.detail else {
            Issue.record("expected injectorShutDown, got \(String(describing: error))")
            return
        }
        #expect(key == Key<ShutdownPool>().erased)
    }

    @Test("a child shuts down its own values without touching its parent's")
    func childLeavesParent() throws {
        let log = ShutdownLog()
        let parent = try Injector(module(log))
        let child = try parent.child { $0.bind(ShutdownSession.self).in(.singleton) }
        _ = try child.getInstance(ShutdownSession.self)
        _ = try child.getInstance(ShutdownCache.self)   // the parent's singleton, built through the child
        try child.shutDown()
        #expect(log.all == ["session"])
        #expect(try parent.getInstance(ShutdownCache.self).pool === (try parent.getInstance(ShutdownPool.self)))
        try parent.shutDown()
        #expect(log.all == ["session", "cache", "pool"])
    }
}
