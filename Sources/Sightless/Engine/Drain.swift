import Synchronization

/// The draining shutdowns of one family of injectors (`Injector.awaitShutDown(draining:)`):
/// how many began, and the tasks waiting for the `withChild` bodies in flight below their
/// injector to end.
///
/// A body counts itself in its parent's lifecycle (`InjectorLifecycle.enterBody`) and, when
/// its count falls to zero while a drain began in the family, wakes every waiting drain, which
/// counts its injector's bodies again: a wait suspends its task, never a thread, and is woken
/// once more at its deadline or when its task is cancelled.
final class Drain: Sendable {
    /// How many draining shutdowns began in the family: while none has, a body ending wakes
    /// nobody and a body starting asks no parent whether it drains.
    let started = Atomic<Int>(0)
    private let state = Locked(Waiters())

    private struct Waiters {
        var next = 0
        /// The waits under way: their continuation while one is suspended.
        var pending: [Int: CheckedContinuation<Void, Never>?] = [:]
        /// The waits whose deadline passed, or whose task was cancelled.
        var expired: Set<Int> = []
    }

    init() {}

    /// Wakes every waiting drain, which counts its bodies again.
    func wakeAll() {
        let woken = state.withLock { waiters in
            var woken: [CheckedContinuation<Void, Never>] = []
            for (id, continuation) in waiters.pending {
                if let continuation { woken.append(continuation) }
                waiters.pending[id] = .some(nil)
            }
            return woken
        }
        for continuation in woken { continuation.resume() }
    }

    /// Waits until `drained` is true, until `deadline` or until the task is cancelled:
    /// `true` when `drained` became true. `drained` is asked under the waiters' lock, so that a
    /// body ending between the question and the wait still wakes it.
    nonisolated(nonsending)
    func wait(until drained: () -> Bool, deadline: ContinuousClock.Instant) async -> Bool {
        let id = state.withLock { waiters in
            waiters.next += 1
            waiters.pending[waiters.next] = .some(nil)
            return waiters.next
        }
        return await withTaskGroup(of: Void.self, returning: Bool.self) { group in
            // The deadline, or the drain's cancellation, which cancels this child task.
            group.addTask { [self] in
                try? await Task.sleep(until: deadline, clock: .continuous)
                expire(id)
            }
            defer {
                group.cancelAll()
                state.withLock { waiters in
                    waiters.pending[id] = nil
                    waiters.expired.remove(id)
                }
            }
            while true {
                let outcome = state.withLock { waiters -> Bool? in
                    if drained() { return true }
                    return waiters.expired.contains(id) ? false : nil
                }
                if let outcome { return outcome }
                await withCheckedContinuation { continuation in
                    let now = state.withLock { waiters -> Bool in
                        if drained() || waiters.expired.contains(id) { return true }
                        waiters.pending[id] = continuation
                        return false
                    }
                    if now { continuation.resume() }
                }
            }
        }
    }

    /// The wait `id` reached its deadline, or its task was cancelled: it stops waiting.
    private func expire(_ id: Int) {
        let continuation = state.withLock { waiters -> CheckedContinuation<Void, Never>? in
            guard let pending = waiters.pending[id] else { return nil }
            waiters.expired.insert(id)
            waiters.pending[id] = .some(nil)
            return pending
        }
        continuation?.resume()
    }
}
