/// Places a request's arguments at their slots' offsets, in order, or destroys them.
///
/// Invariant: `base` is the buffer a request's fast path made for the signature whose `offsets`
/// these are, alive while the placer is used; the fast path places the request's arguments,
/// exactly the slots' types in order (it compared them first), then destroys them with a second
/// placer walking the same arguments in the same order, once the plan has returned or thrown.
@usableFromInline
@safe struct SlotPlacer {
    @usableFromInline let base: UnsafeMutableRawPointer
    @usableFromInline let offsets: [Int]
    @usableFromInline var index = 0

    @inlinable @inline(__always)
    init(base: UnsafeMutableRawPointer, offsets: [Int]) {
        unsafe self.base = base
        self.offsets = offsets
    }

    @inlinable @inline(__always)
    mutating func place<Argument>(_ argument: Argument) {
        unsafe ArgumentBuffer.place(argument, at: base + offsets[index])
        index &+= 1
    }

    @inlinable @inline(__always)
    mutating func destroy<Argument>(_ type: Argument.Type) {
        unsafe ArgumentBuffer.destroyPlaced(base + offsets[index], as: Argument.self)
        index &+= 1
    }
}
