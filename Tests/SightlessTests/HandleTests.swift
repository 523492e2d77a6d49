import Sightless
import Testing

private final class Clock: Injectable, Sendable {
    static let initializer = Initializer(Clock.init)
}

private final class Page: Injectable {
    let clock: Clock
    let title: String
    init(clock: Clock, title: String) {
        self.clock = clock
        self.title = title
    }
    static let initializer = Initializer(Page.init(clock:title:), .inject, .dynamic)
}

@Suite("Handles")
struct HandleTests {
    @Test("a handle gets the same singleton as getInstance")
    func singletonThroughHandle() throws {
        let injector = try Injector(Bindings { $0.bind(Clock.self).in(.singleton) })
        let handle = try injector.handle(for: Clock.self)
        let first = try handle.get()
        #expect(first === (try handle.get()))
        #expect(first === (try injector.getInstance(Clock.self)))
    }

    @Test("a handle taken before the singleton exists builds it once")
    func handleBeforeFirstRequest() throws {
        let injector = try Injector(Bindings { $0.bind(Clock.self).in(.singleton) })
        let handle = try injector.handle(for: Clock.self)
        let built = try handle.get()
        #expect(try injector.getInstance(Clock.self) === built)
    }

    @Test("a handle of an unscoped key builds a new instance on every get")
    func unscopedThroughHandle() throws {
        let injector = try Injector(Bindings { $0.bind(Clock.self) })
        let handle = try injector.handle(for: Clock.self)
        #expect(try handle.get() !== (try handle.get()))
    }

    @Test("a handle for a named key gets that key's value")
    func namedKeyThroughHandle() throws {
        let endpoint = Key<String>(named: "endpoint")
        let injector = try Injector(Bindings { $0.bind(endpoint).to(instance: "https://example.com") })
        #expect(try injector.handle(for: endpoint).get() == "https://example.com")
    }

    @Test("a handle for a just-in-time type compiles it on first use")
    func justInTimeHandle() throws {
        let injector = try Injector(modules: [])
        let handle = try injector.handle(for: Clock.self)
        #expect(try handle.get() !== (try handle.get()))
    }

    @Test("a handle for a type with dynamic arguments is an argument count error")
    func handleForDynamicType() throws {
        let injector = try Injector(modules: [])
        let error = #expect(throws: InjectionError.self) { _ = try injector.handle(for: Page.self) }
        #expect(error?.kind == .argumentCount)
    }

    @Test("a handle for a key nothing can build is a missing binding error")
    func handleForMissingKey() throws {
        let injector = try Injector(modules: [])
        let error = #expect(throws: InjectionError.self) { _ = try injector.handle(for: Int.self) }
        #expect(error?.kind == .missingBinding)
    }

    @Test("a singleton read through handles on many threads is one instance")
    func handleUnderContention() throws {
        let injector = try Injector(Bindings { $0.bind(Clock.self).in(.singleton) })
        let handle = try injector.handle(for: Clock.self)
        let expected = try injector.getInstance(Clock.self)
        let mismatches = Counter()
        race(threads: 4) { _ in
            for _ in 0..<1_000 where (try? handle.get()) !== expected { mismatches.increment() }
        }
        #expect(mismatches.count == 0)
    }
}
