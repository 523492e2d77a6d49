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
        layoutReference = ownsLayout ? .retaining(layout) : UnownedReference(layout)
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
        layoutReference.release()
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

    /// This child's provision for the template's node whose scope has identity `slot`, made by
    /// `make` on first use.
    func provision<Value>(for slot: ObjectIdentifier, make: () -> Provision<Value>) -> Provision<Value> {
        lifecycle.provision(for: slot, make: make)
    }

    /// This child's storage for the template's singleton whose node has identity `slot`, made
    /// on first use.
    func storage(for slot: ObjectIdentifier, key: AnyKey) -> InstanceStorage {
        lifecycle.storage(for: slot, key: key)
    }
}
