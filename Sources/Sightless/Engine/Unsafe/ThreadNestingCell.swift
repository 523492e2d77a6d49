#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// This thread's `ThreadNesting`: the cell a thread's slot holds, made on the thread's first
/// request (which looks the thread's stack up) and freed when the thread exits. Only the thread
/// it was made for reads or writes it.
///
/// Invariant: the thread's slot (`ThreadNesting.slot`, made by `makeSlot`) holds nothing or the
/// address of the `ThreadNesting` that `made(in:)` allocated and initialized for this thread,
/// which the slot's destructor frees when the thread exits; a cell is read only on the thread
/// it was found on, while that thread runs a request, so before it exits.
@safe @usableFromInline
struct ThreadNestingCell {
    @usableFromInline let pointer: UnsafeMutablePointer<ThreadNesting>

    @inlinable @inline(__always)
    init(pointer: UnsafeMutablePointer<ThreadNesting>) { unsafe self.pointer = pointer }

    /// This thread's, made now if the thread has none; `slot` is `ThreadNesting.slot`, which each
    /// injector keeps a copy of (reading the global costs a check that it is initialized, on
    /// every request).
    @inlinable @inline(__always)
    static func current(in slot: pthread_key_t) -> ThreadNestingCell {
        if let address = unsafe pthread_getspecific(slot) {
            return unsafe ThreadNestingCell(pointer: address.assumingMemoryBound(to: ThreadNesting.self))
        }
        return made(in: slot)
    }

    @usableFromInline @inline(never)
    static func made(in slot: pthread_key_t) -> ThreadNestingCell {
        let made = UnsafeMutablePointer<ThreadNesting>.allocate(capacity: 1)
        unsafe made.initialize(to: ThreadNesting(limits: StackGuard.limits()))
        unsafe pthread_setspecific(slot, made)
        return unsafe ThreadNestingCell(pointer: made)
    }

    /// The thread's record as it is now.
    @inlinable @inline(__always)
    var record: ThreadNesting { unsafe pointer.pointee }

    /// One more request with no frame to go on from runs on this thread.
    @inlinable @inline(__always)
    func enter() { unsafe pointer.pointee.running &+= 1 }

    /// A request `enter()` counted ends.
    @inlinable @inline(__always)
    func leave() { unsafe pointer.pointee.running &-= 1 }

    /// The key of each thread's record, whose destructor frees the record when the thread exits.
    static func makeSlot() -> pthread_key_t {
        var key = pthread_key_t()
        #if canImport(Darwin)
        unsafe pthread_key_create(&key) { address in
            unsafe address.assumingMemoryBound(to: ThreadNesting.self).deallocate()
        }
        #else
        unsafe pthread_key_create(&key) { address in
            unsafe address.map { unsafe $0.assumingMemoryBound(to: ThreadNesting.self).deallocate() }
        }
        #endif
        return key
    }
}
