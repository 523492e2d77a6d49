import Sightless
import Synchronization
import Testing

// Two injectors whose closures ask each other: each request started a fresh depth count, the
// stack guard never looked, and the thread's stack overflowed (a crash, signal 11).

private enum CrossInjector {
    /// Where a closure finds the other injector, set once both exist.
    final class Peer: Sendable {
        private let stored = Locked<Injector?>(nil)
        var injector: Injector? {
            get { stored.withLock { $0 } }
            set { stored.withLock { $0 = newValue } }
        }
    }

    struct Ping: Sendable { let hops: Int }

    static func level(_ index: Int) -> Key<Ping> { Key(named: "level \(index)") }

    /// `count` closure bindings, each asking the peer for the level below its own.
    static func countingDown(from count: Int, peer: Peer) -> Bindings {
        Bindings { binder in
            for index in 1...count {
                binder.bind(level(index)).to { _ in Ping(hops: try peer.injector?.getInstance(level(index - 1)).hops ?? 0) }
            }
            binder.bind(level(0)).to(instance: Ping(hops: 0))
        }
    }

    /// A closure binding of `Ping` that asks the peer for its `Ping`.
    static func asking(_ peer: Peer) -> Bindings {
        Bindings { $0.bind(Ping.self).to { _ in Ping(hops: try peer.injector?.getInstance(Ping.self).hops ?? 0) } }
    }
}

@Suite("Regression: requests of two injectors asking each other")
struct RegressionCrossInjectorRecursionTests {
    @Test("two injectors whose closures ask each other for the same key end in cyclicDependency, not a crash")
    func closuresAskingEachOther() {
        let outcome = regressionRun(stackSize: regressionMainStack) {
            let toB = CrossInjector.Peer(), toA = CrossInjector.Peer()
            let a = try Injector(CrossInjector.asking(toB))
            let b = try Injector(CrossInjector.asking(toA))
            toB.injector = b
            toA.injector = a
            defer { toB.injector = nil; toA.injector = nil }
            _ = try a.getInstance(CrossInjector.Ping.self)
        }
        #expect(outcome.error?.kind == .cyclicDependency, "\(outcome)")
    }

    @Test("two injectors whose closures ask each other for ever new keys end in tooDeep, not a crash")
    func closuresAskingEachOtherForNewKeys() async {
        // 100,000 keys compiled and first built: seconds alone under ThreadSanitizer, minutes
        // beside the rest of the suite on two cores, waited for off the cooperative pool; a
        // hang would still be caught.
        let outcome = await regressionRunOffPool(stackSize: regressionSmallStack, timeout: 600) {
            let toB = CrossInjector.Peer(), toA = CrossInjector.Peer()
            let a = try Injector(CrossInjector.countingDown(from: 50_000, peer: toB))
            let b = try Injector(CrossInjector.countingDown(from: 50_000, peer: toA))
            toB.injector = b
            toA.injector = a
            defer { toB.injector = nil; toA.injector = nil }
            _ = try a.getInstance(CrossInjector.level(50_000))
        }
        #expect(outcome.error?.kind == .tooDeep, "\(outcome)")
    }
}
