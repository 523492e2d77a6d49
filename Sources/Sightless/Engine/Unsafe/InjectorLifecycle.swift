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
/// Its state is a `LifecycleState` behind the lock the lifecycle is (`Locked`, one allocation
/// with its mutex): nothing reads or writes it but `withLock`. Where a child lies among its
/// parent's children is the parent's state; the child knows only the place it was given, a
/// constant, and leaves it under the parent's lock if it still holds it.
///
/// Invariant (of the `@unchecked Sendable` it restates from `Locked`): what it adds to its
/// locked state are constants of `Sendable` types and atomics.
final class InjectorLifecycle: Locked<LifecycleState>, @unchecked Sendable {
    /// The node table whose storages the injector owns; `nil` for a template's child, whose
    /// table its siblings share and whose own values are its provisions.
    private let table: NodeTable?
    /// The parent's lifecycle, which holds this one from `init` to `leaveParent` or the parent's
    /// `close`.
    private let parent: InjectorLifecycle?
    /// Where this lifecycle lies among its parent's children (`LifecycleState.children`); -1
    /// with no parent, or when the parent was closed before it could register.
    private let place: Int
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
        let reserved = parent?.withLock { $0.reserve() }
        place = reserved ?? -1
        super.init(LifecycleState(closed: parent != nil && reserved == nil))
        // The parent closed between the reservation and now: this one is closed with it.
        if let parent, reserved != nil, !parent.withLock({ $0.fill(place, with: self) }) {
            withLock { $0.closed = true }
        }
    }

    /// Records that the injector made a template, whose children register only once they keep
    /// a value.
    func markParent() {
        withLock { $0.isParent = true }
    }

    /// Whether the injector made a child or a template.
    var hasChildren: Bool { withLock { $0.isParent } }

    /// Leaves the parent's lifecycle: the injector is being released.
    func leaveParent() {
        guard let parent, place >= 0 else { return }
        parent.withLock { $0.remove(self, at: place) }
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
        let children = withLock { $0.liveChildren }
        return bodies.load(ordering: .sequentiallyConsistent) + children.reduce(0) { $0 + $1.bodiesInFamily }
    }

    /// A template child's provision for the template's scoped node of `slot`, made by `make` on
    /// first use.
    func provision<Value>(for slot: ScopeSlot, make: () -> Provision<Value>) -> Provision<Value> {
        withLock { state in
            if let box = state.provision(at: slot.index) as? ProvisionBox<Value> { return box.provision }
            let made = make()
            state.place(ProvisionBox(made), at: slot.index)
            if let storage = made.storage { state.sealIfClosed(storage) }
            return made
        }
    }

    /// A template child's storage for the template's singleton of `slot`, made on first use,
    /// closed by `closer` if the binding says.
    func storage(for slot: ScopeSlot, key: AnyKey, closer: ValueCloser?) -> InstanceStorage {
        withLock { state in
            if let storage = state.provision(at: slot.index) as? InstanceStorage { return storage }
            let storage = InstanceStorage(key)
            storage.closer = closer
            state.place(storage, at: slot.index)
            state.sealIfClosed(storage)
            return storage
        }
    }

    /// Closes this lifecycle and every lifecycle below it, once: returns the values to close,
    /// the children's first (the child registered last first, each child's own children before
    /// it), then this injector's own, newest first. Each storage is sealed and retired under
    /// the lock of its build state (`BuildCoordinator.process`), so that no request finds its
    /// value again.
    func close() -> [ClosingValue] {
        let table = table
        let (children, storages) = withLock { state -> ([InjectorLifecycle], [InstanceStorage]) in
            guard !state.closed else { return ([], []) }
            state.closed = true
            let children = state.takeChildrenNewestFirst()
            return (children, (table?.seal().compactMap(\.storage) ?? []) + state.keptStorages)
        }
        var closing: [ClosingValue] = []
        for child in children { closing += child.close() }
        closing += BuildCoordinator.process.retire(storages).sorted { $0.creation > $1.creation }
        return closing
    }
}

/// What an injector's lifecycle holds behind its lock: the provisions a template's child made,
/// the live children's lifecycles, and whether it was closed.
struct LifecycleState {
    /// A template child's first provision of one of the template's scoped nodes, and that node's
    /// scope slot index (`ScopeSlot`), -1 until there is one: most children of a request
    /// template keep one value, which then needs no array.
    private var firstProvision: AnyObject?
    private var firstIndex = -1
    /// The child's other provisions, at the index of the node's scope slot: its
    /// `InstanceStorage`, or a `ProvisionBox` of the provision its scope made; `nil` where the
    /// child made none yet (and at `firstIndex`).
    private var provisions: [AnyObject?] = []
    /// The live children's lifecycles, each at the place it was given (`reserve()`) with the
    /// order it registered in; `nil` at a place reserved and not filled yet, or left.
    private var children: [(lifecycle: InjectorLifecycle, order: Int)?] = []
    /// The places of `children` that are free again, taken before the array grows.
    private var freePlaces: [Int] = []
    private var registrations = 0
    /// `true` once the injector or one of its parents was shut down: a storage made from then
    /// on is sealed, and a child registering is closed at once.
    var closed: Bool
    /// `true` once the injector made a child or a template.
    var isParent = false

    init(closed: Bool) {
        self.closed = closed
    }

    /// A place among the children for a child being made; `nil` once closed.
    mutating func reserve() -> Int? {
        guard !closed else { return nil }
        isParent = true
        if let place = freePlaces.popLast() { return place }
        children.append(nil)
        return children.count - 1
    }

    /// Puts the child made at the place `reserve()` gave it; `false` when closed since.
    mutating func fill(_ place: Int, with child: InjectorLifecycle) -> Bool {
        guard !closed else { return false }
        registrations += 1
        children[place] = (child, registrations)
        return true
    }

    /// Frees the place of a child being released, if it still holds it.
    mutating func remove(_ child: InjectorLifecycle, at place: Int) {
        guard place < children.count, children[place]?.lifecycle === child else { return }
        children[place] = nil
        freePlaces.append(place)
    }

    /// The live children, in no order.
    var liveChildren: [InjectorLifecycle] { children.compactMap { $0?.lifecycle } }

    /// Takes the live children for a shutdown, the one registered last first; no place is held
    /// after.
    mutating func takeChildrenNewestFirst() -> [InjectorLifecycle] {
        let taken = children.compactMap { $0 }.sorted { $0.order > $1.order }.map(\.lifecycle)
        children = []
        freePlaces = []
        return taken
    }

    /// The provision at `index`, if the child made one.
    func provision(at index: Int) -> AnyObject? {
        if index == firstIndex { return firstProvision }
        return index < provisions.count ? provisions[index] : nil
    }

    /// Places a provision at `index`, where there is none.
    mutating func place(_ provision: AnyObject, at index: Int) {
        if firstProvision == nil {
            firstProvision = provision
            firstIndex = index
            return
        }
        while index >= provisions.count { provisions.append(nil) }
        provisions[index] = provision
    }

    /// Seals a storage just made when the lifecycle is closed.
    func sealIfClosed(_ storage: InstanceStorage) {
        if closed { BuildCoordinator.process.seal(storage) }
    }

    /// The storages among the provisions: those that keep an instance.
    var keptStorages: [InstanceStorage] {
        ([firstProvision] + provisions).compactMap { provision in
            (provision as? InstanceStorage) ?? (provision as? KeptProvision)?.storage
        }
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
