import Sightless
import Testing

// Whether a kept value closes itself is a question about the instance a scope keeps, asked when
// a shutdown retires it: a subclass that is `Closable` kept under a base class that is not is
// closed, and a value that is both `AsyncClosable` and `Closable` is closed once.

private final class ClosedLog: Sendable {
    private let entries = Locked<[String]>([])
    func add(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

private struct Caller: Sendable {
    let name: String
}

/// A connection that does not close itself; its subclass does.
private class Connection: @unchecked Sendable {
    let log: ClosedLog
    init(log: ClosedLog) { self.log = log }
}

private final class PooledConnection: Connection, Closable, @unchecked Sendable {
    func close() { log.add("pooled connection") }
}

/// Closes with `await` and without: its one `close()` is both forms' requirement.
private final class Channel: Injectable, AsyncClosable, Closable, Sendable {
    let log: ClosedLog
    init(log: ClosedLog) { self.log = log }
    static let initializer = Initializer(Channel.init(log:))
    func close() { log.add("channel") }
}

/// A request's session, kept per child.
private final class CallSession: Injectable, Closable, Sendable {
    let log: ClosedLog
    let caller: Caller
    init(log: ClosedLog, caller: Caller) {
        self.log = log
        self.caller = caller
    }
    static let initializer = Initializer(CallSession.init(log:caller:))
    func close() { log.add("session \(caller.name)") }
}

@Suite("What a shutdown closes is the instance kept")
struct ClosedInstanceTests {
    /// `Connection` bound to a `PooledConnection` (which closes itself) in the singleton scope.
    private func bindPooledConnection(_ binder: Binder) {
        binder.bind(Connection.self).to { resolver in PooledConnection(log: try resolver.getInstance(ClosedLog.self)) }
            .in(.singleton)
    }

    /// A template whose children keep three values, each under a slot of its own.
    private func threeSlotTemplate(_ log: ClosedLog) throws -> ChildTemplate<Caller> {
        let app = try Injector(Bindings { $0.bind(ClosedLog.self).to(instance: log) })
        return try app.childTemplate(providing: Caller.self) { binder in
            binder.bind(CallSession.self).in(.singleton)
            binder.bind(Channel.self).in(.singleton)
            bindPooledConnection(binder)
        }
    }

    @Test("a singleton kept under a base class that is not Closable closes its Closable subclass instance")
    func subclassOfKeptTypeIsClosed() throws {
        let log = ClosedLog()
        let injector = try Injector(Bindings { binder in
            binder.bind(ClosedLog.self).to(instance: log)
            bindPooledConnection(binder)
        })
        _ = try injector.getInstance(Connection.self)
        try injector.shutDown()
        #expect(log.all == ["pooled connection"])
    }

    @Test("a template child's singleton kept under a base class closes its Closable subclass instance")
    func childSubclassOfKeptTypeIsClosed() throws {
        let log = ClosedLog()
        let app = try Injector(Bindings { $0.bind(ClosedLog.self).to(instance: log) })
        let calls = try app.childTemplate(providing: Caller.self) { binder in
            bindPooledConnection(binder)
        }
        let child = try calls.child(Caller(name: "a"))
        #expect(try child.getInstance(Connection.self) === (try child.getInstance(Connection.self)))
        try child.shutDown()
        #expect(log.all == ["pooled connection"])
    }

    @Test("a value both AsyncClosable and Closable is closed once by awaitShutDown")
    func bothFormsClosedOnceAwaited() async throws {
        let log = ClosedLog()
        let injector = try Injector(Bindings { binder in
            binder.bind(ClosedLog.self).to(instance: log)
            binder.bind(Channel.self).in(.singleton)
        })
        _ = try injector.getInstance(Channel.self)
        try await injector.awaitShutDown()
        #expect(log.all == ["channel"])
    }

    @Test("a value both AsyncClosable and Closable is closed once by shutDown")
    func bothFormsClosedOnceSynchronously() throws {
        let log = ClosedLog()
        let injector = try Injector(Bindings { binder in
            binder.bind(ClosedLog.self).to(instance: log)
            binder.bind(Channel.self).in(.singleton)
        })
        _ = try injector.getInstance(Channel.self)
        try injector.shutDown()
        #expect(log.all == ["channel"])
    }

    @Test("a parent's shutdown closes every live template child's per-child singleton, each once")
    func parentShutdownClosesEachChildsSession() throws {
        let log = ClosedLog()
        let app = try Injector(Bindings { $0.bind(ClosedLog.self).to(instance: log) })
        let calls = try app.childTemplate(providing: Caller.self) { $0.bind(CallSession.self).in(.singleton) }
        let children = try ["a", "b", "c"].map { name in try calls.child(Caller(name: name)) }
        for child in children { _ = try child.getInstance(CallSession.self) }
        _ = try calls.child(Caller(name: "unused"))
        try app.shutDown()
        #expect(log.all == ["session c", "session b", "session a"])
        for child in children { try child.shutDown() }
        #expect(log.all.count == 3)
    }

    @Test("a template child that keeps values under several slots closes each of them at its shutdown")
    func childClosesEverySlot() throws {
        let log = ClosedLog()
        let calls = try threeSlotTemplate(log)
        let child = try calls.child(Caller(name: "a"))
        // Reached in another order than declared: each slot is the child's own.
        _ = try child.getInstance(Connection.self)
        _ = try child.getInstance(CallSession.self)
        _ = try child.getInstance(Channel.self)
        try child.shutDown()
        #expect(log.all == ["channel", "session a", "pooled connection"])
    }

    @Test("threads racing on one template child get one instance per kept slot")
    func racingThreadsShareEachSlot() throws {
        let log = ClosedLog()
        let calls = try threeSlotTemplate(log)
        for _ in 0..<20 {
            let child = try calls.child(Caller(name: "shared"))
            let seen = race(threads: 8) { thread -> [ObjectIdentifier] in
                // Each thread reaches the slots in another order.
                let order = thread % 2 == 0 ? [0, 1, 2] : [2, 1, 0]
                return order.compactMap { slot -> ObjectIdentifier? in
                    switch slot {
                    case 0: return (try? child.getInstance(CallSession.self)).map(ObjectIdentifier.init)
                    case 1: return (try? child.getInstance(Channel.self)).map(ObjectIdentifier.init)
                    default: return (try? child.getInstance(Connection.self)).map(ObjectIdentifier.init)
                    }
                }
            }
            #expect(Set(seen.flatMap { $0 }).count == 3)
            #expect(seen.allSatisfy { $0.count == 3 })
            try child.shutDown()
        }
        #expect(log.all.count == 60)
    }

    @Test("a parent's shutdown racing requests of its template children closes every session handed out, once")
    func parentShutdownRacingChildren() throws {
        for round in 0..<10 {
            let log = ClosedLog()
            let app = try Injector(Bindings { $0.bind(ClosedLog.self).to(instance: log) })
            let calls = try app.childTemplate(providing: Caller.self) { $0.bind(CallSession.self).in(.singleton) }
            let children = try (0..<8).map { thread in try calls.child(Caller(name: "\(round)-\(thread)")) }
            let handedOut = race(threads: 9) { thread -> String? in
                if thread == 8 {
                    _ = try? app.shutDown()
                    return nil
                }
                return (try? children[thread].getInstance(CallSession.self)).map { $0.caller.name }
            }
            let closed = log.all
            // Each session handed out was closed, by the shutdown or by its builder, and none twice.
            #expect(Set(closed).count == closed.count)
            for name in handedOut.compactMap({ $0 }) { #expect(closed.contains("session \(name)")) }
        }
    }
}

