import Sightless
import Testing

// The keys being built with `await` in a task are a chain bound to the task: each build binds
// its link while it runs and unbinds it when it returns or throws; the tasks it starts while it
// runs see the chain too.

@Suite("The chain of builds that await in a task")
struct AwaitedChainTests {
    @Test("after a build that awaits throws, the same task asks for its key again and gets it")
    func unboundAfterThrow() async throws {
        let attempts = Locked(0)
        let injector = try Injector(Bindings { binder in
            binder.bind(Key<Int>(named: "flaky")).to { _ async throws in
                let attempt = attempts.withLock { count in
                    count += 1
                    return count
                }
                if attempt == 1 { throw Refused() }
                return attempt
            }
        })
        let error = await #expect(throws: InjectionError.self) { _ = try await injector.instance(Key<Int>(named: "flaky")) }
        #expect(error?.kind == .initializerFailed)
        #expect(try await injector.instance(Key<Int>(named: "flaky")) == 2)
    }

    @Test("a build that asks for its own key from a child task it started is told as a reentry")
    func childTaskSeesChain() async throws {
        let injector = try Injector(Bindings { binder in
            binder.bind(Key<Int>(named: "self")).to { resolver async throws in
                async let again = resolver.instance(Key<Int>(named: "self"))
                return try await again
            }
        })
        let error = await #expect(throws: InjectionError.self) { _ = try await injector.instance(Key<Int>(named: "self")) }
        #expect(error?.kind == .cyclicDependency)
    }

    @Test("10,000 awaited requests one after another in one task each start at depth one")
    func requestsDoNotAccumulate() async throws {
        let injector = try Injector(Bindings { binder in
            binder.bind(Key<Int>(named: "one")).to { _ async throws in 1 }
        })
        var total = 0
        for _ in 0..<10_001 { total += try await injector.instance(Key<Int>(named: "one")) }
        #expect(total == 10_001)
    }

    @Test("a task that was not building sees an empty chain after a request that awaited")
    func chainEmptyAfterRequest() async throws {
        let injector = try Injector(Bindings { binder in
            binder.bind(Key<Int>(named: "leaf")).to { _ async throws in 1 }
            binder.bind(Key<Int>(named: "root")).to { resolver async throws in
                try await resolver.instance(Key<Int>(named: "leaf")) + 1
            }
        })
        #expect(try await injector.instance(Key<Int>(named: "root")) == 2)
        // Asking for the root again in the same task is no reentry: its link was unbound.
        #expect(try await injector.instance(Key<Int>(named: "root")) == 2)
        #expect(try await injector.instance(Key<Int>(named: "leaf")) == 1)
    }
}

private struct Refused: Error {}
