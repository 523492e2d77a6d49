import Synchronization

/// What one child made from a ``ChildTemplate`` has of its own: the values it was made with, and
/// what its scopes keep. The template's nodes are compiled once and shared by all its children;
/// whatever differs from child to child lives here, and the nodes find it through the injector
/// running them.
@usableFromInline
final class ChildState {
    /// Where each value lies in `base`, and of which type.
    @usableFromInline let layout: ProvidedLayout
    /// The values the child was made with, placed at the layout's offsets as their keys' types:
    /// in one allocation, and placed and read where the template is declared and used,
    /// specialized for their types (boxes of a generic type, or existentials, would make the
    /// runtime look up a type or cast for every value of every child).
    @usableFromInline let base: UnsafeMutableRawPointer
    /// How many values are placed, in order; all of them once the child exists. Written only
    /// while the child is made (see `place`), so reads need no exclusivity check.
    @usableFromInline var placed: Int {
        get { placedCount.load(ordering: .relaxed) }
        set { placedCount.store(newValue, ordering: .relaxed) }
    }
    @usableFromInline let placedCount = Atomic<Int>(0)
    /// What the child's scopes keep, made on the first request of a scoped node: most children
    /// of a request template keep nothing, and pay for no lock.
    private let scoped = LazyScopedProvisions()

    @usableFromInline
    init(layout: ProvidedLayout) {
        self.layout = layout
        self.base = .allocate(byteCount: max(layout.byteCount, 1), alignment: layout.alignment)
    }

    deinit {
        for index in 0..<placed { layout.destroyers[index](base + layout.offsets[index]) }
        base.deallocate()
    }

    /// Places the next value, of the type the layout has at its position.
    @inlinable
    func place<Value>(_ value: Value) {
        guard placed < layout.offsets.count, layout.types[placed] == ObjectIdentifier(Value.self) else { return }
        Self.initialize(base + layout.offsets[placed], to: value)
        placed += 1
    }

    /// Whether a value of type `Value` is placed at `index`.
    @inlinable
    func holds<Value>(_ type: Value.Type, at index: Int) -> Bool {
        index < placed && layout.types[index] == ObjectIdentifier(Value.self)
    }

    /// This child's provision for the node whose scope has identity `slot`, made by `make` on
    /// first use.
    func provision<Value>(for slot: ObjectIdentifier, make: () -> Provision<Value>) -> Provision<Value> {
        scoped.get().provision(for: slot, make: make)
    }

    /// This child's storage for the singleton whose node has identity `slot`, made on first use.
    func storage(for slot: ObjectIdentifier, key: AnyKey) -> InstanceStorage {
        scoped.get().storage(for: slot, key: key)
    }

    /// The storages this child's scopes keep instances in.
    var keptStorages: [InstanceStorage] { scoped.existing?.storages ?? [] }
}

/// The scoped provisions of a template's nodes for one child, by the identity of the node's
/// scope, and the storages among them that keep an instance, in the order they were made.
final class ScopedProvisions {
    private let lock = Lock()
    private var provisions: [ObjectIdentifier: AnyObject] = [:]
    private var kept: [InstanceStorage] = []

    func provision<Value>(for slot: ObjectIdentifier, make: () -> Provision<Value>) -> Provision<Value> {
        lock.withLock {
            if let box = provisions[slot] as? ProvisionBox<Value> { return box.provision }
            let made = make()
            provisions[slot] = ProvisionBox(made)
            if let storage = made.storage { kept.append(storage) }
            return made
        }
    }

    func storage(for slot: ObjectIdentifier, key: AnyKey) -> InstanceStorage {
        lock.withLock {
            if let storage = provisions[slot] as? InstanceStorage { return storage }
            let storage = InstanceStorage(key)
            provisions[slot] = storage
            kept.append(storage)
            return storage
        }
    }

    var storages: [InstanceStorage] { lock.withLock { kept } }
}

private final class ProvisionBox<Value> {
    let provision: Provision<Value>
    init(_ provision: Provision<Value>) { self.provision = provision }
}

/// Where the values of a template's children lie, laid out once, when the template is made.
@usableFromInline
final class ProvidedLayout: Sendable {
    @usableFromInline let offsets: [Int]
    @usableFromInline let types: [ObjectIdentifier]
    let byteCount: Int
    let alignment: Int
    /// Destroys the value at each position, given its address.
    let destroyers: [@Sendable (UnsafeMutableRawPointer) -> Void]

    init(offsets: [Int], types: [ObjectIdentifier], byteCount: Int, alignment: Int,
         destroyers: [@Sendable (UnsafeMutableRawPointer) -> Void]) {
        self.offsets = offsets
        self.types = types
        self.byteCount = byteCount
        self.alignment = alignment
        self.destroyers = destroyers
    }

    /// Lays out values of `types`, in order; made where the types are known.
    @usableFromInline
    final class Builder {
        private var offsets: [Int] = []
        private var types: [ObjectIdentifier] = []
        private var destroyers: [@Sendable (UnsafeMutableRawPointer) -> Void] = []
        private var byteCount = 0
        private var alignment = 1

        @usableFromInline init() {}

        @inlinable
        func add<Value>(_ type: Value.Type) {
            append(ObjectIdentifier(Value.self), size: MemoryLayout<Value>.size,
                   alignment: MemoryLayout<Value>.alignment) { address in ChildState.destroy(address, as: Value.self) }
        }

        @usableFromInline
        func append(_ type: ObjectIdentifier, size: Int, alignment: Int,
                    destroy: @escaping @Sendable (UnsafeMutableRawPointer) -> Void) {
            let offset = (byteCount + alignment - 1) / alignment * alignment
            offsets.append(offset)
            types.append(type)
            destroyers.append(destroy)
            byteCount = offset + size
            self.alignment = max(self.alignment, alignment)
        }

        @usableFromInline
        var layout: ProvidedLayout {
            ProvidedLayout(offsets: offsets, types: types, byteCount: byteCount, alignment: alignment, destroyers: destroyers)
        }
    }
}

extension Injector {
    /// The value at `index` among those this injector's child of `owner` was made with: this
    /// injector's, or the nearest parent's made from that template.
    @inlinable
    func providedValue<Value>(at index: Int, of owner: CompilationOwner, as type: Value.Type) throws(InjectionError) -> Value {
        // No `Value?` on the way: run generically, an optional of `Value` costs a look-up of
        // its type in the runtime.
        guard let state = childState(of: owner), state.holds(Value.self, at: index) else {
            throw providedValueMissing(Value.self)
        }
        return ChildState.read(state.base + state.layout.offsets[index], as: Value.self)
    }

    /// The child state of this injector's child of `owner`, if one made from that template runs.
    @inlinable
    func childState(of owner: CompilationOwner) -> ChildState? {
        var current = self
        while current.owner !== owner || current.childState == nil {
            guard let parent = current.parent else { return nil }
            current = parent
        }
        return current.childState
    }

    /// The child state of this injector's child of `owner`; `key`, compiled for that template's
    /// children, is being built where none runs otherwise.
    func childState(of owner: CompilationOwner, building key: AnyKey) throws(InjectionError) -> ChildState {
        guard let state = childState(of: owner) else {
            throw InjectionError(.internalInconsistency(.outsideTemplateChild(key: key)), path: [key])
        }
        return state
    }

    @usableFromInline @inline(never)
    func providedValueMissing(_ type: Any.Type) -> InjectionError {
        let key = AnyKey(type: type, name: nil)
        return InjectionError(.internalInconsistency(.outsideTemplateChild(key: key)), path: [key])
    }
}
