/// The dynamic arguments of an awaited request, in memory allocated for the node's signature
/// that lives until the awaited plan returns: a request that awaits cannot keep them on its
/// stack, as a synchronous one does (`InlineArguments`, `ArgumentPlacer.withBuffer`).
///
/// Invariant: each function allocates a buffer of the signature's `byteCount` (at least one
/// byte) and `alignment`, places the request's arguments in it, runs `body` with them, then
/// destroys exactly the arguments it placed, once, and frees the buffer, after `body` returns
/// or throws. The caller of `withTuple` or `withSlots` compared the arguments with the
/// signature first (`DynamicSignature.places(_:matching:)`, `SlotMatcher`): they are exactly the
/// slots' types, in order, so each lies at its slot's offset; `withPlacer` checks each argument
/// as it places it (`ArgumentPlacer`).
@usableFromInline
@safe enum AwaitedArguments {
    /// Places `arguments`, the tuple of all of a request's arguments, at the start of a buffer
    /// for `signature`, awaits `body` with them, then destroys them and frees the buffer.
    @inlinable @inline(__always) nonisolated(nonsending)
    static func withTuple<Arguments, Result>(
        _ arguments: Arguments, for signature: DynamicSignature,
        _ body: nonisolated(nonsending) (ArgumentBuffer) async throws(InjectionError) -> Result
    ) async throws(InjectionError) -> Result {
        let base = UnsafeMutableRawPointer.allocate(byteCount: max(signature.byteCount, 1), alignment: signature.alignment)
        defer { unsafe base.deallocate() }
        unsafe ArgumentBuffer.place(arguments, at: base)
        defer { unsafe ArgumentBuffer.destroyPlaced(base, as: Arguments.self) }
        return unsafe try await body(ArgumentBuffer(base: UnsafeRawPointer(base), token: signature.tokenIdentity))
    }

    /// Places a request's arguments one by one at the offsets of `signature` (`place`), awaits
    /// `body` with them, then destroys them (`destroy`, walking the same arguments in the same
    /// order) and frees the buffer.
    @inlinable @inline(__always) nonisolated(nonsending)
    static func withSlots<Result>(
        for signature: DynamicSignature,
        place: (inout SlotPlacer) -> Void, destroy: (inout SlotPlacer) -> Void,
        _ body: nonisolated(nonsending) (ArgumentBuffer) async throws(InjectionError) -> Result
    ) async throws(InjectionError) -> Result {
        let base = UnsafeMutableRawPointer.allocate(byteCount: max(signature.byteCount, 1), alignment: signature.alignment)
        defer { unsafe base.deallocate() }
        var placer = unsafe SlotPlacer(base: base, offsets: signature.offsets)
        place(&placer)
        defer {
            var destroyer = unsafe SlotPlacer(base: base, offsets: signature.offsets)
            destroy(&destroyer)
        }
        return unsafe try await body(ArgumentBuffer(base: UnsafeRawPointer(base), token: signature.tokenIdentity))
    }

    /// Places a request's arguments with `place`, which checks each against its slot and may
    /// throw, awaits `body` with them, then destroys those placed and frees the buffer.
    nonisolated(nonsending)
    static func withPlacer<Result>(
        for signature: DynamicSignature, key: AnyKey,
        place: (inout ArgumentPlacer) throws(InjectionError) -> Void,
        _ body: nonisolated(nonsending) (ArgumentBuffer) async throws(InjectionError) -> Result
    ) async throws(InjectionError) -> Result {
        let base = UnsafeMutableRawPointer.allocate(byteCount: max(signature.byteCount, 1), alignment: signature.alignment)
        defer { unsafe base.deallocate() }
        var placer = unsafe ArgumentPlacer(signature: signature, buffer: base, key: key)
        defer { placer.destroyPlaced() }
        try place(&placer)
        return try await body(placer.arguments)
    }
}
