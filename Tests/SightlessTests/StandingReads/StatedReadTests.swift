import Sightless
import Testing

// A dependency read where it stands, stated in the type's properties: validated with the graph.

private protocol Clock: Sendable { var now: Int { get } }
private struct FixedClock: Clock { let now: Int }

private final class StatedStamper: Injectable {
    @Injected(default: FixedClock(now: -1)) var clock: Clock
    let endpoint = Injection<String>(named: "endpoint")
    static let initializer = Initializer(StatedStamper.init)
    static let properties = Properties<StatedStamper>()
        .reads(\.$clock)
        .reads(\.endpoint, named: "endpoint")
}

private final class ReadsItsReader: Injectable {
    let reader = Injection<ReaderOfReads>()
    static let initializer = Initializer(ReadsItsReader.init)
    static let properties = Properties<ReadsItsReader>().reads(\.reader)
}

private final class ReaderOfReads: Injectable {
    let other: ReadsItsReader
    init(other: ReadsItsReader) { self.other = other }
    static let initializer = Initializer(ReaderOfReads.init(other:))
}

private func bound(clock: Bool = true, endpoint: Bool = true) -> AnyModule {
    AnyModule { binder in
        binder.entryPoint(StatedStamper.self)
        if clock { binder.bind(Clock.self).to(instance: FixedClock(now: 3)) }
        if endpoint { binder.bind(Key<String>(named: "endpoint")).to(instance: "https://example.com") }
    }
}

@Suite("Dependencies read where they stand, stated in properties")
struct StatedReadTests {
    @Test("a stated read's missing binding is reported when the injector is built")
    func missingStatedReadAtBuild() throws {
        let error = #expect(throws: InjectionError.self) { try Injector(modules: [bound(clock: false)]) }
        #expect(error?.kind == .missingBinding)
        #expect(error?.problems.first?.message.contains("StatedStamper") == true, "\(String(describing: error))")
    }

    @Test("every missing stated read is reported together")
    func everyMissingStatedRead() throws {
        let error = #expect(throws: InjectionError.self) {
            try Injector(modules: [bound(clock: false, endpoint: false)])
        }
        #expect(error?.problems.count == 2)
    }

    @Test("a value with stated reads is built with each read resolved once")
    func statedReadsResolve() throws {
        let stamper = try Injector(modules: [bound()]).getInstance(StatedStamper.self)
        #expect(stamper.clock.now == 3)
        #expect(try stamper.endpoint.get() == "https://example.com")
    }

    @Test("a cycle through a stated read is reported when the injector is built")
    func statedReadCycle() throws {
        let error = #expect(throws: InjectionError.self) {
            try Injector(modules: [AnyModule { $0.entryPoint(ReadsItsReader.self) }])
        }
        #expect(error?.kind == .cyclicDependency)
    }

    @Test("the graph export draws a stated read's edge")
    func exportDrawsStatedRead() throws {
        let injector = try Injector(modules: [bound()])
        let text = try injector.explain(StatedStamper.self)
        #expect(text.contains("Clock"))
        #expect(text.contains("endpoint"))
    }
}
