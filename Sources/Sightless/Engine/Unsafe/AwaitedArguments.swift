/// The dynamic arguments of an awaited request, in memory allocated for the node's signature
/// that lives until the awaited plan returns: a request that awaits cannot keep them on its
/// stack, as a synchronous one does (`InlineArguments`, `ArgumentPlacer.withBuffer`).
///
/// Invariant: a value owns a buffer of its signature's `byteCount` (at least one byte) and
/// `alignment`, allocated when it is made and freed when it ends (`deinit`), after every use.
/// The request that makes it places its arguments once (`placeTuple`, `placeSlots`), having
/// compared them with the signature first (`DynamicSignature.places(_:matching:)`,
/// `SlotMatcher`): they are exactly the slots' types, in order, so each lies at its slot's
/// offset; it reads them only through `arguments` while its plan runs, and destroys them once,
/// walking the same arguments in the same order (`destroyTuple`, `destroySlots`), once the plan
/// has returned or thrown. `withPlacer` does all of this itself.
@usableFromInline
@safe struct AwaitedArguments: ~Copyable {
    @usableFromInline let base: UnsafeMutableRawPointer
    @usableFromInline let token: ObjectIdentifier

    /// A buffer laid out for `signature`, with nothing placed yet.
    @inlinable @inline(__always)
    init(for signature: DynamicSignature) {
        unsafe base = .allocate(byteCount: max(signature.byteCount, 1), alignment: signature.alignment)
        token = signature.tokenIdentity
    }

    @inlinable
    deinit {
        unsafe base.deallocate()
    }

    /// The arguments placed, as the node's plans read them.
    @inlinable @inline(__always)
    var arguments: ArgumentBuffer { unsafe ArgumentBuffer(base: UnsafeRawPointer(base), token: token) }

    /// Places `arguments`, the tuple of all of a request's arguments, at the start of the buffer.
    @inlinable @inline(__always)
    func placeTuple<Arguments>(_ arguments: Arguments) {
        unsafe ArgumentBuffer.place(arguments, at: base)
    }

    /// Destroys the tuple `placeTuple` placed.
    @inlinable @inline(__always)
    func destroyTuple<Arguments>(_ type: Arguments.Type) {
        unsafe ArgumentBuffer.destroyPlaced(base, as: Arguments.self)
    }

    /// Places a request's arguments one by one at `offsets`, the signature's (`place`).
    @inlinable @inline(__always)
    func placeSlots(_ offsets: [Int], _ place: (inout SlotPlacer) -> Void) {
        var placer = unsafe SlotPlacer(base: base, offsets: offsets)
        place(&placer)
    }

    /// Destroys the arguments `placeSlots` placed (`destroy`, walking the same arguments in the
    /// same order).
    @inlinable @inline(__always)
    func destroySlots(_ offsets: [Int], _ destroy: (inout SlotPlacer) -> Void) {
        var destroyer = unsafe SlotPlacer(base: base, offsets: offsets)
        destroy(&destroyer)
    }
}

extension AwaitedArguments {
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
