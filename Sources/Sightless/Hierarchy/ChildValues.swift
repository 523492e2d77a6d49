#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The values a child made from a ``ChildTemplate`` was made with, placed at the offsets of the
/// template's layout in one allocation, and destroyed with the child.
///
/// An injector not made from a template has none (`init()`): no layout and no memory. The
/// fields are plain pointers and counts, so that reading a value retains nothing but the value.
@usableFromInline
struct ChildValues: ~Copyable {
    /// Where each value lies; nil for an injector not made from a template.
    @usableFromInline let layout: ProvidedLayout?
    /// The layout's positions, kept alive by `layout`.
    @usableFromInline let positions: UnsafeMutablePointer<ProvidedPosition>?
    /// The values, at their positions' offsets.
    @usableFromInline let base: UnsafeMutableRawPointer?
    /// How many values are placed, in order; all of them once the child exists.
    @usableFromInline var count = 0

    /// No values: an injector not made from a template.
    @usableFromInline
    init() {
        layout = nil
        positions = nil
        base = nil
    }

    /// Room for the values of `layout`, none placed yet.
    @usableFromInline
    init(layout: ProvidedLayout) {
        self.layout = layout
        positions = layout.positions
        base = Self.allocate(layout)
    }

    deinit {
        guard let layout, let positions, let base else { return }
        for index in 0..<count { positions[index].destroy(base + positions[index].offset) }
        if Self.usesMalloc(layout) { free(base) } else { base.deallocate() }
    }

    /// Whether these are the values of a child made from a template (possibly none).
    var isTemplateChild: Bool { layout != nil }

    /// Memory for the values of `layout`: from `malloc` when its alignment suffices (the
    /// standard library's allocations go through `posix_memalign`, which costs more), else
    /// aligned by the standard library.
    private static func allocate(_ layout: ProvidedLayout) -> UnsafeMutableRawPointer {
        if usesMalloc(layout), let memory = malloc(max(layout.byteCount, 1)) { return memory }
        return .allocate(byteCount: max(layout.byteCount, 1), alignment: layout.alignment)
    }

    /// Whether the values of `layout` lie in memory from `malloc`, which aligns to 16 bytes.
    private static func usesMalloc(_ layout: ProvidedLayout) -> Bool {
        layout.alignment <= 16
    }

    /// Places the next value, of the type the layout has at its position; anything else is
    /// left out (and the child finds it missing).
    @inlinable
    mutating func place<Value>(_ value: Value) {
        guard let positions, let base, let layout, count < layout.count,
              positions[count].identifier == ObjectIdentifier(Value.self) else { return }
        Self.initialize(base + positions[count].offset, to: value)
        count += 1
    }

    /// Whether a value of type `Value` is placed at `index`.
    @inlinable
    func holds<Value>(_ type: Value.Type, at index: Int) -> Bool {
        guard let positions else { return false }
        return index >= 0 && index < count && positions[index].identifier == ObjectIdentifier(Value.self)
    }
}

extension Injector {
    /// The value at `index` among those this injector's child of `owner` was made with: this
    /// injector's, or the nearest parent's made from that template.
    @inlinable
    func providedValue<Value>(at index: Int, of owner: CompilationOwner, as type: Value.Type) -> Value? {
        // The child running the plan holds the value unless a grandchild runs it, which walks
        // to its parent.
        if self.owner === owner, provided.holds(Value.self, at: index) {
            return provided.value(at: index, as: Value.self)
        }
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
        scoped.get().provision(for: slot, make: make)
    }

    /// This child's storage for the template's singleton whose node has identity `slot`, made
    /// on first use.
    func storage(for slot: ObjectIdentifier, key: AnyKey) -> InstanceStorage {
        scoped.get().storage(for: slot, key: key)
    }

    /// The storages this child's scopes keep instances in.
    var keptStorages: [InstanceStorage] { scoped.existing?.storages ?? [] }
}
