/// Where one of a template's provided values lies in a child's values, and of which type.
@usableFromInline
struct ProvidedPosition {
    @usableFromInline let offset: Int
    @usableFromInline let identifier: ObjectIdentifier
}

/// Where the values of a template's children lie, laid out once, when the template is made.
///
/// The positions are read by every child's placing and reading of its values, so they lie in
/// memory of their own, read without retaining an array.
///
/// Invariant: `positions` is allocated and initialized with `count` positions in `init`, never
/// changed, and freed in `deinit`, so it is read only while the layout lives.
@usableFromInline
@safe final class ProvidedLayout {
    @usableFromInline let count: Int
    @usableFromInline let positions: UnsafeMutablePointer<ProvidedPosition>
    let byteCount: Int
    let alignment: Int
    /// Whether the values lie in the child itself (`ChildValues.Inline`): they fit, and each is
    /// moved by copying its bytes, as a child's values are when the child is made.
    @usableFromInline let fitsInline: Bool
    /// The values as one tuple, lying exactly as the positions do (a tuple lays out its
    /// elements in order, each at the next multiple of its alignment, as `Builder` does); nil
    /// if its size or alignment says otherwise, and then no child takes values.
    let tuple: ProvidedTuple?
    /// `tuple?.identifier`, read by every child's placing.
    @usableFromInline let tupleIdentifier: ObjectIdentifier?

    /// Whether the values are class references only, lying in the child itself one per word
    /// (`ChildValues.Inline`): a child then releases them without calling `tuple.destroy`.
    @usableFromInline let referencesInline: Bool

    init(positions: [ProvidedPosition], byteCount: Int, alignment: Int, movableByBytes: Bool, referencesOnly: Bool,
         tuple: ProvidedTuple) {
        count = positions.count
        unsafe self.positions = .allocate(capacity: max(positions.count, 1))
        unsafe self.positions.initialize(from: positions, count: positions.count)
        self.byteCount = byteCount
        self.alignment = alignment
        fitsInline = movableByBytes && byteCount <= MemoryLayout<ChildValues.Inline>.size
            && alignment <= MemoryLayout<ChildValues.Inline>.alignment
        self.tuple = tuple.size == byteCount && tuple.alignment == alignment ? tuple : nil
        tupleIdentifier = self.tuple?.identifier
        referencesInline = referencesOnly && fitsInline && byteCount == positions.count * MemoryLayout<AnyObject>.size
    }

    deinit {
        unsafe positions.deinitialize(count: count)
        unsafe positions.deallocate()
    }

    /// Lays out values of `types`, in order; made where the types are known.
    @usableFromInline
    final class Builder {
        private var positions: [ProvidedPosition] = []
        private var byteCount = 0
        private var alignment = 1
        private var movableByBytes = true
        private var referencesOnly = true

        @usableFromInline init() {}

        /// Adds a value of `type` after those added before; returns where it lies.
        @inlinable
        func add<Value>(_ type: Value.Type) -> Int {
            append(ObjectIdentifier(Value.self), size: MemoryLayout<Value>.size,
                   alignment: MemoryLayout<Value>.alignment, movableByBytes: isMovableByBytes(Value.self),
                   isReference: Value.self is AnyObject.Type && MemoryLayout<Value>.size == MemoryLayout<AnyObject>.size)
        }

        @usableFromInline
        func append(_ type: ObjectIdentifier, size: Int, alignment: Int, movableByBytes: Bool, isReference: Bool) -> Int {
            let offset = (byteCount + alignment - 1) / alignment * alignment
            positions.append(ProvidedPosition(offset: offset, identifier: type))
            byteCount = offset + size
            self.alignment = max(self.alignment, alignment)
            self.movableByBytes = self.movableByBytes && movableByBytes
            referencesOnly = referencesOnly && isReference
            return offset
        }

        /// The layout of the values added, which a child takes as `tuple`.
        func layout(as tuple: ProvidedTuple) -> ProvidedLayout {
            ProvidedLayout(positions: positions, byteCount: byteCount, alignment: alignment,
                           movableByBytes: movableByBytes, referencesOnly: referencesOnly, tuple: tuple)
        }
    }
}

/// Invariant: `positions` is allocated and initialized in `init`, never written afterwards,
/// and freed in `deinit`; the positions hold offsets, types and `Sendable` destroyers.
extension ProvidedLayout: @unchecked Sendable {}

/// Whether values of `Value` may be moved by copying their bytes, as far as public Swift tells:
/// a class reference may. Nearly every Swift type may, but only the runtime knows which (a
/// `BitwiseCopyable` cast succeeds for every type), so any other type is taken not to be, and
/// the code that asks keeps it where it never moves by bytes.
@inlinable @inline(__always)
func isMovableByBytes<Value>(_ type: Value.Type) -> Bool {
    Value.self is AnyObject.Type
}
