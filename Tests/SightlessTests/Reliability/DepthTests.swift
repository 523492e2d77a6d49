#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Sightless
import Synchronization
import Testing

/// One link of a chain of keys `Key<Link>(named: "n0")` → `"n1"` → …: it records how many
/// links follow it rather than holding the next one, so releasing a chain never recurses.
private final class Link: Sendable {
    let length: Int
    init(length: Int) { self.length = length }
}

private func linkKey(_ index: Int) -> Key<Link> { Key(named: "n\(index)") }

/// A main-actor value at the end of a chain.
@MainActor private final class DepthScreen: MainActorInjectable {
    init() {}
    static let initializer = Initializer(DepthScreen.init)
}

/// A chain `depth` keys deep, each built by a raw initializer from the next.
private func initializerChain(depth: Int) -> Bindings {
    Bindings { binder in
        for index in 0..<depth - 1 {
            binder.bind(linkKey(index)).to(Initializer<Link>([.inject(linkKey(index + 1))]) { arguments in
                Link(length: try arguments.value(at: 0, as: Link.self).length + 1)
            })
        }
        binder.bind(linkKey(depth - 1)).to(instance: Link(length: 1))
    }
}

/// The same chain with closure bindings, each resolving the next through its resolver.
private func closureChain(depth: Int) -> Bindings {
    Bindings { binder in
        for index in 0..<depth - 1 {
            binder.bind(linkKey(index)).to { resolver in
                Link(length: try resolver.getInstance(linkKey(index + 1)).length + 1)
            }
        }
        binder.bind(linkKey(depth - 1)).to(instance: Link(length: 1))
    }
}

/// Large enough for 10,000 nested levels in a debug build.
private let largeStack = 64 * 1024 * 1024
/// How deep the chain is that a request resolves on `largeStack`: 10,000 levels, or
/// `SIGHTLESS_CHAIN_DEPTH`. ThreadSanitizer records each thread's calls on a stack of its own
/// that holds 65,536 frames and is not checked when it fills up, and a level of the chain nests
/// 6 frames in a debug build, 7 on its first build: the run under it resolves 5,000 (`.ci/run`),
/// here and in `DeepReleaseTests`.
private let resolvedChainDepth = getenv("SIGHTLESS_CHAIN_DEPTH").map { String(cString: $0) }.flatMap { Int($0) } ?? 10_000
/// The default size of a secondary thread on several platforms.
private let smallStack = 512 * 1024

/// How a body run on another thread ended.
private struct Outcome: Sendable {
    var returned = false
    var error: InjectionError?
}

/// Runs `body` on a thread with a stack of `size` bytes and tells how it ended.
/// `outcome(stackSize:_:)` from a test: the wait is a thread of its own, not one of the few
/// threads every async test of the suite shares, which a chain built under a sanitizer would
/// hold for minutes.
private func outcome(stackSize size: Int, _ body: @escaping @Sendable () throws -> Void) async -> Outcome {
    await withCheckedContinuation { continuation in
        _ = startThread(stackSize: 512 * 1024, detached: true) {
            continuation.resume(returning: outcome(stackSize: size, body))
        }
    }
}

private func outcome(stackSize size: Int, _ body: @escaping @Sendable () throws -> Void) -> Outcome {
    let result = Locked(Outcome())
    onThread(stackSize: size) {
        do {
            try body()
            result.withLock { $0.returned = true }
        } catch {
            result.withLock { $0.error = error as? InjectionError }
        }
    }
    return result.withLock { $0 }
}

@Suite("Depth")
struct DepthTests {
    @Test("a chain 10,000 keys deep compiles and resolves")
    func deepChainResolves() async {
        let length = Locked(0)
        let thrown = await outcome(stackSize: largeStack) {
            let injector = try Injector(initializerChain(depth: resolvedChainDepth))
            let first = try injector.getInstance(linkKey(0))
            length.withLock { $0 = first.length }
        }
        #expect(thrown.returned)
        #expect(length.withLock { $0 } == resolvedChainDepth)
    }

    @Test("a chain 10,000 keys deep compiles on a thread with a 512 KiB stack")
    func deepChainCompilesOnSmallStack() async {
        let kept = Locked<Injector?>(nil)
        let thrown = await outcome(stackSize: largeStack) {
            let compiled = outcome(stackSize: smallStack) {
                let injector = try Injector(initializerChain(depth: 10_000))
                kept.withLock { $0 = injector }
            }
            #expect(compiled.returned)
            kept.withLock { $0 = nil }
        }
        #expect(thrown.returned)
    }

    @Test("resolving a chain deeper than a 512 KiB stack holds throws tooDeep instead of crashing")
    func deepChainOnSmallStackThrows() async throws {
        let thrown = await outcome(stackSize: largeStack) {
            let injector = try Injector(initializerChain(depth: 10_000))
            let error = outcome(stackSize: smallStack) { _ = try injector.getInstance(linkKey(0)) }
            #expect(error.error?.kind == .tooDeep)
            #expect(error.error?.path.first == linkKey(0).erased)
            guard case .tooDeep(_, let stackSize)? = error.error?.problems.first?.detail else {
                Issue.record("expected tooDeep, got \(String(describing: error.error))")
                return
            }
            #expect(stackSize == smallStack)
        }
        #expect(thrown.returned)
    }

    @Test("closure bindings count their depth across resolvers")
    func closureChainOnSmallStackThrows() async throws {
        let thrown = await outcome(stackSize: largeStack) {
            // Each closure level carries the list of closures above it, so a chain costs the
            // square of its depth; 2,000 levels are well past what a 512 KiB stack holds.
            let injector = try Injector(closureChain(depth: 2_000))
            let error = outcome(stackSize: smallStack) { _ = try injector.getInstance(linkKey(0)) }
            #expect(error.error?.kind == .tooDeep)
            let first = try injector.getInstance(linkKey(0))
            #expect(first.length == 2_000)
        }
        #expect(thrown.returned)
    }

    @Test("a request that fails for depth leaves the injector usable")
    func tooDeepLeavesInjectorUsable() async throws {
        let thrown = await outcome(stackSize: largeStack) {
            let injector = try Injector(initializerChain(depth: 2_000))
            _ = outcome(stackSize: smallStack) { _ = try injector.getInstance(linkKey(0)) }
            let shallow = outcome(stackSize: smallStack) {
                let link = try injector.getInstance(linkKey(1_950))
                #expect(link.length == 50)
            }
            #expect(shallow.returned)
        }
        #expect(thrown.returned)
    }
}

@Suite("Scale")
struct ScaleTests {
    /// A chain of `count` keys whose last key leads back to the one at `back`.
    private func chainWithCycle(count: Int, back: Int) -> Bindings {
        Bindings { binder in
            for index in 0..<count {
                let next = index == count - 1 ? back : index + 1
                binder.bind(linkKey(index)).to(Initializer<Link>([.inject(linkKey(next))]) { _ in Link(length: 0) })
            }
        }
    }

    @Test("a cycle hidden in a 100,000-key graph is found on a 512 KiB stack")
    func cycleInLargeGraph() async {
        let thrown = await outcome(stackSize: smallStack) {
            _ = try Injector(chainWithCycle(count: 100_000, back: 99_997))
        }
        let error = thrown.error
        #expect(error?.kind == .cyclicDependency)
        #expect(error?.problems.count == 1)
        #expect(error?.path == [99_997, 99_998, 99_999, 99_997].map { linkKey($0).erased })
    }

    @Test("a chain of 100,000 aliases, each bound to the next, compiles and resolves on a 512 KiB stack")
    func longAliasChain() async {
        let length = Locked(0)
        let thrown = await outcome(stackSize: smallStack) {
            let injector = try Injector(Bindings { binder in
                for index in 0..<99_999 {
                    binder.bind(linkKey(index)).to(linkKey(index + 1))
                }
                binder.bind(linkKey(99_999)).to(instance: Link(length: 1))
            })
            let first = try injector.getInstance(linkKey(0))
            length.withLock { $0 = first.length }
        }
        #expect(thrown.returned)
        #expect(length.withLock { $0 } == 1)
    }

    @Test("a chain of 100,000 aliases ending at a value built with await compiles on a 512 KiB stack, and a synchronous request names that value")
    func longAliasChainToAwaitedValue() async {
        let thrown = await outcome(stackSize: smallStack) {
            let injector = try Injector(Bindings { binder in
                for index in 0..<99_999 {
                    binder.bind(linkKey(index)).to(linkKey(index + 1))
                }
                binder.bind(linkKey(99_999)).to { _ async in Link(length: 1) }
            })
            _ = try injector.getInstance(linkKey(0))
        }
        #expect(thrown.error?.kind == .needsAwait)
        #expect(thrown.error.map { "\($0)" }?.contains(linkKey(99_999).erased.description) == true)
    }

    @Test("a chain of 10,000 singletons over a main-actor value compiles, and a request off the main actor on a 512 KiB stack names the whole way")
    func longSingletonChainToMainActorValue() async throws {
        // Started: the main-actor type's descriptors are read on the main actor.
        let injector = try await Injector.start(modules: [Bindings { binder in
            for index in 0..<9_999 {
                binder.bind(linkKey(index)).to(Initializer<Link>([.inject(linkKey(index + 1))]) { _ in Link(length: 0) })
                    .in(.singleton)
            }
            binder.bind(linkKey(9_999)).to(Initializer<Link>([.inject(Key<DepthScreen>())]) { _ in Link(length: 1) })
                .in(.singleton)
        }])
        let thrown = await outcome(stackSize: smallStack) {
            _ = try injector.getInstance(linkKey(0))
        }
        #expect(thrown.error?.kind == .offActor)
        #expect(thrown.error?.path.count == 10_001)
        #expect(thrown.error?.path.first == linkKey(0).erased)
        #expect(thrown.error?.path.last == AnyKey(Key<DepthScreen>()))
    }

    @Test("a missing key at the end of a 100,000-key chain is reported with its whole path")
    func missingAtEndOfLargeGraph() async {
        let thrown = await outcome(stackSize: smallStack) {
            _ = try Injector(Bindings { binder in
                for index in 0..<100_000 {
                    binder.bind(linkKey(index)).to(Initializer<Link>([.inject(linkKey(index + 1))]) { _ in Link(length: 0) })
                }
            })
        }
        let error = thrown.error
        #expect(error?.kind == .missingBinding)
        #expect(error?.path.last == linkKey(100_000).erased)
    }
}

@Suite("Releasing deep graphs")
struct DeepReleaseTests {
    @Test("an injector with a chain 10,000 keys deep is released on a thread with a 512 KiB stack")
    func deepChainReleasedOnSmallStack() async {
        let released = await outcome(stackSize: smallStack) {
            let injector = try Injector(initializerChain(depth: 10_000))
            _ = injector
        }
        #expect(released.returned)
    }

    @Test("an injector with a chain 10,000 keys deep that it has resolved is released on a 512 KiB stack")
    func resolvedDeepChainReleasedOnSmallStack() async {
        let injector = Locked<Injector?>(nil)
        let resolved = await outcome(stackSize: largeStack) {
            let built = try Injector(initializerChain(depth: resolvedChainDepth))
            #expect(try built.getInstance(linkKey(0)).length == resolvedChainDepth)
            injector.withLock { $0 = built }
        }
        #expect(resolved.returned)
        let released = await outcome(stackSize: smallStack) { injector.withLock { $0 = nil } }
        #expect(released.returned)
    }
}
