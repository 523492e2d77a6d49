import Sightless
import Testing

// Issue 8, case 5: a cycle broken by Lazy or Factory (the documented way to break one) kept
// its nodes and singletons alive after the injector was released.

private enum DeferredLeak {
    final class LA: Injectable {
        let b: Lazy<LB>
        init(b: Lazy<LB>) { self.b = b }
        static let initializer = Initializer(LA.init(b:))
    }

    final class LB: Injectable {
        let a: LA
        init(a: LA) { self.a = a }
        static let initializer = Initializer(LB.init(a:))
    }

    final class FA: Injectable {
        let b: Factory<FB>
        init(b: Factory<FB>) { self.b = b }
        static let initializer = Initializer(FA.init(b:))
    }

    final class FB: Injectable {
        let a: FA
        init(a: FA) { self.a = a }
        static let initializer = Initializer(FB.init(a:))
    }

    /// Builds an injector with `LA` as a singleton, gets `LA`, and releases the injector.
    static func lazyCycleInstance(usingLazy: Bool) throws -> RegressionWeak<LA> {
        let weak = RegressionWeak<LA>()
        let injector = try Injector(Bindings { $0.bind(LA.self).in(.singleton) })
        let a = try injector.getInstance(LA.self)
        if usingLazy { #expect(try a.b.get().a === a) }
        weak.object = a
        return weak
    }

    static func factoryCycleInstance() throws -> RegressionWeak<FA> {
        let weak = RegressionWeak<FA>()
        let injector = try Injector(Bindings { $0.bind(FA.self).in(.singleton) })
        let a = try injector.getInstance(FA.self)
        #expect(try a.b.make().a === a)
        weak.object = a
        return weak
    }
}

@Suite("Regression: deferred cycles release their objects")
struct RegressionDeferredCycleLeakTests {
    @Test("a singleton in a Lazy cycle is released with its injector")
    func lazyCycleSingletonReleased() throws {
        let weak = try DeferredLeak.lazyCycleInstance(usingLazy: false)
        #expect(weak.object == nil, "LA is still alive after its injector was released")
    }

    @Test("a singleton in a Lazy cycle whose Lazy was used is released with its injector")
    func usedLazyCycleSingletonReleased() throws {
        let weak = try DeferredLeak.lazyCycleInstance(usingLazy: true)
        #expect(weak.object == nil, "LA is still alive after its injector was released")
    }

    @Test("a singleton in a Factory cycle is released with its injector")
    func factoryCycleSingletonReleased() throws {
        let weak = try DeferredLeak.factoryCycleInstance()
        #expect(weak.object == nil, "FA is still alive after its injector was released")
    }

    @Test("the injector of a Lazy cycle is itself released")
    func lazyCycleInjectorReleased() throws {
        weak var injector: Injector?
        do {
            let strong = try Injector(Bindings { $0.bind(DeferredLeak.LA.self).in(.singleton) })
            _ = try strong.getInstance(DeferredLeak.LA.self)
            injector = strong
        }
        #expect(injector == nil)
    }

    @Test("1,000 injectors of a Lazy cycle leave no singleton alive")
    func thousandLazyCycleInjectorsReleased() throws {
        var alive = 0
        for _ in 0..<1_000 {
            let weak = try DeferredLeak.lazyCycleInstance(usingLazy: false)
            if weak.object != nil { alive += 1 }
        }
        #expect(alive == 0, "\(alive) of 1,000 LA singletons outlived their injectors")
    }
}
