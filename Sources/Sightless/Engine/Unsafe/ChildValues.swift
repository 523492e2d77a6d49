#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The values a child made from a ``ChildTemplate`` was made with, placed at the offsets of the
/// template's layout, and destroyed with the child.
///
/// Values that fit in ``Inline`` (48 bytes, aligned to 8, each movable by copying its bytes:
/// classes, strings, most structs) lie in the child injector itself, so that making a child
/// costs one allocation; larger layouts get one allocation of their own (`heap`). An injector
/// not made from a template has none (`init()`): no layout and no memory.
///
/// Invariant: the values are placed once, all of them, at the offsets of `layoutReference`'s
/// layout, whose types they are, in `inline` or `heap` as the layout says, and read only as
/// those types; `deinit` destroys the `count` placed and frees `heap`; the layout is alive while
/// they are read (see `layoutReference`).
@usableFromInline
@safe struct ChildValues: ~Copyable {
    /// The room for the values of a layout that fits in place.
    @usableFromInline typealias Inline = (UInt, UInt, UInt, UInt, UInt, UInt)

    /// Where each value lies; nil for an injector not made from a template. Read without
    /// retaining it: the template's graph holds it, which the template holds while the values are
    /// placed and the child injector holds from then on; and, unless the values are class
    /// references in place, which `deinit` releases without reading the layout, these values
    /// hold it too (`ownsLayout`): retained once when they are made and released once, in
    /// `deinit`, after its last read.
    @usableFromInline let layoutReference: UnownedReference<ProvidedLayout>?
    /// Whether `layoutReference` holds a retain of its own.
    @usableFromInline let ownsLayout: Bool
    /// The values, when the layout fits in place.
    @usableFromInline var inline: Inline = (0, 0, 0, 0, 0, 0)
    /// The values, when it does not: memory of their own.
    @usableFromInline let heap: UnsafeMutableRawPointer?
    /// How many values are placed: none, or all of them, once the child exists.
    @usableFromInline var count = 0
    /// How many the layout has; -1 for an injector not made from a template.
    @usableFromInline let expected: Int

    /// No values: an injector not made from a template.
    @inlinable
    init() {
        layoutReference = nil
        ownsLayout = false
        unsafe heap = nil
        expected = -1
    }

    /// Room for the values of `layout`, none placed yet.
    @inlinable
    init(layout: ProvidedLayout) {
        ownsLayout = !layout.referencesInline
        layoutReference = unsafe ownsLayout ? .retaining(layout) : UnownedReference(layout)
        expected = layout.count
        unsafe heap = layout.fitsInline ? nil : Self.allocate(layout)
    }

    deinit {
        guard let layoutReference else { return }
        guard ownsLayout else { return Self.releaseReferences(count, in: inline) }
        layoutReference.reading { layout in
            if count > 0 { unsafe Self.destroy(layout, inline: inline, heap: heap) }
            guard let heap = unsafe heap else { return }
            if Self.usesMalloc(layout) { unsafe free(heap) } else { unsafe heap.deallocate() }
        }
        unsafe layoutReference.release()
    }

    /// Whether these are the values of a child made from a template (possibly none).
    var isTemplateChild: Bool { layoutReference != nil }

    /// Whether every value of the template's layout is placed: always so in a child made from a
    /// template, never in any other injector.
    @inlinable
    var isComplete: Bool { count == expected }

    /// Memory for the values of `layout`: from `malloc` when its alignment suffices (the
    /// standard library's allocations go through `posix_memalign`, which costs more), else
    /// aligned by the standard library.
    @usableFromInline
    static func allocate(_ layout: ProvidedLayout) -> UnsafeMutableRawPointer {
        if usesMalloc(layout), let memory = unsafe malloc(max(layout.byteCount, 1)) { return unsafe memory }
        return .allocate(byteCount: max(layout.byteCount, 1), alignment: layout.alignment)
    }

    /// Whether the values of `layout` lie in memory from `malloc`, which aligns to 16 bytes.
    private static func usesMalloc(_ layout: ProvidedLayout) -> Bool {
        layout.alignment <= 16
    }

    /// Places all the values at once, as the tuple of the layout's types; anything else is left
    /// out (and the child finds its values missing).
    @inlinable
    mutating func place<Values>(_ values: consuming Values) {
        guard let layoutReference, count == 0,
              layoutReference.reading({ $0.tupleIdentifier == ObjectIdentifier(Values.self) }) else { return }
        move(values)
        count = expected
    }

    /// Whether a value of type `Value` is placed at `index`.
    @inlinable
    func holds<Value>(_ type: Value.Type, at index: Int) -> Bool {
        guard let layoutReference, index >= 0, index < count else { return false }
        return layoutReference.reading { unsafe $0.positions[index].identifier == ObjectIdentifier(Value.self) }
    }
}

extension Injector {
    /// The value at `index` (lying at `offset`) among those this injector's child of `owner`
    /// was made with: this injector's, or the nearest parent's made from that template.
    @inlinable @inline(__always)
    func providedValue<Value>(at index: Int, offset: Int, of owner: CompilationOwner, as type: Value.Type) -> Value? {
        // The child running the plan holds the value unless a grandchild runs it.
        if self.owner === owner, provided.isComplete { return provided.value(atOffset: offset, as: Value.self) }
        return parentProvidedValue(at: index, of: owner, as: Value.self)
    }

    /// The value at `index` of the nearest parent made from the template of `owner`.
    @usableFromInline
    func parentProvidedValue<Value>(at index: Int, of owner: CompilationOwner, as type: Value.Type) -> Value? {
        guard let child = templateChild(of: owner), child.provided.holds(Value.self, at: index) else { return nil }
        return child.provided.value(at: index, as: Value.self)
    }

    /// This injector's child of `owner`, if one made from that template runs: itself or the
    /// nearest parent made from it.
    @usableFromInline
    func templateChild(of owner: CompilationOwner) -> Injector? {
        var current = self
        while current.owner !== owner || !current.provided.isTemplateChild {
            guard let parent = current.parent else { return nil }
            current = parent
        }
        return current
    }

    /// This injector's child of `owner`; `key`, compiled for that template's children, is being
    /// built where none runs otherwise.
    func templateChild(of owner: CompilationOwner, building key: AnyKey) throws(InjectionError) -> Injector {
        guard let child = templateChild(of: owner) else { throw Self.outsideTemplateChild(key) }
        return child
    }

    /// `key`, compiled for a template's children, was built where none runs (or a provided
    /// value was missing there).
    @usableFromInline @inline(never)
    static func outsideTemplateChild(_ key: AnyKey) -> InjectionError {
        InjectionError(.internalInconsistency(.outsideTemplateChild(key: key)), path: [key])
    }

    /// This child's provision for the template's scoped node of `slot`, made by `make` on first
    /// use.
    func provision<Value>(for slot: ScopeSlot, make: () -> Provision<Value>) -> Provision<Value> {
        lifecycle.provision(for: slot, make: make)
    }

    /// This child's storage for the template's singleton of `slot`, made on first use, closed by
    /// `closer` if the binding says.
    func storage(for slot: ScopeSlot, key: AnyKey, closer: ValueCloser?) -> InstanceStorage {
        lifecycle.storage(for: slot, key: key, closer: closer)
    }
}

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

/// Invariant: `layout`, `heap` and `expected` never change; `count` and the values are written
/// only while the child is made, before the values are handed to the child injector, and
/// read-only afterwards; values are placed only when `Sendable` (`ChildTemplate` requires it of
/// every value).
extension ChildValues: @unchecked Sendable {}
