/// A node found in an injector's node index under the identity of `Value`: read as a
/// `Node<Value>`, and its kept instance as a `Value`, without comparing types again and without
/// retaining the node.
///
/// Invariant, kept here: a `FoundNode<Value>` is made only by `Injector.compiledEntry(_:name:)`
/// (and `Injector.compiled(_:name:)`, which calls it), which probes the index by the identity of
/// `Value`; an index holds a node only under the type it produces (checked when it is built),
/// and a node keeps only a storage of its own value type. The injector's table keeps the node
/// alive as long as the injector lives, and whoever reads it holds the injector (a `Factory`
/// holds it beside the node it found).
@usableFromInline
struct FoundNode<Value>: Sendable {
    @usableFromInline let reference: UnownedReference<AnyNode>

    /// Invariant: `reference` is a node found under the identity of `Value`.
    @unsafe @inlinable @inline(__always)
    init(_ reference: UnownedReference<AnyNode>) {
        self.reference = reference
    }

    /// The instance the node's storage keeps, once it is stored.
    @inlinable @inline(__always)
    var existing: Value? {
        reference.reading { node in unsafe node.storage?.existingVerified(as: Value.self) }
    }

    /// Runs `body` with the node, retaining nothing.
    @inlinable @inline(__always)
    func withNode<Result>(_ body: (Node<Value>) throws -> Result) rethrows -> Result {
        try reference.withObject { node in try body(unsafe node.typedVerified(as: Value.self)) }
    }

    /// Runs `body` with the node untyped, retaining nothing.
    @inlinable @inline(__always)
    func reading<Result>(_ body: (AnyNode) -> Result) -> Result {
        reference.reading(body)
    }

    /// The node untyped, retained by the caller from here on.
    @inlinable @inline(__always)
    var object: AnyNode { reference.object }
}

/// A node found in an injector's node index under the identity of `Value`, with the cell of the
/// instance a scope keeps for it, read with nothing retained or borrowed.
///
/// Invariant, kept here: as `FoundNode`'s; `instance` is the cell of the node's storage.
@usableFromInline
struct FoundEntry<Value> {
    @usableFromInline let node: FoundNode<Value>
    /// The cell of the instance a scope keeps for the node, if it keeps one.
    @usableFromInline let instance: InstanceCell?

    /// Invariant: `instance` is the cell of `node`'s storage, if it has one.
    @unsafe @inlinable @inline(__always)
    init(node: FoundNode<Value>, instance: InstanceCell?) {
        self.node = node
        self.instance = instance
    }

    /// The kept instance, once a scope has stored it.
    @inlinable @inline(__always)
    var existing: Value? { unsafe instance?.existingVerified(as: Value.self) }
}

extension Injector {
    /// The compiled node of `Value` named `name`, if there is one yet; read without retaining
    /// the table.
    @inlinable @inline(__always)
    func compiled<Value>(_ type: Value.Type, name: String?) -> FoundNode<Value>? {
        compiledEntry(Value.self, name: name)?.node
    }

    /// The index's entry for `Value` named `name`, if the key is compiled yet: its node, and
    /// the cell of the instance a scope keeps for it, read without retaining the table.
    @inlinable @inline(__always)
    func compiledEntry<Value>(_ type: Value.Type, name: String?) -> FoundEntry<Value>? {
        // The table is borrowed only for the probe of its base index, where nothing is atomic:
        // the word that publishes its later index is read through the injector's own copy of
        // its handle, so that neither is retained.
        let entry = graphNodes.reading({ table in table.baseIndex.entry(type: Value.self, name: name) })
            ?? later.memory?.entry(type: Value.self, name: name)
        guard let entry, let node = entry.node else { return nil }
        return unsafe FoundEntry(node: FoundNode(node), instance: entry.instance)
    }
}
