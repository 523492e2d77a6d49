import Sightless
import Testing

// A cycle broken by Lazy or Factory (the documented way to break one) kept
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

    /// Like `LB`, but holds `LA` weakly: used through its `Lazy`, `LA` keeps an `LWeakB`, which
    /// must not keep `LA` in turn.
    final class LWeakA: Injectable {
        let b: Lazy<LWeakB>
        init(b: Lazy<LWeakB>) { self.b = b }
        static let initializer = Initializer(LWeakA.init(b:))
    }

    final class LWeakB: Injectable {
        weak var a: LWeakA?
        init(a: LWeakA) { self.a = a }
        static let initializer = Initializer(LWeakB.init(a:))
    }

    /// Builds `LWeakA` as a singleton, uses its `Lazy`, and releases the injector.
    static func usedWeakLazyCycleInstance() throws -> RegressionWeak<LWeakA> {
        let weak = RegressionWeak<LWeakA>()
        let injector = try Injector(Bindings { $0.bind(LWeakA.self).in(.singleton) })
        let a = try injector.getInstance(LWeakA.self)
        #expect(try a.b.get().a === a)
        weak.object = a
        return weak
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

    // A used Lazy keeps what it built, as documented: when that value holds the Lazy's owner
    // strongly, the two objects hold each other, an ownership cycle of the types themselves.
    // The injector must add nothing to it: with the back-reference weak, all is released.
    @Test("a singleton whose used Lazy built an object holding it weakly is released with its injector")
    func usedLazyCycleSingletonReleased() throws {
        let weak = try DeferredLeak.usedWeakLazyCycleInstance()
        #expect(weak.object == nil, "LWeakA is still alive after its injector was released")
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
