import Sightless
import Testing

// Builds that await nest on no thread's stack: a chain of them deeper than one request may nest
// (10,000) ends in tooDeep, with no stack size, instead of growing until memory runs out.

private func awaitedChain(_ length: Int) throws -> Injector {
    try Injector(Bindings { binder in
        for index in 0..<length {
            binder.bind(Key<Int>(named: "n\(index)")).to { resolver async throws in
                index == length - 1 ? index : try await resolver.instance(Key<Int>(named: "n\(index + 1)"))
            }
        }
    })
}

@Suite("Depth of builds that await")
struct AwaitedDepthTests {
    @Test("a chain of 5,000 builds that await is built")
    func deepChainBuilds() async throws {
        let injector = try awaitedChain(5_000)
        #expect(try await injector.instance(Key<Int>(named: "n0")) == 4_999)
    }

    @Test("a chain of more than 10,000 builds that await ends in tooDeep, with no stack size")
    func tooDeepChainThrows() async throws {
        let injector = try awaitedChain(12_000)
        let error = await #expect(throws: InjectionError.self) { _ = try await injector.instance(Key<Int>(named: "n0")) }
        #expect(error?.kind == .tooDeep)
        guard case .tooDeep(let depth, let stackSize)? = error?.problems.first?.detail else {
            Issue.record("expected tooDeep, got \(String(describing: error))")
            return
        }
        #expect(depth == 10_001)
        #expect(stackSize == nil)
        #expect(error?.problems.first?.message.contains("builds that await") == true)
    }

    @Test("a chain of async closures each asking its resolver for the next counts two levels a link: 5,001 links end in tooDeep")
    func closureLinksCountTwice() async throws {
        let injector = try awaitedChain(5_001)
        let error = await #expect(throws: InjectionError.self) { _ = try await injector.instance(Key<Int>(named: "n0")) }
        #expect(error?.kind == .tooDeep)
    }

    @Test("a build that awaits its own key is still told as a reentry, not as too deep")
    func reentryStillReported() async throws {
        let injector = try Injector(Bindings { binder in
            binder.bind(Key<Int>(named: "self")).to { resolver async throws in try await resolver.instance(Key<Int>(named: "self")) }
        })
        let error = await #expect(throws: InjectionError.self) { _ = try await injector.instance(Key<Int>(named: "self")) }
        #expect(error?.kind == .cyclicDependency)
    }
}
