#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutual-exclusion lock built on `pthread_mutex_t`.
///
/// `Synchronization.Mutex` locks with raw futex calls on Linux, which ThreadSanitizer cannot
/// see; it then reports the data a mutex protects as racing. A pthread mutex is understood by
/// every sanitizer, so apps that run their tests under ThreadSanitizer see no false reports
/// from Sightless. It is taken only off the hot path: while a singleton is first built, and
/// while a type is compiled on its first request.
@safe final class Lock {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        unsafe mutex = .allocate(capacity: 1)
        unsafe mutex.initialize(to: pthread_mutex_t())
        unsafe pthread_mutex_init(mutex, nil)
    }

    deinit {
        unsafe pthread_mutex_destroy(mutex)
        unsafe mutex.deinitialize(count: 1)
        unsafe mutex.deallocate()
    }

    func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        unsafe pthread_mutex_lock(mutex)
        defer { unsafe pthread_mutex_unlock(mutex) }
        return try body()
    }
}
