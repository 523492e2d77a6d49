import Sightless
import Testing

// An initializer asking an injector it reaches by itself (a global, say) for more: the library
// handed it nothing, so no frame told the new request how deep the thread already was; each
// request counted its levels from zero, the stack guard never looked, and the thread's stack
// overflowed (a crash, signal 11).

private enum OutOfBand {
    /// Where initializers find the injector, as an app's global would hold it.
    final class Global: @unchecked Sendable {
        private let stored = Locked<Injector?>(nil)
        var injector: Injector? {
            get { stored.withLock { $0 } }
            set { stored.withLock { $0 = newValue } }
        }
    }

    static let global = Global()
    static let other = Global()

    /// Asks the global injector for itself while it is built.
    final class SelfAsking: Injectable {
        init() throws { _ = try OutOfBand.global.injector?.getInstance(SelfAsking.self) }
        static let initializer = Initializer(SelfAsking.init)
    }

    /// Asks the other injector for `Ping`, whose initializer asks the global one for `Pong`.
    final class Pong: Injectable {
        init() throws { _ = try OutOfBand.other.injector?.getInstance(Ping.self) }
        static let initializer = Initializer(Pong.init)
    }

    final class Ping: Injectable {
        init() throws { _ = try OutOfBand.global.injector?.getInstance(Pong.self) }
        static let initializer = Initializer(Ping.init)
    }

    /// Asks the global injector once, for a value that asks for nothing.
    final class Leaf: Injectable {
        init() {}
        static let initializer = Initializer(Leaf.init)
    }

    final class ServiceLocating: Injectable {
        let leaf: Leaf?
        init() throws { leaf = try OutOfBand.global.injector?.getInstance(Leaf.self) }
        static let initializer = Initializer(ServiceLocating.init)
    }
}

@Suite("Regression: requests an initializer starts on an injector it holds itself", .serialized)
struct RegressionOutOfBandRecursionTests {
    @Test("an initializer asking a global injector for its own type ends in tooDeep, not a crash")
    func initializerAskingForItself() {
        let outcome = regressionRun(stackSize: regressionMainStack) {
            let injector = try Injector(modules: [])
            OutOfBand.global.injector = injector
            defer { OutOfBand.global.injector = nil }
            _ = try injector.getInstance(OutOfBand.SelfAsking.self)
        }
        #expect(outcome.error?.kind == .tooDeep, "\(outcome)")
    }

    @Test("the error of an initializer asking a global injector for its own type names the key that repeats, and the way out")
    func recursionExplained() {
        let outcome = regressionRun(stackSize: regressionSmallStack) {
            let injector = try Injector(modules: [])
            OutOfBand.global.injector = injector
            defer { OutOfBand.global.injector = nil }
            _ = try injector.getInstance(OutOfBand.SelfAsking.self)
        }
        guard let error = outcome.error, let problem = error.problems.first else {
            Issue.record("expected tooDeep: \(outcome)")
            return
        }
        let key = "\(AnyKey(Key<OutOfBand.SelfAsking>()))"
        #expect(problem.path.count > 3 && problem.path.allSatisfy { $0 == AnyKey(Key<OutOfBand.SelfAsking>()) })
        #expect(problem.pathDescription == "[\(key)] × \(problem.path.count)")
        #expect(problem.message.hasSuffix("\(key) repeats \(problem.path.count) times along the path."))
        #expect(problem.fix.hasPrefix("If building \(key) asks an injector for \(key) again"))
        #expect(problem.fix.contains("Lazy or a Factory"))
        // Short enough to read: one line for the path, not one key per level.
        #expect(String(describing: error).count < 800)
    }

    @Test("initializers asking two global injectors for each other end in tooDeep on a 512 KiB stack, not a crash")
    func initializersOfTwoInjectors() {
        let outcome = regressionRun(stackSize: regressionSmallStack) {
            let first = try Injector(modules: []), second = try Injector(modules: [])
            OutOfBand.global.injector = first
            OutOfBand.other.injector = second
            defer { OutOfBand.global.injector = nil; OutOfBand.other.injector = nil }
            _ = try first.getInstance(OutOfBand.Ping.self)
        }
        #expect(outcome.error?.kind == .tooDeep, "\(outcome)")
    }

    @Test("after an initializer's recursion through a global injector ends in tooDeep, the thread's next requests are not nested")
    func countRestoredAfterTooDeep() {
        let outcome = regressionRun(stackSize: regressionMainStack) {
            let injector = try Injector(modules: [])
            OutOfBand.global.injector = injector
            defer { OutOfBand.global.injector = nil }
            for _ in 0..<3 {
                do {
                    _ = try injector.getInstance(OutOfBand.SelfAsking.self)
                } catch let error as InjectionError where error.kind == .tooDeep {}
            }
            // Counted as running still, each earlier level would make this one look thousands
            // of levels deep (under AddressSanitizer, where depth is estimated, too deep).
            _ = try injector.getInstance(OutOfBand.ServiceLocating.self)
        }
        #expect(outcome.returned, "\(outcome)")
    }

    @Test("initializers recursing through a global injector on 8 threads at once each end in tooDeep")
    func recursionOnEightThreads() throws {
        let injector = try Injector(modules: [])
        OutOfBand.global.injector = injector
        defer { OutOfBand.global.injector = nil }
        let outcomes = regressionRunAll(count: 8, stackSize: regressionSmallStack, timeout: 60) { _ in
            _ = try injector.getInstance(OutOfBand.SelfAsking.self)
        }
        #expect(outcomes.allSatisfy { $0.error?.kind == .tooDeep }, "\(outcomes)")
    }

    @Test("an initializer asking a global injector for another value once gets it")
    func serviceLocatorOnce() throws {
        let injector = try Injector(modules: [])
        OutOfBand.global.injector = injector
        defer { OutOfBand.global.injector = nil }
        #expect(try injector.getInstance(OutOfBand.ServiceLocating.self).leaf != nil)
        // The thread's count went back down: a request after it starts from the top again.
        #expect(try injector.getInstance(OutOfBand.ServiceLocating.self).leaf != nil)
    }
}
