/// How the argument of one slot of a `DynamicSignature` is stored, converted from a value of
/// another type, and destroyed, made where the slot's type is known.
///
/// Invariant: `store` and `destroy` are given the address of the slot in a buffer laid out by
/// the slot's signature; `store` initializes it with a value of the slot's type, only when the
/// conversion succeeds, and `destroy` destroys a value of that type placed there.
@safe struct ArgumentSlotStorage: Sendable {
    /// Converts a value of another type into the slot's type and stores it; `false` when it is
    /// not convertible.
    let store: @Sendable (Any, UnsafeMutableRawPointer) -> Bool
    /// Destroys the argument placed at the address.
    let destroy: @Sendable (UnsafeMutableRawPointer) -> Void

    /// The storage of a slot of type `Value`.
    init<Value>(_ type: Value.Type) {
        unsafe store = { value, pointer in
            guard let value = value as? Value else { return false }
            unsafe pointer.initializeMemory(as: Value.self, to: value)
            return true
        }
        unsafe destroy = { pointer in unsafe ArgumentBuffer.destroy(pointer, as: Value.self) }
    }
}
