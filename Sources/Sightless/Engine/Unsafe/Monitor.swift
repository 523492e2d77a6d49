#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value of `State` behind a pthread mutex, with a condition its threads wait on until the
/// state lets them go on: `withLock` and `waitUntil` are the only ways to the state.
///
/// Pthread for the reason `Locked` gives: ThreadSanitizer follows it, and the suite's
/// instrumented run holds the state guarded here to it.
///
/// Invariant: `condition` is allocated and initialized in `init`, destroyed and freed in
/// `deinit`, and used only through the pthread functions, which are thread-safe, with `mutex`;
/// `state` is read and written only while this thread holds the mutex (a wait releases it, and
/// `body` runs again, with the state as it is then, once the wait takes it back). Two accesses
/// to it therefore never overlap, and the runtime does not check each one for exclusivity
/// (`@exclusivity(unchecked)`; see `Locked`).
@safe final class Monitor<State>: @unchecked Sendable {
    private let mutex = PthreadMutex()
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    @exclusivity(unchecked) private var state: State

    /// A monitor holding `state`.
    init(_ state: State) {
        unsafe self.state = state
        unsafe condition = .allocate(capacity: 1)
        unsafe condition.initialize(to: pthread_cond_t())
        unsafe pthread_cond_init(condition, nil)
    }

    deinit {
        unsafe pthread_cond_destroy(condition)
        unsafe condition.deinitialize(count: 1)
        unsafe condition.deallocate()
    }

    /// Runs `body` with the state, under the lock.
    func withLock<Result, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try mutex.withLocked { () throws(Failure) -> Result in try unsafe body(&state) }
    }

    /// Runs `body` with the state, under the lock, until it returns a result: each time it
    /// returns `nil`, the thread waits until another one calls `broadcast`, then runs it again.
    func waitUntil<Result>(_ body: (inout State) -> Result?) -> Result {
        mutex.withLocked {
            while true {
                if let result = unsafe body(&state) { return result }
                unsafe pthread_cond_wait(condition, mutex.pointer)
            }
        }
    }

    /// Runs `body` with the state, under the lock, then wakes every thread in `waitUntil`.
    func broadcast<Result>(after body: (inout State) -> Result) -> Result {
        mutex.withLocked {
            let result = unsafe body(&state)
            unsafe pthread_cond_broadcast(condition)
            return result
        }
    }
}
