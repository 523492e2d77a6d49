/// A request's dynamic arguments on the stack: 64 bytes, 8-aligned, owned by the request's
/// fast path, which places its arguments here, runs the plan with them and destroys them.
///
/// Invariant: the caller of `withTuple` or `withSlots` compared the arguments with the node's
/// signature first (`DynamicSignature.places(_:matching:)`, `SlotMatcher`): they are exactly
/// the slots' types, in order, and the signature fits in these 64 bytes and their alignment, so
/// each argument lies at its slot's offset. The arguments live in this storage only for the
/// duration of the call, and are destroyed once, after `body` returns or throws.
@safe
@usableFromInline
struct InlineArguments {
    @usableFromInline var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

    @inlinable
    static var zero: InlineArguments { InlineArguments(words: (0, 0, 0, 0, 0, 0, 0, 0)) }

    @inlinable
    init(words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)) {
        self.words = words
    }

    /// Places `arguments`, the tuple of all of a request's arguments, at the start of this
    /// storage, runs `body` with them as the signature `token` laid them out, then destroys them.
    @inlinable @inline(__always)
    mutating func withTuple<Arguments, Result>(
        _ arguments: Arguments, token: ObjectIdentifier, _ body: (ArgumentBuffer) throws -> Result?
    ) throws -> Result? {
        try unsafe withUnsafeMutableBytes(of: &words) { buffer in
            guard let base = buffer.baseAddress else { return nil }
            unsafe ArgumentBuffer.place(arguments, at: base)
            defer { unsafe ArgumentBuffer.destroyPlaced(base, as: Arguments.self) }
            return try unsafe body(ArgumentBuffer(base: UnsafeRawPointer(base), token: token))
        }
    }

    /// Places a request's arguments one by one at `offsets` (`place`), runs `body` with them as
    /// the signature `token` laid them out, then destroys them (`destroy`, walking the same
    /// arguments in the same order).
    @inlinable @inline(__always)
    mutating func withSlots<Result>(
        offsets: [Int], token: ObjectIdentifier,
        place: (inout SlotPlacer) -> Void, destroy: (inout SlotPlacer) -> Void,
        _ body: (ArgumentBuffer) throws -> Result?
    ) throws -> Result? {
        try unsafe withUnsafeMutableBytes(of: &words) { buffer in
            guard let base = buffer.baseAddress else { return nil }
            var placer = unsafe SlotPlacer(base: base, offsets: offsets)
            place(&placer)
            defer {
                var destroyer = unsafe SlotPlacer(base: base, offsets: offsets)
                destroy(&destroyer)
            }
            return try unsafe body(ArgumentBuffer(base: UnsafeRawPointer(base), token: token))
        }
    }
}
