/// Whether `type` is an existential (a protocol type such as `any Api`, a composition, `Any`).
///
/// Invariant: Swift's stable ABI lays out every type's metadata with its kind in the first
/// word; existential types have kind 0x303 (`Existential`) or 0x307 (`ExtendedExistential`).
/// Class metadata begins with 0 or an isa pointer, never one of these small values.
func isExistential(_ type: Any.Type) -> Bool {
    let kind = unsafe unsafeBitCast(type, to: UnsafePointer<UInt>.self).pointee
    return kind == 0x303 || kind == 0x307
}

/// Whether values of `Value` may be moved by copying their bytes, as far as public Swift tells:
/// a class reference may. Nearly every Swift type may, but only the runtime knows which (a
/// `BitwiseCopyable` cast succeeds for every type), so any other type is taken not to be, and
/// the code that asks keeps it where it never moves by bytes.
@inlinable @inline(__always)
func isMovableByBytes<Value>(_ type: Value.Type) -> Bool {
    Value.self is AnyObject.Type
}
