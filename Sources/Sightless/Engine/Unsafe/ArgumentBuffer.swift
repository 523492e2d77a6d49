/// The dynamic arguments of one request, placed by `ArgumentPlacer` (or by a request's fast
/// path) in memory the request owns, and read by the plans of the requested node.
///
/// Invariant: `base` points to memory the request that made the buffer allocated (on its stack
/// or the heap), sized and aligned by the signature whose token is `token`, and frees only
/// after every plan reading it has returned; a plan reads it only after comparing `token` with
/// its own signature's (`DynamicSlot.read`).
@usableFromInline
@safe struct ArgumentBuffer {
    @usableFromInline let base: UnsafeRawPointer
    /// The identity of the signature that laid the arguments out.
    @usableFromInline let token: ObjectIdentifier

    @usableFromInline
    init(base: UnsafeRawPointer, token: ObjectIdentifier) {
        unsafe self.base = base
        self.token = token
    }
}

extension ArgumentBuffer {
    /// Reads the dynamic argument at `offset`.
    ///
    /// Invariant: the buffer was filled by `ArgumentPlacer` from the signature whose token the
    /// caller compared with `token`, and that signature put a `Value` at `offset`. The plan that
    /// reads compares tokens first (see `DynamicSlot.read`), so a request whose arguments were
    /// laid out for another node throws instead of reading them.
    @inlinable @inline(__always)
    func read<Value>(at offset: Int, as type: Value.Type) -> Value {
        unsafe (base + offset).assumingMemoryBound(to: Value.self).pointee
    }

    /// Places an argument of a request's fast path (`Injector.runPlacing`, and
    /// `Injector.awaitedRequestPlacing` for an awaited request), or all of a parameter pack's
    /// arguments as one tuple at the buffer's start (`DynamicSignature.places(_:matching:)`
    /// found the tuple's elements to be exactly the slots' types, in order, so each lies at its
    /// slot's offset).
    @inlinable @inline(__always)
    static func place<Value>(_ value: Value, at pointer: UnsafeMutableRawPointer) {
        unsafe pointer.initializeMemory(as: Value.self, to: value)
    }

    /// Destroys an argument placed by `place(_:at:)`.
    ///
    /// Invariant: `Injector.runPlacing` (or `Injector.awaitedRequestPlacing`) placed a `Value`
    /// (one argument, or the tuple of a parameter pack's) at `pointer` with `place(_:at:)` in the
    /// same request, walking the same arguments in the same order, and destroys it once, after
    /// the plan has returned or thrown (an awaited plan is awaited to its end before, so nothing
    /// reads the arguments after).
    @inlinable @inline(__always)
    static func destroyPlaced<Value>(_ pointer: UnsafeMutableRawPointer, as type: Value.Type) {
        _ = unsafe pointer.assumingMemoryBound(to: Value.self).move()
    }

    /// Destroys the argument at `offset`, placed there as a `Value` by `ArgumentPlacer`.
    static func destroy<Value>(_ pointer: UnsafeMutableRawPointer, as type: Value.Type) {
        _ = unsafe pointer.assumingMemoryBound(to: Value.self).deinitialize(count: 1)
    }
}

/// The dynamic arguments of an awaited request, read by the requested node's synchronous
/// section, possibly on another thread than the one that placed them.
///
/// Invariant: the request that placed the arguments awaits the plan that reads them and
/// destroys them only after it returns; only the requested node's own section reads them, one
/// read at a time, never concurrently.
struct SharedArguments: @unchecked Sendable {
    let buffer: ArgumentBuffer
}
