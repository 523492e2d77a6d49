import Sightless
import Testing

// A request made from inside another (Factory.make, Lazy.get,
// Injector.getInstance, resolver.injector.getInstance) started a new depth count, so recursion
// through them escaped the stack guard and overflowed the stack. Case 3: the guard's stack
// probe must not give a false tooDeep (under AddressSanitizer it read ASan's fake stack).

private enum Nested {
    /// Each level makes the next through a factory, inside its initializer.
    final class Level: Injectable {
        let child: Level?
        init(children: Factory<Level, Int>, depth: Int) throws {
            child = depth > 0 ? try children.make(depth - 1) : nil
        }
        static let initializer = Initializer(Level.init(children:depth:), .inject, .dynamic)
    }

    /// Unscoped, and its initializer asks its own Lazy for itself: a new one every time.
    final class SelfLazy: Injectable {
        init(me: Lazy<SelfLazy>) throws { _ = try me.get() }
        static let initializer = Initializer(SelfLazy.init(me:))
    }

    /// Unscoped, and its initializer asks the injector it was given for itself.
    final class AsksInjectorForItself: Injectable {
        init(injector: Injector) throws { _ = try injector.getInstance(AsksInjectorForItself.self) }
        static let initializer = Initializer(AsksInjectorForItself.init(injector:))
    }

    final class Link: Sendable {
        let length: Int
        init(length: Int) { self.length = length }
    }

    static func key(_ index: Int) -> Key<Link> { Key(named: "n\(index)") }

    /// `depth` closure bindings, each resolving the next through `resolver.injector`.
    static func injectorChain(depth: Int) -> Bindings {
        Bindings { binder in
            for index in 0..<depth - 1 {
                binder.bind(key(index)).to { resolver in
                    Link(length: try resolver.injector.getInstance(key(index + 1)).length + 1)
                }
            }
            binder.bind(key(depth - 1)).to(instance: Link(length: 1))
        }
    }

    /// The same chain through the resolver itself.
    static func resolverChain(depth: Int) -> Bindings {
        Bindings { binder in
            for index in 0..<depth - 1 {
                binder.bind(key(index)).to { resolver in
                    Link(length: try resolver.getInstance(key(index + 1)).length + 1)
                }
            }
            binder.bind(key(depth - 1)).to(instance: Link(length: 1))
        }
    }

    /// A chain of raw initializers `depth` keys deep.
    static func initializerChain(depth: Int) -> Bindings {
        Bindings { binder in
            for index in 0..<depth - 1 {
                binder.bind(key(index)).to(Initializer<Link>([.inject(key(index + 1))]) { arguments in
                    Link(length: try arguments.value(at: 0, as: Link.self).length + 1)
                })
            }
            binder.bind(key(depth - 1)).to(instance: Link(length: 1))
        }
    }
}

@Suite("Regression: nested requests and the stack guard")
struct RegressionNestedRequestDepthTests {
    // Far deeper than any stack can hold, so tooDeep is the one right answer.
    private static let levels = 100_000

    @Test("Factory.make recursion deeper than a 512 KiB stack holds throws tooDeep")
    func factoryRecursionOnSmallStack() {
        let outcome = regressionRun(stackSize: regressionSmallStack) {
            let injector = try Injector(modules: [])
            _ = try injector.getInstance(Nested.Level.self, arguments: Self.levels)
        }
        #expect(outcome.error?.kind == .tooDeep, "\(outcome)")
    }

    @Test("Factory.make recursion deeper than an 8 MiB stack holds throws tooDeep")
    func factoryRecursionOnMainSizedStack() {
        let outcome = regressionRun(stackSize: regressionMainStack) {
            let injector = try Injector(modules: [])
            _ = try injector.getInstance(Nested.Level.self, arguments: Self.levels)
        }
        #expect(outcome.error?.kind == .tooDeep, "\(outcome)")
    }

    @Test("a 5,000-deep chain of closures calling resolver.injector.getInstance throws tooDeep on an 8 MiB stack")
    func injectorChainThrowsTooDeep() {
        let outcome = regressionRun(stackSize: regressionMainStack) {
            let injector = try Injector(Nested.injectorChain(depth: 5_000))
            _ = try injector.getInstance(Nested.key(0))
        }
        #expect(outcome.error?.kind == .tooDeep, "\(outcome)")
    }

    @Test("a 5,000-deep chain of closures calling resolver.getInstance throws tooDeep on an 8 MiB stack")
    func resolverChainThrowsTooDeep() {
        let outcome = regressionRun(stackSize: regressionMainStack) {
            let injector = try Injector(Nested.resolverChain(depth: 5_000))
            _ = try injector.getInstance(Nested.key(0))
        }
        #expect(outcome.error?.kind == .tooDeep, "\(outcome)")
    }

    @Test("an unscoped type whose initializer gets its own Lazy<Self> throws cyclicDependency")
    func unscopedSelfLazyIsACycle() {
        let outcome = regressionRun(stackSize: regressionMainStack) {
            let injector = try Injector(modules: [])
            _ = try injector.getInstance(Nested.SelfLazy.self)
        }
        #expect(outcome.error?.kind == .cyclicDependency, "\(outcome)")
    }

    @Test("an unscoped type whose initializer asks its injected Injector for itself throws cyclicDependency")
    func unscopedTypeAskingInjectorForItselfIsACycle() {
        let outcome = regressionRun(stackSize: regressionMainStack) {
            let injector = try Injector(modules: [])
            _ = try injector.getInstance(Nested.AsksInjectorForItself.self)
        }
        #expect(outcome.error?.kind == .cyclicDependency, "\(outcome)")
    }

    @Test("an unscoped closure binding that returns resolver.injector.getInstance of its own key throws cyclicDependency")
    func unscopedClosureAskingInjectorForItselfIsACycle() {
        let outcome = regressionRun(stackSize: regressionMainStack) {
            let own = Key<Nested.Link>(named: "self")
            let injector = try Injector(Bindings { $0.bind(own).to { resolver in try resolver.injector.getInstance(own) } })
            _ = try injector.getInstance(own)
        }
        #expect(outcome.error?.kind == .cyclicDependency, "\(outcome)")
    }

    @Test("a singleton closure binding that returns resolver.injector.getInstance of its own key throws cyclicDependency")
    func singletonClosureAskingInjectorForItselfIsACycle() {
        let outcome = regressionRun(stackSize: regressionMainStack) {
            let own = Key<Nested.Link>(named: "self")
            let injector = try Injector(Bindings {
                $0.bind(own).to { resolver in try resolver.injector.getInstance(own) }.in(.singleton)
            })
            _ = try injector.getInstance(own)
        }
        #expect(outcome.error?.kind == .cyclicDependency, "\(outcome)")
    }

    /// Case 3: the stack guard first probes the stack at 32 levels; a false probe (ASan's fake
    /// stack) made every such chain fail. Passes in a plain build; the regression shows under
    /// `swift test --sanitize=address`.
    @Test("a 40-level initializer chain resolves on the main thread")
    @MainActor
    func fortyLevelChainOnMainThread() throws {
        let injector = try Injector(Nested.initializerChain(depth: 40))
        #expect(try injector.getInstance(Nested.key(0)).length == 40)
    }
}
