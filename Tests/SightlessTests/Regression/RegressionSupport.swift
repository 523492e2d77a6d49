#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Sightless
import Synchronization
import Testing

// Helpers shared by the regression suites: run a body on a thread of a known stack size, and
// Wait for bodies that may hang with a watchdog that fails the test instead of the suite.

/// 512 KiB: the default stack of a secondary thread on several platforms.
let regressionSmallStack = 512 * 1024
/// 8 MiB: the usual main-thread stack on Linux.
let regressionMainStack = 8 * 1024 * 1024

/// How a body run on another thread ended.
struct RegressionOutcome: Sendable, CustomStringConvertible {
    /// The body returned without throwing.
    var returned = false
    /// The body threw an `InjectionError`.
    var error: InjectionError?
    /// The body threw something else (its description).
    var otherError: String?
    /// The body did not finish before the watchdog fired.
    var timedOut = false

    var description: String {
        if timedOut { return "no result within the time limit (hang)" }
        if returned { return "returned" }
        if let error { return "threw \(error.kind): \(error)" }
        return "threw a non-InjectionError: \(otherError ?? "?")"
    }
}

/// Runs `body` on a new detached thread with a stack of `stackSize` bytes, and waits up to
/// `seconds` for it. A body still running when the time is up is left running (it cannot be
/// stopped), and the outcome says `timedOut`.
func regressionRun(
    stackSize: Int = regressionMainStack, timeout seconds: Double = 60,
    progress: @escaping @Sendable () -> UInt64 = { 0 },
    _ body: @escaping @Sendable () throws -> Void
) -> RegressionOutcome {
    regressionRunAll(count: 1, stackSize: stackSize, timeout: seconds, progress: progress) { _ in try body() }[0]
}

/// `regressionRun` for an async test: the wait is a thread of its own, not one of the few threads
/// of the cooperative pool that every async test of the suite shares, which a body that runs for
/// minutes under a sanitizer would hold, stalling the rest of the suite.
func regressionRunOffPool(
    stackSize: Int = regressionMainStack, timeout seconds: Double = 60,
    progress: @escaping @Sendable () -> UInt64 = { 0 },
    _ body: @escaping @Sendable () throws -> Void
) async -> RegressionOutcome {
    await withCheckedContinuation { continuation in
        regressionStartDetached(stackSize: 512 * 1024) {
            continuation.resume(returning: regressionRun(stackSize: stackSize, timeout: seconds, progress: progress, body))
        }
    }
}

/// Runs `body(index)` on `count` new detached threads that start together, each with a stack of
/// `stackSize` bytes, and waits up to `seconds` for all of them. The outcomes are in thread order;
/// a thread still running at the deadline gives `timedOut`.
///
/// A body that does many small pieces of work reports how far it is with `progress`: each change
/// of its value starts the `seconds` again, so the watchdog catches one piece that hangs, not a
/// run that a loaded machine or a sanitizer makes slow.
func regressionRunAll(
    count: Int, stackSize: Int = regressionMainStack, timeout seconds: Double,
    progress: @escaping @Sendable () -> UInt64 = { 0 },
    _ body: @escaping @Sendable (Int) throws -> Void
) -> [RegressionOutcome] {
    let shared = RegressionThreads(count: count, body: body)
    for index in 0..<count {
        regressionStartDetached(stackSize: stackSize) { shared.run(index) }
    }
    var deadline = regressionNow() + seconds
    var seen = progress()
    while shared.finished.load(ordering: .acquiring) < count, regressionNow() < deadline {
        usleep(5_000)
        let now = progress()
        if now != seen {
            seen = now
            deadline = regressionNow() + seconds
        }
    }
    return shared.outcomes.withLock { outcomes in
        outcomes.map { $0 ?? RegressionOutcome(timedOut: true) }
    }
}

private final class RegressionThreads: Sendable {
    let count: Int
    let body: @Sendable (Int) throws -> Void
    let ready = Atomic<Int>(0)
    let finished = Atomic<Int>(0)
    let outcomes: Locked<[RegressionOutcome?]>

    init(count: Int, body: @escaping @Sendable (Int) throws -> Void) {
        self.count = count
        self.body = body
        self.outcomes = Locked([RegressionOutcome?](repeating: nil, count: count))
    }

    func run(_ index: Int) {
        ready.add(1, ordering: .acquiringAndReleasing)
        while ready.load(ordering: .acquiring) < count { sched_yield() }
        var outcome = RegressionOutcome()
        do {
            try body(index)
            outcome.returned = true
        } catch let error as InjectionError {
            outcome.error = error
        } catch {
            outcome.otherError = "\(error)"
        }
        outcomes.withLock { $0[index] = outcome }
        finished.add(1, ordering: .acquiringAndReleasing)
    }
}

/// Seconds on a monotonic clock.
func regressionNow() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Starts `body` on a new detached thread with a stack of `stackSize` bytes.
func regressionStartDetached(stackSize: Int, _ body: @escaping @Sendable () -> Void) {
    startThread(stackSize: stackSize, detached: true, body)
}

/// A weak reference that `@Sendable` closures may share.
final class RegressionWeak<Object: AnyObject>: @unchecked Sendable {
    weak var object: Object?
    init(_ object: Object? = nil) { self.object = object }
}
