/// An open-addressing table from a key to its node, probed by the identity of the key's type:
/// a request finds its node with a multiply, a compare or two, and no hashing of the name
/// (a `Dictionary` of `AnyKey` hashes both with SipHash on every request).
///
/// Invariant: `entries` holds `mask + 1` entries, a power of two, and is never changed once
/// made, so every slot a probe reads through its buffer (masked by `mask`) lies within it; the
/// `nodes` array keeps alive every node an entry points to, and each node its storage's cell.
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
        // Each empty entry made in place: `Array(repeating:count:)` copies one through its value
        // witness, a call per entry.
        var entries: [Entry] = []
        entries.reserveCapacity(capacity)
        for _ in 0..<capacity { entries.append(Entry(type: 0, name: nil, node: nil, instance: nil)) }
        let mask = capacity - 1
        // A key is found by the identity of its type, and its node is then read as a node of that
        // type: index only nodes that produce it (all of them, unless a recipe is wrong).
        for (key, node) in zip(keys, nodes) where node.valueType == ObjectIdentifier(key.type) {
            let type = UInt(bitPattern: ObjectIdentifier(key.type))
            var slot = Self.slot(of: type, name: key.name, mask: mask)
            while entries[slot].type != 0 { slot = (slot + 1) & mask }
            entries[slot] = unsafe Entry(type: type, name: key.name, node: UnownedReference(node), instance: node.storage?.stored)
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
