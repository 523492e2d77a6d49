@testable import Sightless
import Testing

// Dependencies read where they stand: `Injection` (throwing) and `@Injected` (with a default),
// in values an injector builds and in values made by hand under a current injector.

private protocol Clock: Sendable { var now: Int { get } }
private struct FixedClock: Clock { let now: Int }

/// Built by the injector: reads its clock where it stands.
private final class Stamper: Injectable, Sendable {
    let clock = Injection<Clock>()
    static let initializer = Initializer(Stamper.init)
    func stamp() throws -> Int { try clock.get().now }
}

/// Built by the injector, with a default that a build never uses.
private final class DefaultedStamper: Injectable {
    @Injected(default: FixedClock(now: -1)) var clock: Clock
    static let initializer = Initializer(DefaultedStamper.init)
}

/// Reads a named value and another injectable.
private final class Greeter: Injectable, Sendable {
    let name = Injection<String>(named: "user")
    let stamper = Injection<Stamper>()
    static let initializer = Initializer(Greeter.init)
}

/// Makes, in its initializer, a view inside another injector's `withCurrent`, and notes the
/// injector current while it is built.
private final class ViewMaker: Injectable, @unchecked Sendable {
    let view: ClockView
    let currentWhileBuilt: Injector?
    let own = Injection<Clock>()
    init(other: Injector) {
        currentWhileBuilt = Injector.current
        view = other.withCurrent { ClockView() }
    }
    static let initializer = Initializer(ViewMaker.init(other:), .named("other"))
}

/// Made by hand, like a view the UI framework makes.
private struct ClockView {
    @Injected(default: FixedClock(now: 0)) var clock: Clock
    var label: String { "at \(clock.now)" }
}

/// Reads itself where it stands: a cycle.
private final class Narcissus: Injectable, Sendable {
    let me = Injection<Narcissus>()
    static let initializer = Initializer(Narcissus.init)
}

private final class Counted: Injectable, Sendable {
    static let built = Counter()
    init() { Counted.built.increment() }
    static let initializer = Initializer(Counted.init)
}

private final class ReadsCounted: Injectable {
    let counted = Injection<Counted>()
    static let initializer = Initializer(ReadsCounted.init)
}

private final class ClosingClock: Clock, Closable, @unchecked Sendable {
    let now = 7
    private(set) var closed = false
    func close() { closed = true }
}

/// An actor made by hand, reading where it stands.
private actor ClockActor {
    let clock = Injection<Clock>()
    func now() throws -> Int { try clock.get().now }
}

private func clockModule(_ now: Int) -> AnyModule {
    AnyModule { $0.bind(Clock.self).to(instance: FixedClock(now: now)) }
}

@Suite("Dependencies read where they stand")
struct InjectionTests {
    @Test("a value the injector builds reads its dependency from that injector")
    func builtValueReadsItsInjector() throws {
        let injector = try Injector(modules: [clockModule(42)])
        #expect(try injector.getInstance(Stamper.self).stamp() == 42)
    }

    @Test("a child's value reads the child's binding, not its parent's")
    func childValueReadsChild() throws {
        let root = try Injector(modules: [clockModule(1)])
        let child = try root.child(overrides: [clockModule(2)])
        #expect(try child.getInstance(Stamper.self).stamp() == 2)
        #expect(try root.getInstance(Stamper.self).stamp() == 1)
    }

    @Test("a template child's value reads the values the child was made with")
    func templateChildValueReadsProvided() throws {
        let root = try Injector(modules: [clockModule(3)])
        let requests = try root.childTemplate(providing: Key<String>(named: "user"))
        let ada = try requests.child("ada").getInstance(Greeter.self)
        let bob = try requests.child("bob").getInstance(Greeter.self)
        #expect(try ada.name.get() == "ada")
        #expect(try bob.name.get() == "bob")
        #expect(try ada.stamper.get().stamp() == 3)
    }

    @Test("a missing binding read by a built value makes that build throw, naming the path")
    func missingBindingFailsTheBuild() throws {
        let injector = try Injector(modules: [])
        let error = #expect(throws: InjectionError.self) { try injector.getInstance(Stamper.self) }
        #expect(error?.kind == .missingBinding)
        #expect(error?.problems.first?.path.map(\.typeName).first == "Stamper")
        #expect(error?.problems.first?.path.map(\.typeName).last == "Clock")
    }

    @Test("a built value's default is not used when its dependency fails: the build throws")
    func builtValueDefaultNotUsed() throws {
        let injector = try Injector(modules: [])
        let error = #expect(throws: InjectionError.self) { try injector.getInstance(DefaultedStamper.self) }
        #expect(error?.kind == .missingBinding)
        let bound = try Injector(modules: [clockModule(9)])
        #expect(try bound.getInstance(DefaultedStamper.self).clock.now == 9)
    }

    @Test("a value that reads itself where it stands is a cycle error, not a hang")
    func selfReadIsCycle() throws {
        let injector = try Injector(modules: [])
        let error = #expect(throws: InjectionError.self) { try injector.getInstance(Narcissus.self) }
        #expect(error?.kind == .cyclicDependency || error?.kind == .tooDeep)
    }

    @Test("a build that fails once is retried, and a later build that succeeds reads its value")
    func failedBuildRetried() throws {
        let injector = try Injector(modules: [])
        #expect(throws: InjectionError.self) { try injector.getInstance(Stamper.self) }
        #expect(throws: InjectionError.self) { try injector.getInstance(Stamper.self) }
    }

    @Test("a value made inside withCurrent reads that injector, also when read after it")
    func withCurrentCapturesInjector() throws {
        let injector = try Injector(modules: [clockModule(5)])
        let view = injector.withCurrent { ClockView() }
        #expect(view.label == "at 5")
    }

    @Test("a value made inside withChild's body reads the child")
    func withChildBodyIsCurrent() throws {
        let root = try Injector(modules: [clockModule(1)])
        let label = try root.withChild(overrides: [clockModule(8)]) { _ in ClockView().label }
        #expect(label == "at 8")
    }

    @Test("a value made in a template child's withChild body reads the request's values")
    func templateWithChildIsCurrent() throws {
        let root = try Injector(modules: [clockModule(1)])
        let requests = try root.childTemplate(providing: Key<String>(named: "user"))
        let name = try requests.withChild("grace") { _ in try Injection<String>(named: "user").get() }
        #expect(name == "grace")
    }

    @Test("Injector.current is the innermost scope's injector")
    func currentIsInnermost() throws {
        let root = try Injector(modules: [])
        try root.withCurrent {
            #expect(Injector.current === root)
            try root.withChild { child in #expect(Injector.current === child) }
            #expect(Injector.current === root)
        }
    }

    @Test("inside an initializer, a withCurrent body is the innermost scope, and the build's injector is current around it")
    func withCurrentInsideBuild() throws {
        let other = try Injector(modules: [clockModule(9)])
        let injector = try Injector(modules: [clockModule(2), Bindings { $0.bind(Key<Injector>(named: "other")).to(instance: other) }])
        let maker = try injector.getInstance(ViewMaker.self)
        #expect(maker.view.label == "at 9")
        #expect(try maker.own.get().now == 2)
        #expect(maker.currentWhileBuilt === injector)
    }

    @Test("a dependency decorated in the module is read decorated")
    func readIsDecorated() throws {
        let injector = try Injector(modules: [AnyModule { binder in
            binder.bind(Clock.self).to(instance: FixedClock(now: 1))
            binder.decorate(Clock.self) { clock in FixedClock(now: clock.now * 10) }
        }])
        #expect(try injector.getInstance(Stamper.self).stamp() == 10)
    }

    @Test("a value a closure binding makes reads from the injector that runs the closure")
    func closureBuiltValueReads() throws {
        let root = try Injector(modules: [clockModule(4), AnyModule { binder in
            binder.bind(Key<Stamper>(named: "made")).to { _ in Stamper() }
        }])
        let child = try root.child(overrides: [clockModule(6)])
        #expect(try root.getInstance(Key<Stamper>(named: "made")).stamp() == 4)
        #expect(try child.getInstance(Key<Stamper>(named: "made")).stamp() == 6)
    }

    @Test("a dependency read where it stands is resolved once, at the owner's build")
    func readResolvedOnce() throws {
        let injector = try Injector(modules: [])
        let before = Counted.built.count
        let owner = try injector.getInstance(ReadsCounted.self)
        let first = try owner.counted.get()
        #expect(try owner.counted.get() === first)
        #expect(Counted.built.count - before == 1)
    }

    @Test("threads making the first read of one injection at once all get the same value")
    func racingFirstReads() throws {
        let injector = try Injector(modules: [])
        let injection = injector.withCurrent { Injection<Counted>() }
        let seen = Locked<[ObjectIdentifier]>([])
        race(threads: 8) { _ in
            if let value = try? injection.get() { seen.withLock { $0.append(ObjectIdentifier(value)) } }
        }
        let identities = seen.withLock { $0 }
        #expect(identities.count == 8)
        #expect(Set(identities).count == 1)
    }

    @Test("withOverrides patches one binding for what its body builds and reads")
    func withOverridesPatches() throws {
        let injector = try Injector(modules: [clockModule(1)])
        let patched = try injector.withOverrides({ $0.bind(Clock.self).to(instance: FixedClock(now: 99)) }) { child in
            (try child.getInstance(Stamper.self).stamp(), ClockView().clock.now)
        }
        #expect(patched == (99, 99))
        #expect(try injector.getInstance(Stamper.self).stamp() == 1)
    }

    @Test("withOverrides closes what its child kept when the body ends")
    func withOverridesCloses() throws {
        let injector = try Injector(modules: [clockModule(1)])
        let clock = ClosingClock()
        let seen = try injector.withOverrides({ $0.bind(Clock.self).to { _ in clock }.in(.singleton) }) { child in
            try child.getInstance(Stamper.self).stamp()
        }
        #expect(seen == 7)
        #expect(clock.closed)
    }

    @Test("withOverrides throws the reads inside it that fell back to their default")
    func withOverridesReportsDefaults() throws {
        let injector = try Injector(modules: [])
        let error = #expect(throws: InjectionError.self) {
            try injector.withOverrides({ $0.bind(Key<String>(named: "unused")).to(instance: "x") }) { _ in
                ClockView().clock.now
            }
        }
        #expect(error?.kind == .missingBinding || error?.kind == .unusedDeclaration)
    }

    @Test("an override that replaces nothing is an error of withOverrides")
    func withOverridesReplacingNothing() throws {
        let injector = try Injector(modules: [])
        let error = #expect(throws: InjectionError.self) {
            try injector.withOverrides({ $0.bind(Clock.self).to(instance: FixedClock(now: 1)) }) { _ in 0 }
        }
        #expect(error?.kind == .unusedDeclaration)
    }

    @Test("the async withOverrides patches what an awaited body reads")
    func asyncWithOverrides() async throws {
        let injector = try Injector(modules: [clockModule(1)])
        let now = try await injector.withOverrides({ $0.bind(Clock.self).to(instance: FixedClock(now: 12)) }) { child in
            try await child.instance(Stamper.self).stamp()
        }
        #expect(now == 12)
    }

    @Test("the async withCurrent makes its injector current across suspensions")
    func asyncWithCurrent() async throws {
        let injector = try Injector(modules: [clockModule(21)])
        let label = await injector.withCurrent { () async -> String in
            await Task.yield()
            return ClockView().label
        }
        #expect(label == "at 21")
    }

    @Test("a child task inherits the current injector")
    func childTaskInherits() async throws {
        let injector = try Injector(modules: [clockModule(31)])
        let label = await injector.withCurrent { () async -> String in
            await Task { ClockView().label }.value
        }
        #expect(label == "at 31")
    }

    @Test("an actor made inside withCurrent reads from that injector")
    func actorReads() async throws {
        let injector = try Injector(modules: [clockModule(17)])
        let actor = injector.withCurrent { ClockActor() }
        #expect(try await actor.now() == 17)
    }

    @Test("an observer hears of a value built for a read where it stands")
    func readIsObserved() throws {
        let heard = Locked<[String]>([])
        let injector = try Injector(modules: [clockModule(1), AnyModule { binder in
            binder.observe { event in heard.withLock { $0.append(event.key.typeName) } }
        }])
        _ = try injector.getInstance(ReadsCounted.self)
        #expect(heard.withLock { $0 }.contains("Counted"))
        #expect(heard.withLock { $0 }.contains("ReadsCounted"))
    }

    @Test("a read after the owner's injector shut down, made lazily, throws injectorShutDown")
    func readAfterShutdown() throws {
        let injector = try Injector(modules: [])
        let injection = injector.withCurrent { Injection<Counted>() }
        try injector.shutDown()
        let error = #expect(throws: InjectionError.self) { try injection.get() }
        #expect(error?.kind == .injectorShutDown)
    }
}

private final class KeptReader: Injectable, Sendable {
    let counted = Injection<Counted>()
    static let initializer = Initializer(KeptReader.init)
    static var scope: Scope { .singleton }
}

/// Opened with `await`, reading where it stands.
private final class AsyncStamper: Injectable, Sendable {
    let clock = Injection<Clock>()
    init() async { await Task.yield() }
    static let initializer = Initializer(AsyncStamper.init)
}

@Suite("Dependencies read where they stand, in awaited builds")
struct AwaitedInjectionTests {
    @Test("a value with an async initializer reads where it stands from the injector it is built for")
    func asyncInitializerReads() async throws {
        let root = try Injector(modules: [clockModule(1)])
        let child = try root.child(overrides: [clockModule(2)])
        #expect(try await child.instance(AsyncStamper.self).clock.get().now == 2)
        #expect(try await root.instance(AsyncStamper.self).clock.get().now == 1)
    }

    @Test("an awaited build whose read fails throws, naming the path")
    func asyncInitializerReadFails() async throws {
        let injector = try Injector(modules: [])
        let error = await #expect(throws: InjectionError.self) { try await injector.instance(AsyncStamper.self) }
        #expect(error?.kind == .missingBinding)
        #expect(error?.problems.first?.path.first?.typeName == "AsyncStamper")
    }

    @Test("an awaited request of a synchronous value reads where it stands")
    func awaitedSynchronousValueReads() async throws {
        let injector = try Injector(modules: [clockModule(4)])
        #expect(try await injector.instance(Stamper.self).stamp() == 4)
    }
}

private final class AsyncClosingClock: Clock, AsyncClosable, @unchecked Sendable {
    let now = 5
    private(set) var closed = false
    func close() async { closed = true }
}

@Suite("withOverrides in async code")
struct AsyncWithOverridesTests {
    @Test("in async code, withOverrides with a synchronous body awaits the close of AsyncClosable values")
    func synchronousBodyInAsyncCode() async throws {
        let injector = try Injector(modules: [clockModule(1)])
        let clock = AsyncClosingClock()
        let now = try await injector.withOverrides({ $0.bind(Clock.self).to { _ in clock }.in(.singleton) }) { child in
            try child.getInstance(Stamper.self).stamp()
        }
        #expect(now == 5)
        #expect(clock.closed)
    }
}

@Suite("Dependencies read where they stand, over time")
struct InjectionLifetimeTests {
    @Test("a singleton that reads where it stands does not keep its injector alive")
    func singletonDoesNotKeepInjector() throws {
        weak var released: Injector?
        var reader: KeptReader?
        do {
            let injector = try Injector(modules: [])
            reader = try injector.getInstance(KeptReader.self)
            released = injector
        }
        #expect(released == nil)
        #expect(try reader?.counted.get() != nil)
    }
}
