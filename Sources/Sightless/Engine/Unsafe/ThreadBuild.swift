#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The synchronous build running on this thread whose value may read dependencies where it
/// stands (`BuildReads`), kept in a thread's slot of its own. A synchronous build never
/// suspends, so the thread it started on runs it to the end: a slot of the thread is its scope,
/// set and restored around the build without a closure, so that a first build nests no frame
/// more than a later one (a deep graph's first request is as deep as its next).
///
/// Invariant: the slot holds nothing or a `BuildReads` retained once for the slot, put there by
/// `enter(_:)` and released by `leave(restoring:)` (or by the slot's destructor, should a thread
/// exit with one set); only this type reads or writes the slot, and only for the calling thread.
/// A caller that does not pair `enter` and `leave` in order leaves the wrong build current, never
/// a dangling one.
@safe enum ThreadBuild {
    private static let slot: pthread_key_t = {
        var key = pthread_key_t()
        #if canImport(Darwin)
        unsafe pthread_key_create(&key) { address in
            unsafe Unmanaged<BuildReads>.fromOpaque(address).release()
        }
        #else
        unsafe pthread_key_create(&key) { address in
            unsafe address.map { unsafe Unmanaged<BuildReads>.fromOpaque($0).release() }
        }
        #endif
        return key
    }()

    /// The build current on this thread, if any.
    static var current: BuildReads? {
        unsafe pthread_getspecific(slot).map { unsafe Unmanaged<BuildReads>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Makes `reads` the build current on this thread; returns the one it hides, which
    /// `leave(restoring:)` makes current again when the build ends.
    static func enter(_ reads: BuildReads) -> BuildReads? {
        let hidden = unsafe pthread_getspecific(slot).map { unsafe Unmanaged<BuildReads>.fromOpaque($0).takeRetainedValue() }
        unsafe pthread_setspecific(slot, Unmanaged.passRetained(reads).toOpaque())
        return hidden
    }

    /// Ends the build current on this thread, making `hidden` (what `enter(_:)` returned)
    /// current again.
    static func leave(restoring hidden: BuildReads?) {
        if let current = unsafe pthread_getspecific(slot) { unsafe Unmanaged<BuildReads>.fromOpaque(current).release() }
        unsafe pthread_setspecific(slot, hidden.map { unsafe Unmanaged.passRetained($0).toOpaque() })
    }

    /// Runs `body` with no build current on this thread: a scope bound inside a build (a
    /// `withCurrent` body an initializer runs) is the innermost for what it makes.
    static func outside<Result, Failure>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        guard let hidden = unsafe pthread_getspecific(slot) else { return try body() }
        pthread_setspecific(slot, nil)
        defer { unsafe pthread_setspecific(slot, hidden) }
        return try body()
    }
}
