import Synchronization

/// The nodes compiled after an injector was built (on their first request), found without a
/// lock: an open-addressing table like `NodeIndex`, filled in place.
///
/// One thread adds at a time (the `NodeTable`'s compiling lock); any thread reads. An entry is
/// written before its type word is published, so a reader that sees the word sees the entry;
/// an entry is never changed once published. When a table would be more than a quarter full,
/// the `NodeTable` makes one twice the size and publishes it instead; the old one stays alive
/// for the readers still in it, and all of them together hold at most twice the entries of the
/// newest. So the memory grows with the number of keys compiled, where a copy of every table
/// per compile would make it grow with their square.
///
/// Invariant: `types` and `entries` each hold `capacity` initialized elements, allocated in
/// `init` and freed in `deinit`, and every slot a probe reads is masked by `mask` (`capacity - 1`,
/// a power of two minus one), so it lies within them. Entries are added only under the owning
/// `NodeTable`'s `compiling` lock, each written before its type word is stored with release
/// ordering, and never changed after; a reader loads the type word with acquire ordering before
/// it reads the entry. Every node an entry points to, and its storage's cell, is kept alive by
/// the `NodeTable`, which keeps this index alive too (`laterIndexes`), so a `Memory` read from it
/// stays valid for as long as the table.
@usableFromInline
@safe final class LaterIndex {
    @usableFromInline struct Entry {
        @usableFromInline var name: String?
        @usableFromInline var node: UnownedReference<AnyNode>?
        /// The cell of the node's storage, when a scope keeps its value.
        @usableFromInline var instance: InstanceCell?
    }

    /// The identity of each entry's key type; 0 marks an empty entry. Published last.
    @usableFromInline let types: UnsafeMutablePointer<Atomic<UInt>>
    /// The name and node of each entry, written before its type word.
    @usableFromInline let entries: UnsafeMutablePointer<Entry>
    @usableFromInline let mask: Int
    /// How many entries are filled; read and written only by the thread adding.
    private(set) var count = 0

    var capacity: Int { mask + 1 }

    /// An empty table of `capacity` entries, a power of two.
    init(capacity: Int) {
        unsafe types = .allocate(capacity: capacity)
        unsafe entries = .allocate(capacity: capacity)
        for index in 0..<capacity {
            unsafe (types + index).initialize(to: Atomic(0))
            unsafe (entries + index).initialize(to: Entry(name: nil, node: nil, instance: nil))
        }
        mask = capacity - 1
    }

    deinit {
        unsafe types.deinitialize(count: capacity)
        unsafe types.deallocate()
        unsafe entries.deinitialize(count: capacity)
        unsafe entries.deallocate()
    }

    /// `true` when one more entry keeps the table at most a quarter full.
    var hasRoom: Bool { (count + 1) * 4 <= capacity }

    /// Adds `node` under `key`, unless an entry of that key is there; by the thread adding, when
    /// `hasRoom`. The node must stay alive as long as the table.
    func add(_ key: AnyKey, _ node: AnyNode) {
        let identity = UInt(bitPattern: ObjectIdentifier(key.type))
        var slot = NodeIndex.slot(of: identity, name: key.name, mask: mask)
        while true {
            let type = unsafe types[slot].load(ordering: .relaxed)
            if type == 0 { break }
            if type == identity, unsafe entries[slot].name == key.name { return }
            slot = (slot + 1) & mask
        }
        unsafe entries[slot] = Entry(name: key.name, node: UnownedReference(node), instance: node.storage?.stored)
        unsafe types[slot].store(identity, ordering: .releasing)
        count += 1
    }

    /// The node of a key, if it was added.
    @inlinable @inline(__always)
    func node(type: Any.Type, name: String?) -> UnownedReference<AnyNode>? {
        memory.node(type: type, name: name)
    }

    /// Where the entries lie: read from the index, borrowed, then probed with nothing borrowed,
    /// so that the index is not retained around the atomic loads of the probe.
    @inlinable @inline(__always)
    var memory: Memory { unsafe Memory(types: types, entries: entries, mask: mask) }

    /// The memory of an index's entries, which the index keeps for as long as it lives.
    ///
    /// Invariant: made only from a live index's `types`, `entries` and `mask` (`memory`), read
    /// while the index is alive (the `NodeTable` keeps every index it published), each entry
    /// after its type word is loaded with acquire ordering, as `LaterIndex` says.
    @usableFromInline
    @safe struct Memory {
        @usableFromInline let types: UnsafeMutablePointer<Atomic<UInt>>
        @usableFromInline let entries: UnsafeMutablePointer<Entry>
        @usableFromInline let mask: Int

        @inlinable @inline(__always)
        init(types: UnsafeMutablePointer<Atomic<UInt>>, entries: UnsafeMutablePointer<Entry>, mask: Int) {
            unsafe self.types = types
            unsafe self.entries = entries
            self.mask = mask
        }

        /// The node of a key, if it was added.
        @inlinable @inline(__always)
        func node(type: Any.Type, name: String?) -> UnownedReference<AnyNode>? {
            entry(type: type, name: name)?.node
        }

        @inlinable @inline(__always)
        func entry(type: Any.Type, name: String?) -> IndexedNode? {
            // The acquiring load of an entry's type word comes before the read of the entry.
            let types = unsafe types, entries = unsafe entries
            return NodeIndex.probe(identity: UInt(bitPattern: ObjectIdentifier(type)), name: name, mask: mask,
                                   type: { unsafe types[$0].load(ordering: .acquiring) },
                                   isNamed: { unsafe entries[$0].name != nil }, nameEquals: { unsafe entries[$0].name == $1 },
                                   entry: { unsafe IndexedNode(node: entries[$0].node, instance: entries[$0].instance) })
        }
    }
}

/// The newest `LaterIndex` of a `NodeTable`, published through an atomic word that holds its
/// address, in memory of its own: the table and each injector that runs it hold copies of this
/// handle, so that a request reads the word without a lock and without retaining or borrowing
/// the table.
///
/// Invariant: the table allocates the word when it is made and frees it in its `deinit`, after
/// every injector holding a copy is gone (each holds the table strongly). The word is `nil` or
/// the `address` of a `LaterIndex` that the table keeps alive in `laterIndexes` for as long as
/// it lives; an index is published with release ordering after it is filled, and read with
/// acquire ordering.
@usableFromInline
@safe struct PublishedLaterIndex {
    @usableFromInline let word: UnsafeMutablePointer<Atomic<UInt>>

    /// A word that publishes nothing yet; freed by `free()`.
    static func allocate() -> PublishedLaterIndex {
        let word = UnsafeMutablePointer<Atomic<UInt>>.allocate(capacity: 1)
        unsafe word.initialize(to: Atomic(0))
        return unsafe PublishedLaterIndex(word: word)
    }

    @usableFromInline
    init(word: UnsafeMutablePointer<Atomic<UInt>>) {
        unsafe self.word = word
    }

    /// Frees the word; called once, by the table's `deinit`.
    func free() {
        unsafe word.deinitialize(count: 1)
        unsafe word.deallocate()
    }

    /// The memory of the newest index published, if any: read from the index, borrowed, so that
    /// the caller probes it with nothing retained.
    @inlinable @inline(__always)
    var memory: LaterIndex.Memory? {
        let address = unsafe word[0].load(ordering: .acquiring)
        guard let address = unsafe UnsafeRawPointer(bitPattern: address) else { return nil }
        return unsafe UnownedReference<LaterIndex>.at(address).reading { $0.memory }
    }

    /// Publishes `index` as the newest; the caller keeps it alive for as long as the table lives.
    func publish(_ index: LaterIndex) {
        unsafe word[0].store(UInt(bitPattern: UnownedReference(index).address), ordering: .releasing)
    }
}

/// Invariant: the word is read and written only by atomic operations, and lives as long as the
/// table that frees it, which every holder of a copy keeps alive.
extension PublishedLaterIndex: @unchecked Sendable {}
