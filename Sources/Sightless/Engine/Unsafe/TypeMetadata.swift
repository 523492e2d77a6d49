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

/// The identity of the struct or class declaration that `type` is an instance of, read from its
/// metadata: one value for every instance of a generic type (`Lazy<A>` and `Lazy<B>`), `nil` for
/// any other kind of type. Public Swift tells an instance of a generic type only by asking the
/// runtime for a conformance, whose first lookup for a type scans every conformance record of the
/// process.
///
/// Invariant: the metadata of a struct holds the address of its nominal type descriptor in its
/// second word, after its kind (0x200). The metadata of a Swift class begins with 0 (without
/// Objective-C interoperation) or with an isa pointer (with it; never a small kind), and holds
/// the descriptor after the superclass and four words of sizes and flags, in its sixth word; where
/// the Objective-C runtime's three words of cache and data come first, in its ninth, and there
/// only in a class whose data word marks it as a Swift class (one of its two low bits), which an
/// Objective-C class's is not.
func nominalTypeIdentity(of type: Any.Type) -> UInt? {
    let words = unsafe unsafeBitCast(type, to: UnsafePointer<UInt>.self)
    if unsafe words.pointee == 0x200 { return unsafe words[1] }
    return swiftClassIdentity(of: type)
}

/// The identity of the Swift class that `type` is an instance of (see `nominalTypeIdentity`),
/// `nil` when `type` is not a Swift class.
func swiftClassIdentity(of type: Any.Type) -> UInt? {
    let words = unsafe unsafeBitCast(type, to: UnsafePointer<UInt>.self)
    let kind = unsafe words.pointee
    #if canImport(ObjectiveC)
    guard kind > 0x7FF, unsafe words[4] & 3 != 0 else { return nil }
    return unsafe words[8]
    #else
    guard kind == 0 else { return nil }
    return unsafe words[5]
    #endif
}

/// Where the metadata of a generic root class of one generic parameter (`Lazy<Value>`) holds its
/// argument, learnt from two instances of it whose arguments are known, and checked against them:
/// `nil` when what they hold is not as expected, and the caller then asks the runtime.
///
/// Invariant: after the descriptor, a Swift class's metadata holds its instance variable
/// destroyer, then, in a class with no superclass, its generic arguments. The word holding the
/// size of the metadata and the offset of its address point (the word before the descriptor's
/// pair of sizes and flags) bounds what the instances are read at; the word found is read
/// otherwise only in the metadata of an instance of the same class, which has the same layout.
struct GenericClassLayout: Sendable {
    /// The identity of the class (`swiftClassIdentity`).
    let identity: UInt
    private let argumentWord: Int

    /// The layout of the class of which `first` and `second` are instances, with the arguments
    /// `firstArgument` and `secondArgument`, which differ.
    init?(_ first: Any.Type, argument firstArgument: Any.Type, _ second: Any.Type, argument secondArgument: Any.Type) {
        guard firstArgument != secondArgument,
              let identity = swiftClassIdentity(of: first), swiftClassIdentity(of: second) == identity else { return nil }
        #if canImport(ObjectiveC)
        let (word, sizes) = (10, 7)
        #else
        let (word, sizes) = (7, 4)
        #endif
        let firstWords = unsafe unsafeBitCast(first, to: UnsafePointer<UInt>.self)
        let secondWords = unsafe unsafeBitCast(second, to: UnsafePointer<UInt>.self)
        // The metadata's size in bytes, and where in it the address point is, in the low and
        // high halves: the words after the address point are those that may be read.
        func wordsAfterAddressPoint(_ words: UnsafePointer<UInt>) -> Int {
            let packed = unsafe words[sizes]
            return Int(truncatingIfNeeded: (packed & 0xFFFF_FFFF) &- (packed >> 32)) / MemoryLayout<UInt>.size
        }
        guard unsafe wordsAfterAddressPoint(firstWords) > word, unsafe wordsAfterAddressPoint(secondWords) > word,
              unsafe firstWords[word] == unsafeBitCast(firstArgument, to: UInt.self),
              unsafe secondWords[word] == unsafeBitCast(secondArgument, to: UInt.self) else { return nil }
        self.identity = identity
        self.argumentWord = word
    }

    /// The generic argument of `type` when it is an instance of this class, else `nil`.
    func argument(of type: Any.Type) -> Any.Type? {
        guard swiftClassIdentity(of: type) == identity else { return nil }
        let words = unsafe unsafeBitCast(type, to: UnsafePointer<UInt>.self)
        return unsafe unsafeBitCast(words[argumentWord], to: Any.Type.self)
    }
}
