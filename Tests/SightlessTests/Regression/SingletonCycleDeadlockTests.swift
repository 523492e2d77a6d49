#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Sightless
import Testing

// Two singletons that need each other, requested from two threads at once:
// each thread held one singleton's build lock and waited for the other's, forever.

private enum Deadlock {
    final class A: Sendable {}
    final class B: Sendable {}

    /// Two closure singletons, each resolving the other after a pause that lets the other
    /// thread take its own lock first.
    static var closureModule: Bindings {
        Bindings { binder in
            binder.bind(A.self).to { resolver in
                usleep(200_000)
                _ = try resolver.getInstance(B.self)
                return A()
            }.in(.singleton)
            binder.bind(B.self).to { resolver in
                usleep(200_000)
                _ = try resolver.getInstance(A.self)
                return B()
            }.in(.singleton)
        }
    }

    final class LazyA: Injectable, Sendable {
        init(b: Lazy<LazyB>) throws {
            usleep(200_000)
            _ = try b.get()
        }
        static let initializer = Initializer(LazyA.init(b:))
    }

    final class LazyB: Injectable, Sendable {
        init(a: Lazy<LazyA>) throws {
            usleep(200_000)
            _ = try a.get()
        }
        static let initializer = Initializer(LazyB.init(a:))
    }

    static var lazyModule: Bindings {
        Bindings { binder in
            binder.bind(LazyA.self).in(.singleton)
            binder.bind(LazyB.self).in(.singleton)
        }
    }

    static let watchdog = 20.0

    /// Both threads ended within the watchdog, each with a value or a cycle error, and not both
    /// with a value (they cannot both be built: each needs the other first).
    static func check(_ outcomes: [RegressionOutcome]) {
        for (thread, outcome) in outcomes.enumerated() {
            if outcome.timedOut {
                Issue.record("thread \(thread) did not finish within \(Int(watchdog)) s: deadlock")
            } else if !outcome.returned && outcome.error?.kind != .cyclicDependency {
                Issue.record("thread \(thread): expected a value or a cyclicDependency, got \(outcome)")
            }
        }
        #expect(outcomes.contains { $0.error?.kind == .cyclicDependency }, "\(outcomes)")
    }
}

@Suite("Regression: singleton cycles under contention")
struct RegressionSingletonCycleDeadlockTests {
    @Test("two closure singletons that need each other, requested from two threads at once, end in cyclicDependency, not a deadlock")
    func closureSingletonCycleFromTwoThreads() throws {
        let injector = try Injector(Deadlock.closureModule)
        let outcomes = regressionRunAll(count: 2, timeout: Deadlock.watchdog) { thread in
            if thread == 0 { _ = try injector.getInstance(Deadlock.A.self) } else { _ = try injector.getInstance(Deadlock.B.self) }
        }
        Deadlock.check(outcomes)
    }

    @Test("two singletons that need each other through Lazy, requested from two threads at once, end in cyclicDependency, not a deadlock")
    func lazySingletonCycleFromTwoThreads() throws {
        let injector = try Injector(Deadlock.lazyModule)
        let outcomes = regressionRunAll(count: 2, timeout: Deadlock.watchdog) { thread in
            if thread == 0 { _ = try injector.getInstance(Deadlock.LazyA.self) } else { _ = try injector.getInstance(Deadlock.LazyB.self) }
        }
        Deadlock.check(outcomes)
    }

    @Test("two closure singletons that need each other, requested from one thread, end in cyclicDependency")
    func closureSingletonCycleFromOneThread() {
        let outcome = regressionRun(timeout: Deadlock.watchdog) {
            let injector = try Injector(Deadlock.closureModule)
            _ = try injector.getInstance(Deadlock.A.self)
        }
        #expect(outcome.error?.kind == .cyclicDependency, "\(outcome)")
    }
}
