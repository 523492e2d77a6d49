#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How many requests run on this thread, each started inside the one before, with no frame to
/// go on from.
///
/// A request started while an object is built, through a way back in the library handed out
/// (a resolver, a `Lazy`, a `Factory`, an injected `Injector`), goes on from the enclosing
/// request's frame; see `RequestFrame`. An initializer can also start one on an injector it
/// reaches by itself, a global for instance: nothing was handed out, so nothing was published.
/// Each such request would start counting its levels from zero, and an initializer asking for
/// its own type that way would recurse until the stack overflows. So every request that runs a
/// plan counts itself here, and one that finds others running below it checks the stack at its
/// first level, as deep as all of them.
@usableFromInline
struct ThreadNesting {
    /// The requests started with no frame to go on from, running on this thread.
    @usableFromInline var running = 0
    /// The thread's stack limits, looked up by the first request nested this way (0 until then,
    /// 1 when they cannot be known).
    var floor: UInt = 0
    var ceiling: UInt = 0

    /// This thread's, made on its first request and freed when the thread exits; `slot` is
    /// `ThreadNesting.slot`, which each injector keeps a copy of (reading the global costs a
    /// check that it is initialized, on every request).
    @inlinable @inline(__always)
    static func current(in slot: pthread_key_t) -> UnsafeMutablePointer<ThreadNesting> {
        if let address = pthread_getspecific(slot) { return at(address) }
        return made(in: slot)
    }

    @usableFromInline @inline(never)
    static func made(in slot: pthread_key_t) -> UnsafeMutablePointer<ThreadNesting> {
        let made = UnsafeMutablePointer<ThreadNesting>.allocate(capacity: 1)
        made.initialize(to: ThreadNesting())
        pthread_setspecific(slot, made)
        return made
    }

    /// The key of each thread's count.
    static let slot: pthread_key_t = {
        var key = pthread_key_t()
        #if canImport(Darwin)
        pthread_key_create(&key) { address in ThreadNesting.at(address).deallocate() }
        #else
        pthread_key_create(&key) { address in address.map { ThreadNesting.at($0).deallocate() } }
        #endif
        return key
    }()
}

extension Nesting {
    /// Goes on from the requests running below this one on the thread with no frame: each is
    /// taken for a closure's level, and the stack is checked at the next level.
    @usableFromInline @inline(never)
    mutating func goOn(below thread: UnsafeMutablePointer<ThreadNesting>) {
        if thread.pointee.floor == 0 {
            let limits = StackGuard.limits()
            thread.pointee.floor = limits?.floor ?? 1
            thread.pointee.ceiling = limits?.high ?? 0
        }
        depth = thread.pointee.running
        weight = thread.pointee.running &* StackGuard.closureWeight
        nextCheck = weight
        floor = thread.pointee.floor
        ceiling = thread.pointee.ceiling
    }
}
