extension ChildValues {
    /// Moves `values`, the tuple of all the layout's values, in place or to `heap`.
    ///
    /// Invariant: `Values` is the layout's tuple, whose type the caller compared (`place`) and
    /// which lies exactly as the positions do (`ProvidedLayout.tuple`); nothing is placed yet;
    /// `heap` is sized and aligned for the layout when there is one, and otherwise the layout
    /// fits `inline` (`ProvidedLayout.fitsInline`).
    @inlinable @inline(__always)
    mutating func move<Values>(_ values: consuming Values) {
        if let heap = unsafe heap {
            unsafe Self.initialize(heap, to: values)
        } else {
            unsafe Self.initialize(&inline, to: values)
        }
    }

    /// Moves `values` to `base`: the memory of `heap`, or of `inline` for the duration of the call.
    @inlinable @inline(__always)
    static func initialize<Values>(_ base: UnsafeMutableRawPointer, to values: consuming Values) {
        unsafe base.assumingMemoryBound(to: Values.self).initialize(to: values)
    }

    /// The value lying at `offset`.
    ///
    /// Invariant: `isComplete` is true, which it is only in a child made from a template, and the
    /// caller found this injector's owner to be that template's, whose layout put a `Value` at
    /// `offset` (`ProvidedValues.add` gave the plan reading it that offset). Values in place are
    /// movable by copying their bytes, so a copy of `inline` holds them as well, for as long as
    /// the child does.
    @inlinable @inline(__always)
    func value<Value>(atOffset offset: Int, as type: Value.Type) -> Value {
        if let heap = unsafe heap { return unsafe (heap + offset).assumingMemoryBound(to: Value.self).pointee }
        return unsafe withUnsafeBytes(of: inline) { inline in unsafe inline.load(fromByteOffset: offset, as: Value.self) }
    }

    /// The value at `index`.
    ///
    /// Invariant: `holds(Value.self, at: index)` returned true just before, which it does only
    /// for a template child's values (`layout` set) and for a position below `count`, placed as
    /// a `Value`.
    @inlinable @inline(__always)
    func value<Value>(at index: Int, as type: Value.Type) -> Value {
        unsafe value(atOffset: layoutReference.unsafelyUnwrapped.reading { unsafe $0.positions[index].offset }, as: Value.self)
    }

    /// Releases the `count` class references lying in place, one per word of `inline`.
    ///
    /// Invariant: called once, from `deinit`, for values whose layout is `referencesInline`, with
    /// their own `count` (0, or all of them once placed) and `inline`: word `i` of `inline`, for
    /// each `i` below `count`, holds one strong reference to a class instance.
    static func releaseReferences(_ count: Int, in inline: Inline) {
        unsafe withUnsafeBytes(of: inline) { words in
            for index in 0..<count {
                let word = unsafe words.load(fromByteOffset: index * MemoryLayout<UInt>.stride, as: UInt.self)
                guard let address = unsafe UnsafeRawPointer(bitPattern: word) else { continue }
                unsafe Unmanaged<AnyObject>.fromOpaque(address).release()
            }
        }
    }

    /// Destroys the values of `layout`, all placed, in `heap` or in (a copy of) `inline`.
    ///
    /// Invariant: called once, from `deinit`, when the values were placed (as the layout's
    /// `tuple`, which is then set), with their own `inline` and `heap`; a copy of `inline` holds
    /// the same values, each movable by copying its bytes.
    static func destroy(_ layout: ProvidedLayout, inline: Inline, heap: UnsafeMutableRawPointer?) {
        guard let tuple = layout.tuple else { return }
        if let heap = unsafe heap { return unsafe tuple.destroy(heap) }
        var inline = inline
        unsafe withUnsafeMutableBytes(of: &inline) { inline in
            guard let base = inline.baseAddress else { return }
            unsafe tuple.destroy(base)
        }
    }

    /// Destroys the value at `address`, placed there as a `Value` (the layout's tuple made this
    /// destroyer with the tuple's type, and `deinit` calls it only once the tuple is placed).
    @inlinable
    static func destroy<Value>(_ address: UnsafeMutableRawPointer, as type: Value.Type) {
        _ = unsafe address.assumingMemoryBound(to: Value.self).deinitialize(count: 1)
    }
}

/// Invariant: `positions` is allocated and initialized in `init`, never written afterwards,
/// and freed in `deinit`; the positions hold offsets, types and `Sendable` destroyers.
extension ProvidedLayout: @unchecked Sendable {}

/// Invariant: `layout`, `heap` and `expected` never change; `count` and the values are written
/// only while the child is made, before the values are handed to the child injector, and
/// read-only afterwards; values are placed only when `Sendable` (`ChildTemplate` requires it of
/// every value).
extension ChildValues: @unchecked Sendable {}
