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

    /// The key of each thread's record (see `ThreadNestingCell`).
    static let slot: pthread_key_t = ThreadNestingCell.makeSlot()
}
