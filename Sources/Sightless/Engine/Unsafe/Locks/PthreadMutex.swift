#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A pthread mutex in memory of its own, which `Locked` and `Monitor` take around every access
/// to the state they own.
///
/// Invariant: `pointer` is allocated and initialized in `init`, destroyed and freed in `deinit`,
/// once, since the mutex cannot be copied; in between it is used only through the pthread
/// functions, which are thread-safe, and it never moves, as a pthread mutex must not.
@safe struct PthreadMutex: ~Copyable {
    let pointer: UnsafeMutablePointer<pthread_mutex_t>

    /// An unlocked mutex.
    init() {
        unsafe pointer = .allocate(capacity: 1)
        unsafe pointer.initialize(to: pthread_mutex_t())
        unsafe pthread_mutex_init(pointer, nil)
    }

    deinit {
        unsafe pthread_mutex_destroy(pointer)
        unsafe pointer.deinitialize(count: 1)
        unsafe pointer.deallocate()
    }

    /// Runs `body` holding the mutex.
    @inline(__always)
    func withLocked<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        unsafe pthread_mutex_lock(pointer)
        defer { unsafe pthread_mutex_unlock(pointer) }
        return try body()
    }
}
