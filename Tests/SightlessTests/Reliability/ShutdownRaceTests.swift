#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Sightless
import Synchronization
import Testing

// `shutDown()` on one thread while others make requests of every kind: each request must return
// a right value or throw `injectorShutDown`, and each kept value be closed at most once.

private enum Racing {
    final class Closes: Sendable {
        let built = Atomic<Int>(0)
        let closed = Atomic<Int>(0)
        let closedTwice = Atomic<Int>(0)
    }

    static let closes = Closes()

    /// A kept value that counts its closes.
    final class Resource: Injectable, Closable, @unchecked Sendable {
        private let closedOnce = Atomic<Bool>(false)
        init() { Racing.closes.built.add(1, ordering: .relaxed) }
        func close() throws {
            if closedOnce.exchange(true, ordering: .acquiringAndReleasing) {
                Racing.closes.closedTwice.add(1, ordering: .relaxed)
            }
            Racing.closes.closed.add(1, ordering: .relaxed)
        }
        static let initializer = Initializer(Resource.init)
        static let scope = Scope.singleton
    }

    final class User: Injectable {
        let resource: Resource
        let id: Int
        init(resource: Resource, id: Int) { self.resource = resource; self.id = id }
        static let initializer = Initializer(User.init(resource:id:), .inject, .dynamic)
    }

    final class Plain: Injectable {
        init() {}
        static let initializer = Initializer(Plain.init)
    }

    /// A distinct unbound type per depth, compiled on its first request.
    final class Nest<Inner>: Injectable {
        init() {}
        static var initializer: Initializer<Nest> { Initializer(Nest.init) }
    }

    static let slowStarted = Atomic<Bool>(false)
    static let slowMayFinish = Atomic<Bool>(false)
    static let slowClosed = Atomic<Int>(0)

    /// A kept value whose initializer waits until the test lets it finish.
    final class Slow: Injectable, Closable, Sendable {
        init() {
            Racing.slowStarted.store(true, ordering: .releasing)
            while !Racing.slowMayFinish.load(ordering: .acquiring) { usleep(1_000) }
        }
        func close() throws { Racing.slowClosed.add(1, ordering: .relaxed) }
        static let initializer = Initializer(Slow.init)
        static let scope = Scope.singleton
    }

    /// A singleton whose initializer shuts its injector down, then asks it for more.
    final class ShutsDown: Injectable {
        init(injector: Injector) throws {
            try injector.shutDown()
            _ = try injector.getInstance(Plain.self)
        }
        static let initializer = Initializer(ShutsDown.init(injector:))
        static let scope = Scope.singleton
    }

    static let closingInjector = RecursionHolder<Injector>()
    static let closingOutcome = Locked<InjectionError.Kind?>(nil)

    /// A kept value whose `close()` asks its injector for more, and shuts it down again.
    final class AsksWhileClosing: Injectable, Closable, Sendable {
        init() {}
        func close() throws {
            let injector = Racing.closingInjector.value
            do {
                _ = try injector?.getInstance(Plain.self)
            } catch {
                Racing.closingOutcome.withLock { $0 = error.kind }
            }
            try injector?.shutDown()
        }
        static let initializer = Initializer(AsksWhileClosing.init)
        static let scope = Scope.singleton
    }

    static func nested(depth: Int, _ injector: Injector) throws {
        func request<Inner>(_ type: Inner.Type, left: Int) throws {
            if left == 0 { _ = try injector.getInstance(Inner.self); return }
            try request(Nest<Inner>.self, left: left - 1)
        }
        try request(Plain.self, left: depth)
    }
}

@Suite("Shutdown racing requests", .serialized)
struct ShutdownRaceTests {
    @Test("requests racing shutDown each return a right value or throw injectorShutDown, and nothing is closed twice")
    func requestsRacingShutdown() throws {
        let unexpected = Locked<[String]>([])
        let refused = Atomic<Int>(0)
        for round in 0..<40 {
            let injector = try Injector(modules: [])
            let child = try injector.child { _ in }
            let factory = try injector.getInstance(Factory<Racing.User, Int>.self)
            let lazy = try injector.getInstance(Lazy<Racing.Plain>.self)
            race(threads: 6) { thread in
                if thread == 0 {
                    for _ in 0..<(round % 5) { sched_yield() }
                    do { try injector.shutDown() } catch { unexpected.withLock { $0.append("shutDown: \(error)") } }
                    return
                }
                for step in 0..<30 {
                    do {
                        switch (thread + step) % 6 {
                        case 0: _ = try injector.getInstance(Racing.Resource.self)
                        case 1:
                            let user = try injector.getInstance(Racing.User.self, arguments: step)
                            if user.id != step { unexpected.withLock { $0.append("user \(user.id) for \(step)") } }
                        case 2:
                            let user = try factory.make(step)
                            if user.id != step { unexpected.withLock { $0.append("made \(user.id) for \(step)") } }
                        case 3: _ = try lazy.get()
                        case 4: try Racing.nested(depth: (round + step) % 9, injector)
                        default: _ = try child.getInstance(Racing.Resource.self)
                        }
                    } catch let error as InjectionError where error.kind == .injectorShutDown {
                        refused.add(1, ordering: .relaxed)
                    } catch {
                        unexpected.withLock { $0.append("\(error)") }
                    }
                }
            }
            try injector.shutDown()
            try child.shutDown()
        }
        #expect(unexpected.withLock { $0 }.isEmpty, "\(unexpected.withLock { $0 })")
        #expect(Racing.closes.closedTwice.load(ordering: .relaxed) == 0)
        #expect(Racing.closes.closed.load(ordering: .relaxed) <= Racing.closes.built.load(ordering: .relaxed))
        // Some requests came after the shutdown (each round's workers outlast a shutDown that
        // starts at once).
        #expect(refused.load(ordering: .relaxed) > 0)
    }

    @Test("a singleton whose build straddles shutDown is closed once, by its build, whose request throws injectorShutDown")
    func buildStraddlingShutdown() throws {
        let injector = try Injector(modules: [])
        let outcome = Locked<String>("")
        let thread = startThread(stackSize: 1 << 20, detached: false) {
            do {
                _ = try injector.getInstance(Racing.Slow.self)
                outcome.withLock { $0 = "value" }
            } catch let error as InjectionError {
                outcome.withLock { $0 = "\(error.kind)" }
            } catch {
                outcome.withLock { $0 = "\(error)" }
            }
        }
        while !Racing.slowStarted.load(ordering: .acquiring) { usleep(1_000) }
        try injector.shutDown()
        Racing.slowMayFinish.store(true, ordering: .releasing)
        #if canImport(Darwin)
        if let thread { pthread_join(thread, nil) }
        #else
        pthread_join(thread, nil)
        #endif
        try injector.shutDown()
        // Built after shutDown sealed the kept values: not stored, not handed out, and closed by
        // the request that built it, once.
        #expect(Racing.slowClosed.load(ordering: .relaxed) == 1, "closed \(Racing.slowClosed.load(ordering: .relaxed)) times")
        #expect(outcome.withLock { $0 } == "\(InjectionError.Kind.injectorShutDown)")
    }

    @Test("an initializer that shuts its injector down and then asks it for more gets injectorShutDown")
    func shutDownInsideBuild() throws {
        let injector = try Injector(modules: [])
        let error = #expect(throws: InjectionError.self) { try injector.getInstance(Racing.ShutsDown.self) }
        #expect(error?.kind == .injectorShutDown)
        #expect(throws: InjectionError.self) { try injector.getInstance(Racing.Plain.self) }
    }

    @Test("a close() that asks its injector for more gets injectorShutDown, and one that shuts it down again returns")
    func requestInsideClose() throws {
        let injector = try Injector(modules: [])
        Racing.closingInjector.value = injector
        defer { Racing.closingInjector.value = nil }
        _ = try injector.getInstance(Racing.AsksWhileClosing.self)
        try injector.shutDown()
        #expect(Racing.closingOutcome.withLock { $0 } == .injectorShutDown)
    }
}
