import Sightless
import Synchronization
import Testing

// Unbounded recursion through every way a request can start, with the injector reached out of
// band (a global the library never handed out): each must end in an `InjectionError`, never in
// a stack overflow, on a secondary thread's small stack as on a main thread's.

/// Where the types below find the injector or wrapper they recurse through: one holder per
/// type, so that suites running at once do not see each other's.
final class RecursionHolder<Value>: @unchecked Sendable {
    private let stored = Locked<Value?>(nil)
    var value: Value? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}

private enum Recursing {
    // MARK: Initializers

    static let selfAskingInjector = RecursionHolder<Injector>()

    /// An initializer without arguments asking a global injector for its own type.
    final class SelfAsking: Injectable {
        init() throws { _ = try Recursing.selfAskingInjector.value?.getInstance(SelfAsking.self) }
        static let initializer = Initializer(SelfAsking.init)
    }

    /// A small graph: one dependency.
    final class WithLeaf: Injectable {
        let leaf: Leaf
        init(leaf: Leaf) { self.leaf = leaf }
        static let initializer = Initializer(WithLeaf.init(leaf:))
    }

    static let withDependencyInjector = RecursionHolder<Injector>()

    final class Leaf: Injectable {
        init() {}
        static let initializer = Initializer(Leaf.init)
    }

    /// An initializer with an injected dependency asking a global injector for its own type.
    final class WithDependency: Injectable {
        init(leaf: Leaf) throws { _ = try Recursing.withDependencyInjector.value?.getInstance(WithDependency.self) }
        static let initializer = Initializer(WithDependency.init(leaf:))
    }

    static let propertyInjector = RecursionHolder<Injector>()

    /// An initializer without arguments and an injected property, asking a global injector for
    /// its own type.
    final class WithProperty: Injectable {
        var leaf: Leaf?
        init() throws { _ = try Recursing.propertyInjector.value?.getInstance(WithProperty.self) }
        static let initializer = Initializer(WithProperty.init)
        static let properties = Properties<WithProperty>().inject(\.leaf)
    }

    // MARK: Wrappers held out of band

    static let lazy = RecursionHolder<Lazy<ThroughLazy>>()

    /// Unscoped; its initializer calls `get()` on a `Lazy` of its own type that a global holds.
    final class ThroughLazy: Injectable {
        init() throws { _ = try Recursing.lazy.value?.get() }
        static let initializer = Initializer(ThroughLazy.init)
    }

    static let factory = RecursionHolder<Factory<ThroughFactory, Int>>()

    /// Its initializer calls `make(_:)` on a `Factory` of its own type that a global holds.
    final class ThroughFactory: Injectable {
        init(level: Int) throws { _ = try Recursing.factory.value?.make(level + 1) }
        static let initializer = Initializer(ThroughFactory.init(level:), .dynamic)
    }

    static let handle = RecursionHolder<Injector.Handle<ThroughHandle>>()

    /// Unscoped; its initializer calls `get()` on a handle of its own key that a global holds.
    final class ThroughHandle: Injectable {
        init() throws { _ = try Recursing.handle.value?.get() }
        static let initializer = Initializer(ThroughHandle.init)
    }

    // MARK: Creation-time arguments, one to four

    static let argumentsInjector = RecursionHolder<Injector>()

    final class OneArgument: Injectable {
        init(a: Int) throws { _ = try Recursing.argumentsInjector.value?.getInstance(OneArgument.self, arguments: a + 1) }
        static let initializer = Initializer(OneArgument.init(a:), .dynamic)
    }

    final class TwoArguments: Injectable {
        init(a: Int, b: String) throws {
            _ = try Recursing.argumentsInjector.value?.getInstance(TwoArguments.self, arguments: a + 1, b)
        }
        static let initializer = Initializer(TwoArguments.init(a:b:), .dynamic, .dynamic)
    }

    final class ThreeArguments: Injectable {
        init(a: Int, b: String, c: Leaf) throws {
            _ = try Recursing.argumentsInjector.value?.getInstance(ThreeArguments.self, arguments: a + 1, b, c)
        }
        static let initializer = Initializer(ThreeArguments.init(a:b:c:), .dynamic, .dynamic, .dynamic)
    }

    final class FourArguments: Injectable {
        init(a: Int, b: String, c: Leaf, d: Double) throws {
            _ = try Recursing.argumentsInjector.value?.getInstance(FourArguments.self, arguments: a + 1, b, c, d)
        }
        static let initializer = Initializer(FourArguments.init(a:b:c:d:), .dynamic, .dynamic, .dynamic, .dynamic)
    }

    /// One argument, converted on the way in (a `String` for a `String?` slot): the general path.
    final class ConvertedArgument: Injectable {
        init(a: String?) throws {
            _ = try Recursing.argumentsInjector.value?.getInstance(ConvertedArgument.self, arguments: (a ?? "") + "x")
        }
        static let initializer = Initializer(ConvertedArgument.init(a:), .dynamic)
    }

    /// An argument too large for the stack buffer: the arguments go to the heap.
    struct Large: Sendable {
        var words: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    }

    final class LargeArgument: Injectable {
        init(a: Large) throws {
            var next = a
            next.words.0 += 1
            _ = try Recursing.argumentsInjector.value?.getInstance(LargeArgument.self, arguments: next)
        }
        static let initializer = Initializer(LargeArgument.init(a:), .dynamic)
    }

    // MARK: Parents and children

    static let parent = RecursionHolder<Injector>()
    static let child = RecursionHolder<Injector>()

    /// Asks the global child for `Down`.
    final class Up: Injectable {
        init() throws { _ = try Recursing.child.value?.getInstance(Down.self) }
        static let initializer = Initializer(Up.init)
    }

    /// Bound in the child only, to a closure that asks the global parent for `Up`.
    struct Down: Sendable {}

    // MARK: Types compiled at every level

    static let growingInjector = RecursionHolder<Injector>()

    /// Asks a global injector for a type never requested before: one compiled at every level.
    final class Growing<Inner>: Injectable {
        init() throws { _ = try Recursing.growingInjector.value?.getInstance(Growing<Growing<Inner>>.self) }
        static var initializer: Initializer<Growing> { Initializer(Growing.init) }
    }

    /// Asks the injector it is given for a type never requested before.
    final class GrowingInBand<Inner>: Injectable {
        init(injector: Injector) throws { _ = try injector.getInstance(GrowingInBand<GrowingInBand<Inner>>.self) }
        static var initializer: Initializer<GrowingInBand> { Initializer(GrowingInBand.init(injector:)) }
    }
}

private final class SelfAskingProvider: Provider {
    let injector: RecursionHolder<Injector>
    init(injector: RecursionHolder<Injector>) { self.injector = injector }
    func provide(_ resolver: Resolver) throws -> Recursing.Leaf {
        // Asks the injector it holds, not the resolver, for what it provides.
        _ = try injector.value?.getInstance(Key<Recursing.Leaf>(named: "provided"))
        return Recursing.Leaf()
    }
}

@Suite("Recursion through every entry point, out of band", .serialized)
struct EntryPointRecursionTests {
    /// From the smallest stacks a thread is given (64 KiB in some pools, 128 KiB under musl),
    /// which keep half of themselves free, to a main thread's.
    static let stacks = [64 * 1024, 128 * 1024, 256 * 1024, 512 * 1024, 8 * 1024 * 1024]

    /// Runs `body` on a thread of each stack size, and returns how each run ended, in the order
    /// of `stacks`. The largest stack runs first: the first compile of a process has the Swift
    /// runtime instantiate the metadata of the engine's generic types, which takes 15 KiB of
    /// stack of its own under AddressSanitizer, and on top of a debug build's compile path
    /// (45 KiB) that is more than a 64 KiB thread holds. What each stack is run for is how the
    /// recursion ends, not the runtime's first use of a type.
    private func outcomes(_ body: @escaping @Sendable () throws -> Void) -> [RegressionOutcome] {
        Self.stacks.reversed().map { regressionRun(stackSize: $0, body) }.reversed()
    }

    /// Whether each run threw `kind`, or, on the 64 KiB stack (whose 32 KiB may not hold a
    /// level of an instrumented build), `tooDeep`.
    private func threw(_ kind: InjectionError.Kind, _ results: [RegressionOutcome]) -> Bool {
        zip(Self.stacks, results).allSatisfy { stack, outcome in
            outcome.error?.kind == kind || (stack <= 64 * 1024 && outcome.error?.kind == .tooDeep)
        }
    }

    @Test("an initializer without arguments asking a global injector for its own type ends in tooDeep on every stack")
    func initializerWithoutArguments() throws {
        let injector = try Injector(modules: [])
        Recursing.selfAskingInjector.value = injector
        defer { Recursing.selfAskingInjector.value = nil }
        let results = outcomes { _ = try injector.getInstance(Recursing.SelfAsking.self) }
        #expect(results.allSatisfy { $0.error?.kind == .tooDeep }, "\(results)")
    }

    @Test("an initializer with an injected dependency asking a global injector for its own type ends in tooDeep")
    func initializerWithDependency() throws {
        let injector = try Injector(modules: [])
        Recursing.withDependencyInjector.value = injector
        defer { Recursing.withDependencyInjector.value = nil }
        let results = outcomes { _ = try injector.getInstance(Recursing.WithDependency.self) }
        #expect(results.allSatisfy { $0.error?.kind == .tooDeep }, "\(results)")
    }

    @Test("an initializer with an injected property asking a global injector for its own type ends in tooDeep")
    func initializerWithProperty() throws {
        let injector = try Injector(modules: [])
        Recursing.propertyInjector.value = injector
        defer { Recursing.propertyInjector.value = nil }
        let results = outcomes { _ = try injector.getInstance(Recursing.WithProperty.self) }
        #expect(results.allSatisfy { $0.error?.kind == .tooDeep }, "\(results)")
    }

    @Test("a closure binding asking a captured injector for its own key ends in cyclicDependency")
    func closureAskingCapturedInjector() throws {
        let holder = RecursionHolder<Injector>()
        let key = Key<Int>(named: "self")
        let injector = try Injector(Bindings { binder in
            binder.bind(key).to { _ in try holder.value?.getInstance(key) ?? 0 }
        })
        holder.value = injector
        defer { holder.value = nil }
        let results = outcomes { _ = try injector.getInstance(key) }
        #expect(threw(.cyclicDependency, results), "\(results)")
    }

    @Test("closure bindings asking a captured injector for ever new keys end in tooDeep")
    func closureAskingCapturedInjectorForNewKeys() throws {
        let holder = RecursionHolder<Injector>()
        let count = 100_000
        let injector = try Injector(Bindings { binder in
            for index in 0..<count {
                binder.bind(Key<Int>(named: "\(index)")).to { _ in
                    try holder.value?.getInstance(Key<Int>(named: "\(index + 1)")) ?? 0
                }
            }
            binder.bind(Key<Int>(named: "\(count)")).to(instance: 0)
        })
        holder.value = injector
        defer { holder.value = nil }
        let results = outcomes { _ = try injector.getInstance(Key<Int>(named: "0")) }
        #expect(results.allSatisfy { $0.error?.kind == .tooDeep }, "\(results)")
    }

    @Test("a provider asking an injector it holds for its own key ends in cyclicDependency")
    func providerAskingForItself() throws {
        let holder = RecursionHolder<Injector>()
        let key = Key<Recursing.Leaf>(named: "provided")
        let injector = try Injector(Bindings { binder in
            binder.bind(key).to(provider: SelfAskingProvider(injector: holder))
        })
        holder.value = injector
        defer { holder.value = nil }
        let results = outcomes { _ = try injector.getInstance(key) }
        #expect(threw(.cyclicDependency, results), "\(results)")
    }

    @Test("an initializer calling get() on a global Lazy of its own type ends in cyclicDependency")
    func lazyHeldOutOfBand() throws {
        let injector = try Injector(modules: [])
        let lazy = try injector.getInstance(Lazy<Recursing.ThroughLazy>.self)
        Recursing.lazy.value = lazy
        defer { Recursing.lazy.value = nil }
        let results = outcomes { _ = try lazy.get() }
        #expect(threw(.cyclicDependency, results), "\(results)")
    }

    @Test("an initializer calling make(_:) on a global Factory of its own type ends in tooDeep")
    func factoryHeldOutOfBand() throws {
        let injector = try Injector(modules: [])
        let factory = try injector.getInstance(Factory<Recursing.ThroughFactory, Int>.self)
        Recursing.factory.value = factory
        defer { Recursing.factory.value = nil }
        let results = outcomes { _ = try factory.make(0) }
        #expect(results.allSatisfy { $0.error?.kind == .tooDeep }, "\(results)")
    }

    @Test("an initializer calling get() on a global handle of its own key ends in tooDeep")
    func handleHeldOutOfBand() throws {
        let injector = try Injector(modules: [])
        let handle = try injector.handle(for: Recursing.ThroughHandle.self)
        Recursing.handle.value = handle
        defer { Recursing.handle.value = nil }
        let results = outcomes { _ = try handle.get() }
        #expect(results.allSatisfy { $0.error?.kind == .tooDeep }, "\(results)")
    }

    @Test("initializers asking a global injector for their own type with 1, 2, 3 and 4 arguments, converted or large, end in tooDeep")
    func argumentsOutOfBand() throws {
        let requests: [@Sendable (Injector) throws -> Void] = [
            { _ = try $0.getInstance(Recursing.OneArgument.self, arguments: 0) },
            { _ = try $0.getInstance(Recursing.TwoArguments.self, arguments: 0, "b") },
            { _ = try $0.getInstance(Recursing.ThreeArguments.self, arguments: 0, "b", Recursing.Leaf()) },
            { _ = try $0.getInstance(Recursing.FourArguments.self, arguments: 0, "b", Recursing.Leaf(), 1.5) },
            { _ = try $0.getInstance(Recursing.ConvertedArgument.self, arguments: "a") },
            { _ = try $0.getInstance(Recursing.LargeArgument.self, arguments: Recursing.Large()) },
        ]
        let injector = try Injector(modules: [])
        Recursing.argumentsInjector.value = injector
        defer { Recursing.argumentsInjector.value = nil }
        for (index, request) in requests.enumerated() {
            let results = outcomes { try request(injector) }
            #expect(results.allSatisfy { $0.error?.kind == .tooDeep }, "request \(index + 1): \(results)")
        }
    }

    @Test("a child's closure asking its parent, whose initializer asks the child back, ends in cyclicDependency")
    func childAndParentAskingEachOther() throws {
        let parent = try Injector(modules: [])
        let child = try parent.child { binder in
            binder.bind(Recursing.Down.self).to { _ in
                _ = try Recursing.parent.value?.getInstance(Recursing.Up.self)
                return Recursing.Down()
            }
        }
        Recursing.parent.value = parent
        Recursing.child.value = child
        defer { Recursing.parent.value = nil; Recursing.child.value = nil }
        let results = outcomes { _ = try child.getInstance(Recursing.Down.self) }
        #expect(threw(.cyclicDependency, results), "\(results)")
    }

    @Test("after recursion ends in tooDeep on a 128 KiB stack, the same thread builds a small graph")
    func smallStackUsableAfterTooDeep() throws {
        let injector = try Injector(modules: [])
        Recursing.selfAskingInjector.value = injector
        defer { Recursing.selfAskingInjector.value = nil }
        let outcome = regressionRun(stackSize: 128 * 1024) {
            do {
                _ = try injector.getInstance(Recursing.SelfAsking.self)
            } catch let error as InjectionError where error.kind == .tooDeep {}
            _ = try injector.getInstance(Recursing.WithLeaf.self)
        }
        #expect(outcome.returned, "\(outcome)")
    }

    @Test("initializers asking a global injector for ever new types, each compiled on its first request, end in tooDeep")
    func newTypeAtEveryLevel() throws {
        // Each run starts from a new injector: the types one run compiled would be found by the
        // next, which would then build deeper before it compiled anything.
        let results = Self.stacks.map { stack in
            regressionRun(stackSize: stack) {
                let injector = try Injector(modules: [])
                Recursing.growingInjector.value = injector
                defer { Recursing.growingInjector.value = nil }
                _ = try injector.getInstance(Recursing.Growing<Int>.self)
            }
        }
        #expect(results.allSatisfy { $0.error?.kind == .tooDeep }, "\(results)")
    }

    @Test("initializers asking the injector they are given for ever new types end in tooDeep")
    func newTypeAtEveryLevelInBand() throws {
        let results = Self.stacks.map { stack in
            regressionRun(stackSize: stack) {
                _ = try Injector(modules: []).getInstance(Recursing.GrowingInBand<Int>.self)
            }
        }
        #expect(results.allSatisfy { $0.error?.kind == .tooDeep }, "\(results)")
    }
}
