import Synchronization

/// The injector's nodes by key: those compiled when the injector was built, which never
/// change, and those compiled later on a first request, added to a `LaterIndex` in place, so
/// that readers never take a lock.
@usableFromInline
@safe final class NodeTable {
    /// The nodes compiled with the injector; the dictionary they came in is not kept.
    @usableFromInline let baseIndex: NodeIndex
    /// The newest index of the nodes compiled later, as the address of an object `laterIndexes`
    /// keeps alive.
    @usableFromInline let latest = unsafe Atomic<UnsafeRawPointer?>(nil)
    /// Serializes compiling on first request.
    private let compiling = Lock()
    /// The thread compiling, or 0: set and cleared under `compiling`. Only the thread itself can
    /// find its own identity here (a thread that has exited is compiling nothing).
    private let compilingThread = Atomic<UInt>(0)
    /// Every index of the nodes compiled later ever published, so that a reader still using an
    /// older one never sees it freed; each is twice the size of the one before. Guarded by
    /// `compiling`.
    private var laterIndexes: [LaterIndex] = []
    /// The nodes compiled later, by key; keeps them alive. Guarded by `compiling`.
    private var laterNodes: [AnyKey: AnyNode] = [:]
    /// `true` once the injector is shut down: nothing more is compiled, so that every node
    /// with a storage is among those `seal()` returned. Guarded by `compiling`.
    private var sealed = false
    /// The nodes kept from a parent injector, which are not this injector's. Guarded by
    /// `compiling`.
    private var inherited: Set<ObjectIdentifier> = []
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
        guard let address = unsafe latest.load(ordering: .acquiring) else { return nil }
        return unsafe UnownedReference<LaterIndex>.at(address).reading { $0.memory }
    }

    /// The node of a key compiled after the injector was built, if any.
    @inlinable @inline(__always)
    func laterReference(type: Any.Type, name: String?) -> UnownedReference<AnyNode>? {
        guard let address = unsafe latest.load(ordering: .acquiring) else { return nil }
        return unsafe UnownedReference<LaterIndex>.at(address).reading { $0.memory }.node(type: type, name: name)
    }

    /// Every node compiled for this injector (not those kept from a parent), in no order, after
    /// which nothing more is compiled: a compile throws `injectorShutDown`. Called by a
    /// shutdown.
    func seal() -> [AnyNode] {
        compiling.withLock {
            sealed = true
            return baseIndex.allNodes + laterNodes.values.filter { !inherited.contains(ObjectIdentifier($0)) }
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
        try compiling.withLock { () throws(InjectionError) -> Result in
            if sealed { throw InjectionError(.injectorShutDown(key: key), path: [key]) }
            compilingThread.store(currentThread(), ordering: .relaxed)
            defer { compilingThread.store(0, ordering: .relaxed) }
            // The copy the lookup reads is gone when `compile` returns, so that adding to
            // `laterNodes` below changes it in place rather than copying it whole.
            let (result, added, fromParent) = try { () throws(InjectionError) in
                let current = laterNodes
                return try compile { key in self.baseIndex.node(type: key.type, name: key.name)?.object ?? current[key] }
            }()
            if fromParent { inherited.formUnion(added.values.map(ObjectIdentifier.init)) }
            for (key, node) in added where laterNodes[key] == nil {
                laterNodes[key] = node
                index(key, node)
            }
            return result
        }
    }
}

extension NodeTable {
    /// Adds a node compiled later to the published index, or publishes one twice the size with
    /// every such node when the current one would be more than a quarter full. Under
    /// `compiling`.
    private func index(_ key: AnyKey, _ node: AnyNode) {
        // Like the base index, only a node that produces its key's type is found by it.
        guard node.valueType == ObjectIdentifier(key.type) else { return }
        if let current = laterIndexes.last, current.hasRoom {
            current.add(key, node)
            return
        }
        var capacity = max(32, (laterIndexes.last?.capacity ?? 0) * 2)
        while capacity < (laterNodes.count + 1) * 4 { capacity *= 2 }
        let grown = LaterIndex(capacity: capacity)
        for (key, node) in laterNodes where node.valueType == ObjectIdentifier(key.type) {
            grown.add(key, node)
        }
        laterIndexes.append(grown)
        unsafe latest.store(UnownedReference(grown).address, ordering: .releasing)
    }

    /// The capacities of the indexes of nodes compiled later, oldest first.
    var laterCapacities: [Int] { compiling.withLock { laterIndexes.map(\.capacity) } }
}

/// An open-addressing table from a key to its node, probed by the identity of the key's type:
/// a request finds its node with a multiply, a compare or two, and no hashing of the name
/// (a `Dictionary` of `AnyKey` hashes both with SipHash on every request).
@usableFromInline
struct NodeIndex {
    @usableFromInline struct Entry {
        /// The identity of the key's type; 0 marks an empty entry.
        @usableFromInline let type: UInt
        @usableFromInline let name: String?
        @usableFromInline let node: UnownedReference<AnyNode>?
        /// The cell of the node's storage, when a scope keeps its value: a request reads a
        /// kept instance from it without touching the node.
        @usableFromInline let instance: InstanceCell?
    }

    @usableFromInline let entries: [Entry]
    @usableFromInline let mask: Int
    /// Keeps the nodes the entries point to alive.
    private let nodes: [AnyNode]

    var allNodes: [AnyNode] { nodes }

    init(_ dictionary: [AnyKey: AnyNode]) {
        self.init(keys: Array(dictionary.keys), nodes: Array(dictionary.values))
    }

    /// The index of `nodes[i]` under `keys[i]`, for every `i`; the keys are distinct.
    init(keys: [AnyKey], nodes: [AnyNode]) {
        // At most a quarter full (half, for the largest tables): most keys are found at the
        // first entry probed, and a key not there is most often told by an empty first entry.
        var capacity = 32
        let load = nodes.count <= 65_536 ? 4 : 2
        while capacity < nodes.count * load { capacity *= 2 }
        var entries = [Entry](repeating: Entry(type: 0, name: nil, node: nil, instance: nil), count: capacity)
        let mask = capacity - 1
        // A key is found by the identity of its type, and its node is then read as a node of that
        // type: index only nodes that produce it (all of them, unless a recipe is wrong).
        for (key, node) in zip(keys, nodes) where node.valueType == ObjectIdentifier(key.type) {
            let type = UInt(bitPattern: ObjectIdentifier(key.type))
            var slot = Self.slot(of: type, name: key.name, mask: mask)
            while entries[slot].type != 0 { slot = (slot + 1) & mask }
            entries[slot] = Entry(type: type, name: key.name, node: UnownedReference(node), instance: node.storage?.stored)
        }
        self.entries = entries
        self.mask = mask
        self.nodes = nodes
    }

    @inlinable @inline(__always)
    static func slot(of type: UInt, name: String?, mask: Int) -> Int {
        // Fibonacci hashing: type identities are aligned addresses, so mix the high bits down.
        // Only named keys (many may share a type) pay for hashing their name.
        var mixed = type
        if let name { mixed ^= UInt(bitPattern: name.hashValue) }
        return Int(truncatingIfNeeded: (mixed &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    @inlinable @inline(__always)
    func node(type: Any.Type, name: String?) -> UnownedReference<AnyNode>? {
        entry(type: type, name: name)?.node
    }

    /// The node of a key and its kept instance's cell, if the index has the key.
    @inlinable @inline(__always)
    func entry(type: Any.Type, name: String?) -> IndexedNode? {
        let identity = UInt(bitPattern: ObjectIdentifier(type))
        let mask = mask
        return unsafe entries.withUnsafeBufferPointer { entries in
            Self.probe(identity: identity, name: name, mask: mask, type: { unsafe entries[$0].type },
                       isNamed: { unsafe entries[$0].name != nil }, nameEquals: { unsafe entries[$0].name == $1 },
                       entry: { unsafe IndexedNode(node: entries[$0].node, instance: entries[$0].instance) })
        }
    }

    /// The node of the key of type `identity` and `name` in an open-addressing table of
    /// `mask + 1` entries, probed from the key's slot: `type(slot)` is the identity at a slot
    /// (0 for an empty one), `isNamed` and `nameEquals` read its name, `entry(slot)` its node and cell.
    @inlinable @inline(__always)
    static func probe(
        identity: UInt, name: String?, mask: Int,
        type: (Int) -> UInt, isNamed: (Int) -> Bool, nameEquals: (Int, String) -> Bool,
        entry: (Int) -> IndexedNode
    ) -> IndexedNode? {
        var slot = slot(of: identity, name: name, mask: mask)
        while true {
            let entryType = type(slot)
            if entryType == 0 { return nil }
            // An unnamed key, the common case, is matched without reading the entry's name.
            if entryType == identity {
                if let name {
                    if nameEquals(slot, name) { return entry(slot) }
                } else if !isNamed(slot) {
                    return entry(slot)
                }
            }
            slot = (slot + 1) & mask
        }
    }
}

/// What a node index holds for a key: its node, and the cell of its kept instance when a scope
/// keeps one.
@usableFromInline
struct IndexedNode {
    @usableFromInline let node: UnownedReference<AnyNode>?
    @usableFromInline let instance: InstanceCell?

    @inlinable @inline(__always)
    init(node: UnownedReference<AnyNode>?, instance: InstanceCell?) {
        self.node = node
        self.instance = instance
    }
}
