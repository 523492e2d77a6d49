/// Places the arguments of one request into the buffer its signature describes, and destroys
/// them afterwards. A struct, so that a request allocates nothing for it.
///
/// Invariant: `buffer` is memory the request allocated for `signature` (its `byteCount` and
/// `alignment`), alive until after `destroyPlaced`; `placed` counts the slots initialized, in
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
                              passed: AnyKey.name(of: Argument.self), slots: signature.described),
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
