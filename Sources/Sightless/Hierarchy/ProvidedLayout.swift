/// Where one of a template's provided values lies in a child's buffer, and of which type.
@usableFromInline
struct ProvidedPosition {
    @usableFromInline let offset: Int
    @usableFromInline let identifier: ObjectIdentifier
    /// Destroys the value at the position, given its address.
    let destroy: @Sendable (UnsafeMutableRawPointer) -> Void
}

/// Where the values of a template's children lie, laid out once, when the template is made.
///
/// The positions are read by every child's placing and reading of its values, so they lie in
/// memory of their own, read without retaining an array.
@usableFromInline
final class ProvidedLayout {
    @usableFromInline let count: Int
    @usableFromInline let positions: UnsafeMutablePointer<ProvidedPosition>
    let byteCount: Int
    let alignment: Int

    init(positions: [ProvidedPosition], byteCount: Int, alignment: Int) {
        count = positions.count
        self.positions = .allocate(capacity: max(positions.count, 1))
        self.positions.initialize(from: positions, count: positions.count)
        self.byteCount = byteCount
        self.alignment = alignment
    }

    deinit {
        positions.deinitialize(count: count)
        positions.deallocate()
    }

    /// Lays out values of `types`, in order; made where the types are known.
    @usableFromInline
    final class Builder {
        private var positions: [ProvidedPosition] = []
        private var byteCount = 0
        private var alignment = 1

        @usableFromInline init() {}

        @inlinable
        func add<Value>(_ type: Value.Type) {
            append(ObjectIdentifier(Value.self), size: MemoryLayout<Value>.size,
                   alignment: MemoryLayout<Value>.alignment) { address in ChildValues.destroy(address, as: Value.self) }
        }

        @usableFromInline
        func append(_ type: ObjectIdentifier, size: Int, alignment: Int,
                    destroy: @escaping @Sendable (UnsafeMutableRawPointer) -> Void) {
            let offset = (byteCount + alignment - 1) / alignment * alignment
            positions.append(ProvidedPosition(offset: offset, identifier: type, destroy: destroy))
            byteCount = offset + size
            self.alignment = max(self.alignment, alignment)
        }

        @usableFromInline
        var layout: ProvidedLayout {
            ProvidedLayout(positions: positions, byteCount: byteCount, alignment: alignment)
        }
    }
}
