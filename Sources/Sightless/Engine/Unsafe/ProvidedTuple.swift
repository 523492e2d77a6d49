/// A template's values in one piece: the tuple of their types, in order, which a child is made
/// with and destroys as one value, with code specialized for its types where the template is
/// declared (a child's values are placed and destroyed without a call per value).
///
/// Invariant: `destroy` is handed only the address of an initialized tuple of the type
/// `identifier` names, the one `init(_:)` was made for, and destroys it once.
@usableFromInline
@safe struct ProvidedTuple: Sendable {
    /// `ObjectIdentifier` of the tuple's type.
    @usableFromInline let identifier: ObjectIdentifier
    let size: Int
    let alignment: Int
    /// Destroys the tuple, given its address.
    let destroy: @Sendable (UnsafeMutableRawPointer) -> Void

    /// The tuple `Values`; made where the values' types are known.
    @inlinable
    init<Values>(_ type: Values.Type) {
        unsafe self.init(identifier: ObjectIdentifier(Values.self), size: MemoryLayout<Values>.size,
                  alignment: MemoryLayout<Values>.alignment,
                  destroy: { address in unsafe ChildValues.destroy(address, as: Values.self) })
    }

    @usableFromInline
    init(identifier: ObjectIdentifier, size: Int, alignment: Int, destroy: @escaping @Sendable (UnsafeMutableRawPointer) -> Void) {
        self.identifier = identifier
        self.size = size
        self.alignment = alignment
        unsafe self.destroy = destroy
    }
}
