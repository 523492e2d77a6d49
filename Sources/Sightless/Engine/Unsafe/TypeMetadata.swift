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

/// The wrapped type of `type` when it is an `Optional`, read from its metadata rather than
/// asked of the runtime as a conformance, whose first lookup for a type scans every
/// conformance record of the process.
///
/// Invariant: the metadata of `Optional<Wrapped>`, and of no other type, has kind 0x202
/// (`Optional`); as in every generic value type's metadata, the generic arguments follow the
/// kind and the descriptor, so the third word is the metadata of `Wrapped`.
func optionalWrappedType(_ type: Any.Type) -> Any.Type? {
    let words = unsafe unsafeBitCast(type, to: UnsafePointer<UInt>.self)
    guard unsafe words.pointee == 0x202 else { return nil }
    return unsafe unsafeBitCast(words[2], to: Any.Type.self)
}

/// Whether `type` is a struct: the only kind a member injector is, so that no other type is
/// asked whether it is one.
///
/// Invariant: struct metadata has kind 0x200 in its first word (see `isExistential`).
func isStruct(_ type: Any.Type) -> Bool {
    unsafe unsafeBitCast(type, to: UnsafePointer<UInt>.self).pointee == 0x200
}
