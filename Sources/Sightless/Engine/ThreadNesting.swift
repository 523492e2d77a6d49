#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What every request on a thread reads when it starts: the bounds of the thread's stack, and
/// how many requests run on the thread, each started inside the one before, with no frame to go
/// on from.
///
/// A request started while an object is built, through a way back in the library handed out
/// (a resolver, a `Lazy`, a `Factory`, an injected `Injector`), goes on from the enclosing
/// request's frame; see `RequestFrame`. An initializer can also start one on an injector it
/// reaches by itself, a global for instance: nothing was handed out, so nothing was published.
/// Every level of every request compares its frame with the thread's floor, so such a recursion
/// ends in `tooDeep` all the same; the count of requests running makes the depth it reports
/// count them too.
@usableFromInline
struct ThreadNesting {
    /// The requests started with no frame to go on from, running on this thread.
    @usableFromInline var running = 0
    /// The thread's stack, as `Nesting` keeps it: the lowest address a level may start at
    /// without a closer look, and the size of the range above it (0 and `UInt.max` when the
    /// bounds cannot be known).
    @usableFromInline let floor: UInt
    @usableFromInline let span: UInt

    init(limits: StackLimits?) {
        if let limits {
            floor = limits.floor
            span = limits.high - limits.floor
        } else {
            floor = 0
            span = .max
        }
    }

    /// This thread's, made on its first request (which looks the thread's stack up) and freed
    /// when the thread exits; `slot` is `ThreadNesting.slot`, which each injector keeps a copy
    /// of (reading the global costs a check that it is initialized, on every request).
    @inlinable @inline(__always)
    static func current(in slot: pthread_key_t) -> UnsafeMutablePointer<ThreadNesting> {
        if let address = unsafe pthread_getspecific(slot) { return unsafe at(address) }
        return unsafe made(in: slot)
    }

    @usableFromInline @inline(never)
    static func made(in slot: pthread_key_t) -> UnsafeMutablePointer<ThreadNesting> {
        let made = UnsafeMutablePointer<ThreadNesting>.allocate(capacity: 1)
        unsafe made.initialize(to: ThreadNesting(limits: StackGuard.limits()))
        unsafe pthread_setspecific(slot, made)
        return unsafe made
    }

    /// The key of each thread's record.
    static let slot: pthread_key_t = {
        var key = pthread_key_t()
        #if canImport(Darwin)
        pthread_key_create(&key) { address in ThreadNesting.at(address).deallocate() }
        #else
        unsafe pthread_key_create(&key) { address in unsafe address.map { unsafe ThreadNesting.at($0).deallocate() } }
        #endif
        return key
    }()
}
