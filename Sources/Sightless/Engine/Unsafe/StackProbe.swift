import CSightlessStack

/// Where the calling thread's stack lies, as plain numbers: the address of a frame, and the
/// bounds of the stack the C library reports (`Sources/CSightlessStack`).
///
/// Invariant: no pointer it takes is read or written through: a local's address and the base of
/// the stack are only turned into numbers, for `StackGuard` to compare.
@usableFromInline
enum StackProbe {
    /// The address of the calling frame, or near it: a local's address, which costs an
    /// instruction where a function call would cost several (and the stack protector's check
    /// four more: the frame address of the package's C target, inlined, cost more than that).
    @inlinable @inline(__always)
    static func here() -> UInt {
        var marker: UInt8 = 0
        return unsafe withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    }

    /// `true` when the package is built with AddressSanitizer, whose frames are several times
    /// the size of an uninstrumented build's: the same depth needs a larger stack.
    static var isAddressSanitized: Bool { sightless_address_sanitizer() != 0 }

    /// The lowest address and the size of the calling thread's stack, from the C library
    /// (`sightless_thread_stack`); `nil` where it cannot tell.
    static func threadStack() -> (low: UInt, size: UInt)? {
        var base: UnsafeMutableRawPointer?
        var size = 0
        guard unsafe sightless_thread_stack(&base, &size) == 0, let base = unsafe base, size > 0 else { return nil }
        return (UInt(bitPattern: base), UInt(size))
    }
}
