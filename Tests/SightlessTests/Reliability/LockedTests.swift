@testable import Sightless
import Testing

/// The locks of the engine order what they guard: under ThreadSanitizer (`.ci/run` runs the
/// suite instrumented), a lock it could not follow would have its state reported as racing, as
/// `Synchronization.Mutex`'s is on Linux once threads contend for it.
@Suite struct LockedTests {
    @Test func lockedOrdersItsState() {
        let counter = Locked(0)
        race(threads: 8) { _ in
            for _ in 0..<20_000 { counter.withLock { $0 += 1 } }
        }
        #expect(counter.withLock { $0 } == 160_000)
    }

    @Test func monitorWakesTheThreadsWaitingForItsState() {
        let turns = Monitor(0)
        race(threads: 4) { thread in
            for round in 0..<500 {
                let turn = round * 4 + thread
                turns.waitUntil { current in current == turn ? () : nil }
                turns.broadcast { $0 += 1 }
            }
        }
        #expect(turns.withLock { $0 } == 2_000)
    }
}
