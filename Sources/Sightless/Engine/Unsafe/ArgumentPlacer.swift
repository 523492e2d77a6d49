/// Places the arguments of one request into the buffer its signature describes, and destroys
/// them afterwards. A struct, so that a request allocates nothing for it.
///
/// Invariant: `buffer` is memory `withBuffer(for:key:_:)` or `AwaitedArguments` made for
/// `signature` (its `byteCount` and `alignment`), alive until after `destroyPlaced`, which they
/// call once the request's plan has returned or thrown; `placed` counts the slots initialized, in
/// order, each with a value of its slot's type, and `destroyPlaced` destroys exactly those.
@safe struct ArgumentPlacer {
    private let signature: DynamicSignature
    private let buffer: UnsafeMutableRawPointer
    private let key: AnyKey
    private var placed = 0

    init(signature: DynamicSignature, buffer: UnsafeMutableRawPointer, key: AnyKey) {
        self.signature = signature
        unsafe self.buffer = buffer
        self.key = key
    }

    var arguments: ArgumentBuffer { unsafe ArgumentBuffer(base: UnsafeRawPointer(buffer), token: ObjectIdentifier(signature.token)) }

    mutating func place<Argument>(_ argument: Argument) throws(InjectionError) {
        // Read the two fields the common case needs rather than copying the whole slot.
        let pointer = unsafe buffer + signature.slots[placed].offset
        if ObjectIdentifier(Argument.self) == ObjectIdentifier(signature.slots[placed].type) {
            unsafe pointer.initializeMemory(as: Argument.self, to: argument)
            placed += 1
            return
        }
        let slot = signature.slots[placed]
        if unsafe !slot.storage.store(argument, pointer) {
            throw InjectionError(
                .argumentType(key: key, position: placed + 1, slot: slot.described,
                              passed: AnyKey(type: Argument.self, name: nil), slots: signature.described),
                path: [key], location: slot.location)
        }
        placed += 1
    }

    func destroyPlaced() {
        for slot in signature.slots.prefix(placed) {
            unsafe slot.storage.destroy(buffer + slot.offset)
        }
    }
}

extension ArgumentPlacer {
    /// Runs `body` with a placer over a buffer laid out for `signature`, then destroys the
    /// arguments `body` placed and frees the buffer, whether `body` returned or threw. A buffer
    /// of at most 64 bytes, 8-aligned, lies on the caller's stack; a larger one is allocated.
    @inline(__always)
    static func withBuffer<Result>(
        for signature: DynamicSignature, key: AnyKey, _ body: (inout ArgumentPlacer) throws(InjectionError) -> Result
    ) throws(InjectionError) -> Result {
        typealias Inline = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
        if signature.byteCount <= MemoryLayout<Inline>.size, signature.alignment <= MemoryLayout<Inline>.alignment {
            var storage: Inline = (0, 0, 0, 0, 0, 0, 0, 0)
            return unsafe try withUnsafeMutableBytes(of: &storage) { (buffer) throws(InjectionError) -> Result in
                guard let base = buffer.baseAddress else {
                    throw InjectionError(.internalInconsistency(.argumentLayout(key: key)), path: [key])
                }
                return unsafe try placing(in: base, signature: signature, key: key, body)
            }
        }
        let base = UnsafeMutableRawPointer.allocate(byteCount: signature.byteCount, alignment: signature.alignment)
        defer { unsafe base.deallocate() }
        return unsafe try placing(in: base, signature: signature, key: key, body)
    }

    /// Runs `body` with a placer over `buffer`, then destroys what it placed.
    @inline(__always)
    private static func placing<Result>(
        in buffer: UnsafeMutableRawPointer, signature: DynamicSignature, key: AnyKey,
        _ body: (inout ArgumentPlacer) throws(InjectionError) -> Result
    ) throws(InjectionError) -> Result {
        var placer = unsafe ArgumentPlacer(signature: signature, buffer: buffer, key: key)
        defer { placer.destroyPlaced() }
        return try body(&placer)
    }
}
