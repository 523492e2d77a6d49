import Synchronization

/// The injector's nodes by key: those compiled when the injector was built, which never
/// change, and those compiled later on a first request, added to a `LaterIndex` in place, so
/// that readers never take a lock.
@usableFromInline
final class NodeTable {
    /// The nodes compiled with the injector; the dictionary they came in is not kept.
    @usableFromInline let baseIndex: NodeIndex
    /// The newest index of the nodes compiled later, an object `laterIndexes` keeps alive.
    @usableFromInline let latest = PublishedLaterIndex.allocate()
    /// What compiling on first request changes, behind the lock that serializes it.
    private let compiling = Locked(Compiled())
    /// The thread compiling, or 0: set and cleared under `compiling`. Only the thread itself can
    /// find its own identity here (a thread that has exited is compiling nothing).
    private let compilingThread = Atomic<UInt>(0)

    /// The nodes compiled on first request, and whether more may be.
    private struct Compiled {
        /// Every index of the nodes compiled later ever published, so that a reader still using
        /// an older one never sees it freed; each is twice the size of the one before.
        var laterIndexes: [LaterIndex] = []
        /// The nodes compiled later, by key; keeps them alive.
        var laterNodes: [AnyKey: AnyNode] = [:]
        /// `true` once the injector is shut down: nothing more is compiled, so that every node
        /// with a storage is among those `seal()` returned.
        var sealed = false
        /// The nodes kept from a parent injector, which are not this injector's.
        var inherited: Set<ObjectIdentifier> = []
    }
    /// Releases the base nodes in an order that keeps every release shallow. Declared last:
    /// Swift releases stored properties in declaration order, so this goes after `baseIndex`,
    /// whose references then free nothing.
    private let teardown: Teardown

    /// Holds the nodes compiled with the injector, dependencies first, and releases them the
    /// other way round. A node's plan holds its dependencies' plans, so releasing a deep chain's
    /// nodes in any other order could free thousands of plans recursively, one inside the
    /// other, and overflow the releasing thread's stack. Released dependents first, each plan
    /// freed still has its dependencies held by their own nodes, and nothing recurses.
    private final class Teardown {
        private var order: [AnyNode]
        init(_ order: [AnyNode]) { self.order = order }
        deinit {
            while order.popLast() != nil {}
        }
    }

    init(base: [AnyKey: AnyNode], linkOrder: [AnyNode]) {
        self.baseIndex = NodeIndex(base)
        self.teardown = Teardown(linkOrder)
    }

    deinit {
        latest.free()
    }

    /// A table of the nodes `nodes`, each under the key at the same position in `keys`: what
    /// an injector's build hands over without making a dictionary of them first.
    init(keys: [AnyKey], nodes: [AnyNode], linkOrder: [AnyNode]) {
        self.baseIndex = NodeIndex(keys: keys, nodes: nodes)
        self.teardown = Teardown(linkOrder)
    }

    /// The node of a key, if it has been compiled.
    func node(for key: AnyKey) -> AnyNode? {
        reference(type: key.type, name: key.name)?.object
    }

    /// The node of a key, if it has been compiled, held without a retain: the table keeps every
    /// node it ever held alive for as long as it lives.
    @inlinable @inline(__always)
    func reference(type: Any.Type, name: String?) -> UnownedReference<AnyNode>? {
        if let node = baseIndex.node(type: type, name: name) { return node }
        return laterReference(type: type, name: name)
    }

    /// The newest index of the nodes compiled later, if any: its memory, probed by the caller
    /// once the table is no longer borrowed.
    @inlinable @inline(__always)
    var laterMemory: LaterIndex.Memory? {
        latest.memory
    }

    /// The node of a key compiled after the injector was built, if any.
    @inlinable @inline(__always)
    func laterReference(type: Any.Type, name: String?) -> UnownedReference<AnyNode>? {
        latest.memory?.node(type: type, name: name)
    }

    /// Every node compiled for this injector (not those kept from a parent), in no order, after
    /// which nothing more is compiled: a compile throws `injectorShutDown`. Called by a
    /// shutdown.
    func seal() -> [AnyNode] {
        compiling.withLock { compiled in
            compiled.sealed = true
            return baseIndex.allNodes + compiled.laterNodes.values.filter { !compiled.inherited.contains(ObjectIdentifier($0)) }
        }
    }

    /// `true` while this thread compiles keys of this table: a request made then (by a type's
    /// `initializer`, `properties` or `scope`, read while it is compiled) would wait for itself
    /// on `compiling`.
    var compilesOnThisThread: Bool {
        compilingThread.load(ordering: .relaxed) == currentThread()
    }

    /// Runs `compile` of `key` alone, and publishes the nodes it returns; `compile` says whether
    /// they are a parent's, kept here for quick lookup. Throws `injectorShutDown` once the
    /// table is sealed.
    func compileOnce<Result>(
        for key: AnyKey,
        _ compile: (_ lookup: @escaping (AnyKey) -> AnyNode?) throws(InjectionError) -> (Result, [AnyKey: AnyNode], Bool)
    ) throws(InjectionError) -> Result {
        try compiling.withLock { (compiled: inout Compiled) throws(InjectionError) -> Result in
            if compiled.sealed { throw InjectionError(.injectorShutDown(key: key), path: [key]) }
            compilingThread.store(currentThread(), ordering: .relaxed)
            defer { compilingThread.store(0, ordering: .relaxed) }
            // The copy the lookup reads is gone when `compile` returns, so that adding to
            // `laterNodes` below changes it in place rather than copying it whole.
            let (result, added, fromParent) = try { () throws(InjectionError) in
                let current = compiled.laterNodes
                return try compile { key in self.baseIndex.node(type: key.type, name: key.name)?.object ?? current[key] }
            }()
            if fromParent { compiled.inherited.formUnion(added.values.map(ObjectIdentifier.init)) }
            for (key, node) in added where compiled.laterNodes[key] == nil {
                compiled.laterNodes[key] = node
                index(key, node, in: &compiled)
            }
            return result
        }
    }
}

extension NodeTable {
    /// Adds a node compiled later to the published index, or publishes one twice the size with
    /// every such node when the current one would be more than a quarter full. Under
    /// `compiling`, whose state is `compiled`.
    private func index(_ key: AnyKey, _ node: AnyNode, in compiled: inout Compiled) {
        // Like the base index, only a node that produces its key's type is found by it.
        guard node.valueType == ObjectIdentifier(key.type) else { return }
        if let current = compiled.laterIndexes.last, current.hasRoom {
            current.add(key, node)
            return
        }
        var capacity = max(32, (compiled.laterIndexes.last?.capacity ?? 0) * 2)
        while capacity < (compiled.laterNodes.count + 1) * 4 { capacity *= 2 }
        let grown = LaterIndex(capacity: capacity)
        for (key, node) in compiled.laterNodes where node.valueType == ObjectIdentifier(key.type) {
            grown.add(key, node)
        }
        compiled.laterIndexes.append(grown)
        latest.publish(grown)
    }

    /// The capacities of the indexes of nodes compiled later, oldest first.
    var laterCapacities: [Int] { compiling.withLock { $0.laterIndexes.map(\.capacity) } }
}
