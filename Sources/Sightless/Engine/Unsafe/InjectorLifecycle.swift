import Synchronization

/// What a shutdown of an injector, or of one of its parents, reaches: the values the injector
/// keeps and the lifecycles of its live children. Made on first use: when a root or a plain
/// child is made, and for a template's child when it first keeps a value or makes a child, so
/// that a child that keeps nothing pays for nothing.
///
/// A lifecycle registers with its parent's when it is made and leaves it when its injector is
/// released. A shutdown closes the family below the injector first, the child registered last
/// first, each child's own children before it, then the injector's own values, newest first;
/// every value once.
///
/// A lifecycle also counts the `withChild` bodies in flight whose child its injector made, so
/// that a draining shutdown (`Injector.awaitShutDown(draining:)`) waits for those below it;
/// the count and the flag saying it drains are atomic, read and written in one total order
/// (`.sequentiallyConsistent`): a body that starts either sees the drain and is refused, or is
/// seen by the drain's count.
///
/// Invariant: `lock` guards every stored `var` below (`slot` and `order` the parent's lock, as
/// they say), which is read and written only while that lock is held. Two accesses to one of them
/// therefore never overlap, and the arrays, which are changed in place, are not checked for
/// exclusivity at run time (`@exclusivity(unchecked)`, as in `Locked`): a child's registration and
/// its leaving each paid two such checks, about 80 instructions apiece.
final class InjectorLifecycle {
    /// Guards everything below; held in place, so that a lifecycle is one allocation and its mutex's.
    private let lock = PthreadMutex()
    /// A template child's first provision of one of the template's scoped nodes, and that node's
    /// scope slot index (`ScopeSlot`), -1 until there is one: most children of a request
    /// template keep one value, which then needs no array.
    private var firstProvision: AnyObject?
    private var firstIndex = -1
    /// The child's other provisions, at the index of the node's scope slot: its
    /// `InstanceStorage`, or a `ProvisionBox` of the provision its scope made; `nil` where the
    /// child made none yet (and at `firstIndex`).
    @exclusivity(unchecked) private var provisions: [AnyObject?] = []
    /// The node table whose storages the injector owns; `nil` for a template's child, whose
    /// table its siblings share and whose own values are its provisions.
    private let table: NodeTable?
    /// The live children's lifecycles, in no order: a child leaving takes the last one's place.
    @exclusivity(unchecked) private var children: [InjectorLifecycle] = []
    private var registrations = 0
    /// Where this lifecycle is in its parent's `children`, and when it registered there; both
    /// guarded by the parent's lock.
    private var slot = -1
    private var order = 0
    /// `true` once the injector or one of its parents was shut down: a storage made from then
    /// on is sealed, and a child registering is closed at once.
    private var closed = false
    /// `true` once the injector made a child or a template.
    private var isParent = false
    /// The parent's lifecycle, which holds this one from `register` to `leaveParent`.
    private let parent: InjectorLifecycle?
    /// The `withChild` bodies in flight whose child this injector made.
    private let bodies = Atomic<Int>(0)
    /// `true` once a draining shutdown of the injector began: the family below it takes no new
    /// body.
    private let draining = Atomic<Bool>(false)

    /// The lifecycle of an injector whose nodes are `table` (`nil` for a template's child),
    /// registered with `parent`'s; closed at once when the parent's is closed.
    init(table: NodeTable?, parent: InjectorLifecycle?) {
        self.table = table
        self.parent = parent
        if let parent, !parent.register(self) { closed = true }
    }

    /// Registers a child's lifecycle; `false` when this one is closed.
    private func register(_ child: InjectorLifecycle) -> Bool {
        lock.withLocked {
            guard !closed else { return false }
            isParent = true
            registrations += 1
            child.order = registrations
            child.slot = unsafe children.count
            unsafe children.append(child)
            return true
        }
    }

    /// Records that the injector made a template, whose children register only once they keep
    /// a value.
    func markParent() {
        lock.withLocked { isParent = true }
    }

    /// Whether the injector made a child or a template.
    var hasChildren: Bool { lock.withLocked { isParent } }

    /// Leaves the parent's lifecycle: the injector is being released.
    func leaveParent() {
        guard let parent else { return }
        parent.lock.withLocked {
            guard unsafe slot >= 0 && slot < parent.children.count && parent.children[slot] === self else { return }
            let last = unsafe parent.children.removeLast()
            if last !== self {
                unsafe parent.children[slot] = last
                last.slot = slot
            }
            slot = -1
        }
    }

    /// Counts a `withChild` body in flight of a child this injector made: `false`, and nothing
    /// counted, when a draining shutdown of the injector or of one of its parents began.
    func enterBody(in drain: Drain) -> Bool {
        bodies.add(1, ordering: .sequentiallyConsistent)
        if drain.started.load(ordering: .sequentiallyConsistent) != 0, isDrainingInFamily {
            leaveBody(in: drain)
            return false
        }
        return true
    }

    /// A body `enterBody` counted ended: the drains waiting count again when none is left here.
    func leaveBody(in drain: Drain) {
        let left = bodies.subtract(1, ordering: .sequentiallyConsistent).newValue
        if left == 0, drain.started.load(ordering: .sequentiallyConsistent) != 0 { drain.wakeAll() }
    }

    /// Marks the injector draining, before its bodies are counted: from now on a body in the
    /// family below it is refused.
    func beginDraining(in drain: Drain) {
        draining.store(true, ordering: .sequentiallyConsistent)
        drain.started.add(1, ordering: .sequentiallyConsistent)
    }

    /// Whether a draining shutdown of the injector or of one of its parents began.
    private var isDrainingInFamily: Bool {
        if draining.load(ordering: .sequentiallyConsistent) { return true }
        return parent?.isDrainingInFamily ?? false
    }

    /// The bodies in flight below the injector: the children it made and those its live
    /// children made, at any depth.
    var bodiesInFamily: Int {
        let children = lock.withLocked { unsafe self.children }
        return bodies.load(ordering: .sequentiallyConsistent) + children.reduce(0) { $0 + $1.bodiesInFamily }
    }

    /// A template child's provision for the template's scoped node of `slot`, made by `make` on
    /// first use.
    func provision<Value>(for slot: ScopeSlot, make: () -> Provision<Value>) -> Provision<Value> {
        lock.withLocked {
            if let box = provision(at: slot.index) as? ProvisionBox<Value> { return box.provision }
            let made = make()
            place(ProvisionBox(made), at: slot.index)
            if let storage = made.storage { sealIfClosed(storage) }
            return made
        }
    }

    /// A template child's storage for the template's singleton of `slot`, made on first use,
    /// closed by `closer` if the binding says.
    func storage(for slot: ScopeSlot, key: AnyKey, closer: ValueCloser?) -> InstanceStorage {
        lock.withLocked {
            if let storage = provision(at: slot.index) as? InstanceStorage { return storage }
            let storage = InstanceStorage(key)
            storage.closer = closer
            place(storage, at: slot.index)
            sealIfClosed(storage)
            return storage
        }
    }

    /// The provision at `index`, if the child made one; under `lock`.
    private func provision(at index: Int) -> AnyObject? {
        if index == firstIndex { return firstProvision }
        return unsafe index < provisions.count ? provisions[index] : nil
    }

    /// Places a provision at `index`, where there is none; under `lock`.
    private func place(_ provision: AnyObject, at index: Int) {
        if firstProvision == nil {
            firstProvision = provision
            firstIndex = index
            return
        }
        while unsafe index >= provisions.count { unsafe provisions.append(nil) }
        unsafe provisions[index] = provision
    }

    /// Seals a storage just made when the lifecycle is closed; under `lock`.
    private func sealIfClosed(_ storage: InstanceStorage) {
        if closed { BuildCoordinator.process.seal(storage) }
    }

    /// The storages among the provisions: those that keep an instance; under `lock`.
    private var keptStorages: [InstanceStorage] {
        unsafe ([firstProvision] + provisions).compactMap { provision in
            (provision as? InstanceStorage) ?? (provision as? KeptProvision)?.storage
        }
    }

    /// Closes this lifecycle and every lifecycle below it, once: returns the values to close,
    /// the children's first (the child registered last first, each child's own children before
    /// it), then this injector's own, newest first. Each storage is sealed and retired under
    /// the lock of its build state (`BuildCoordinator.process`), so that no request finds its
    /// value again.
    func close() -> [ClosingValue] {
        let (children, storages) = lock.withLocked { () -> ([InjectorLifecycle], [InstanceStorage]) in
            guard !closed else { return ([], []) }
            closed = true
            let children = unsafe self.children.sorted { $0.order > $1.order }
            for child in children { child.slot = -1 }
            unsafe self.children = []
            return (children, (table?.seal().compactMap(\.storage) ?? []) + keptStorages)
        }
        var closing: [ClosingValue] = []
        for child in children { closing += child.close() }
        closing += BuildCoordinator.process.retire(storages).sorted { $0.creation > $1.creation }
        return closing
    }
}

/// A provision a template's child keeps, seen without its value's type: the storage it keeps
/// its instance in, if its scope keeps one.
private class KeptProvision {
    let storage: InstanceStorage?
    init(storage: InstanceStorage?) { self.storage = storage }
}

/// A provision a template's child keeps for one of the template's scoped nodes.
private final class ProvisionBox<Value>: KeptProvision {
    let provision: Provision<Value>
    init(_ provision: Provision<Value>) {
        self.provision = provision
        super.init(storage: provision.storage)
    }
}
