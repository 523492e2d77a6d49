/// A one-time event tasks await: `open()` resumes every waiter, and those that come later at
/// once. A waiting task suspends; no thread blocks.
final class Latch: Sendable {
    private let state = Locked<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    var isOpen: Bool { state.withLock { $0.open } }

    func wait() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}


/// Runs `body` on a thread of its own, off the cooperative pool that the waiting test's tasks
/// need (a pool thread blocked in a join would hold them up), and returns a latch opened once
/// `body` returned.
func onOwnThread(_ body: @escaping @Sendable () -> Void) -> Latch {
    let done = Latch()
    startThread(stackSize: 1 << 20, detached: true) {
        body()
        done.open()
    }
    return done
}
