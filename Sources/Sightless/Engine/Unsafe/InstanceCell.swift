import Synchronization

/// The cell that keeps an instance for an `InstanceStorage`: the instance in memory of its own,
/// published through one atomic pointer, so that the index a request probes can point at the
/// cell and a request reads the instance without touching, retaining or borrowing the storage or
/// the node that owns it.
///
/// Invariant: an `InstanceStorage` allocates its cell when it is made and frees it in its
/// `deinit` (`free()`), after which nothing reads it: every other holder of the cell (a
/// `NodeIndex` or `LaterIndex` entry) belongs to the node table that keeps the node, and so the
/// storage, alive. The cell is one allocation: the `Contents`, then `roomSize` bytes at
/// `roomOffset`, aligned to 16, where `store` places an instance that fits (a class reference,
/// an existential of one, a small struct), once; a larger one gets memory of its own. The
/// published pointer is `nil` or the address of an initialized instance of `valueType`, in the
/// room or allocated by `store`; `retire()` stops publishing it but keeps it alive until
/// `free()`, since a reader may still hold the address it loaded. `store` and `retire()` are
/// called only under the lock of `BuildCoordinator.process`, which also orders them with
/// `free()` (the storage's last reference is gone by then), so `retired` and `storedType` are
/// never written by two threads at once; `storedType` is written before the instance is
/// published, and is the type the instance was stored as.
@usableFromInline
@safe struct InstanceCell {
    /// The memory of a cell: the published address first, then what frees the instance.
    @usableFromInline
    @safe struct Contents: ~Copyable {
        /// The instance's address, once it is stored and until it is retired.
        @usableFromInline let published: Atomic<UnsafeMutableRawPointer?>
        /// The type of the instance the cell may keep.
        @usableFromInline let valueType: ObjectIdentifier
        /// The instance a shutdown retired, kept until the cell is freed.
        var retired: UnsafeMutableRawPointer?
        /// The type the instance was stored as, which destroys and frees it; set once, by
        /// `store`. A metatype, not a closure: storing allocates nothing beyond the instance.
        var storedType: (any Any.Type)?

        init(valueType: ObjectIdentifier) {
            unsafe published = Atomic(nil)
            self.valueType = valueType
            unsafe retired = nil
            storedType = nil
        }
    }

    @usableFromInline let address: UnsafeMutablePointer<Contents>

    /// The room after the contents for an instance that fits: two words.
    static let roomSize = 16
    /// Where the room lies, from the start of the cell's memory.
    static var roomOffset: Int { (MemoryLayout<Contents>.stride + 15) & ~15 }

    /// A cell that keeps nothing yet, for an instance of the type `valueType`; freed by `free()`.
    static func allocate(valueType: ObjectIdentifier) -> InstanceCell {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: roomOffset + roomSize, alignment: 16)
        let address = unsafe memory.bindMemory(to: Contents.self, capacity: 1)
        unsafe address.initialize(to: Contents(valueType: valueType))
        return unsafe InstanceCell(address: address)
    }

    /// The room for an instance that fits, in the cell's own memory.
    private var room: UnsafeMutableRawPointer {
        unsafe UnsafeMutableRawPointer(address) + Self.roomOffset
    }

    @usableFromInline
    init(address: UnsafeMutablePointer<Contents>) {
        unsafe self.address = address
    }

    /// Destroys the instance, published or retired, and frees the cell; called once, by the
    /// storage's `deinit`.
    func free() {
        let published = unsafe address.pointee.published.load(ordering: .acquiring)
        let retired = unsafe address.pointee.retired
        if let storedType = unsafe address.pointee.storedType {
            if let pointer = unsafe published { unsafe destroy(pointer, as: storedType) }
            if let pointer = unsafe retired, unsafe pointer != published { unsafe destroy(pointer, as: storedType) }
        }
        unsafe address.deinitialize(count: 1)
        unsafe UnsafeMutableRawPointer(address).deallocate()
    }

    /// `true` while an instance is published.
    var isPublished: Bool {
        unsafe address.pointee.published.load(ordering: .acquiring) != nil
    }

    /// Stores `value` as the instance and publishes it, when it is of the cell's `valueType`
    /// (else `false`, and nothing is stored); under the coordinator's lock, at most once.
    @discardableResult
    func store<Value>(_ value: Value) -> Bool {
        guard unsafe address.pointee.valueType == ObjectIdentifier(Value.self) else { return false }
        let pointer: UnsafeMutablePointer<Value>
        let roomIsFree = unsafe address.pointee.published.load(ordering: .acquiring) == nil && address.pointee.retired == nil
        if roomIsFree, MemoryLayout<Value>.size <= Self.roomSize, MemoryLayout<Value>.alignment <= 16 {
            unsafe pointer = room.initializeMemory(as: Value.self, to: value)
        } else {
            unsafe pointer = UnsafeMutablePointer<Value>.allocate(capacity: 1)
            unsafe pointer.initialize(to: value)
        }
        unsafe address.pointee.storedType = Value.self
        unsafe address.pointee.published.store(UnsafeMutableRawPointer(pointer), ordering: .releasing)
        return true
    }

    /// Stops publishing the instance, which stays alive until the cell is freed: `true` when
    /// there was one. Under the coordinator's lock.
    func retire() -> Bool {
        guard let pointer = unsafe address.pointee.published.load(ordering: .acquiring) else { return false }
        unsafe address.pointee.retired = pointer
        unsafe address.pointee.published.store(nil, ordering: .releasing)
        return true
    }

    /// The instance `retire()` retired, when its own `close()` closes it at a shutdown: it is
    /// ``AsyncClosable``, or else ``Closable``. Asked once, at the shutdown, so that storing an
    /// instance casts nothing. Under the coordinator's lock, after `retire()` returned `true`.
    func retiredClosable() -> AnyObject? {
        guard let pointer = unsafe address.pointee.retired, let storedType = unsafe address.pointee.storedType else {
            return nil
        }
        return unsafe Self.closable(pointer, as: storedType)
    }

    /// The instance lying at `pointer`, stored as a `Value`, when it closes itself.
    private static func closable<Value>(_ pointer: UnsafeMutableRawPointer, as type: Value.Type) -> AnyObject? {
        let value = unsafe pointer.assumingMemoryBound(to: Value.self).pointee
        if let closable = value as? any AsyncClosable { return closable }
        return value as? any Closable
    }

    /// The published instance, if it is a `Value`.
    @inlinable @inline(__always)
    func existing<Value>(as type: Value.Type) -> Value? {
        guard let pointer = unsafe address.pointee.published.load(ordering: .acquiring),
              unsafe address.pointee.valueType == ObjectIdentifier(Value.self) else {
            return nil
        }
        return unsafe pointer.assumingMemoryBound(to: Value.self).pointee
    }

    /// The published instance, read as a `Value` without comparing types.
    ///
    /// Invariant: the caller holds the cell of a storage whose `valueType` is `Value`: it found
    /// the cell by the identity of `Value` in a node index, which indexes a node (and its
    /// storage's cell) only under the type it produces, and a node keeps only a storage of its
    /// own value type; or it holds the storage as that of a `Node<Value>` or a `PlanBox<Value>`,
    /// which check it when they are made.
    @unsafe @inlinable @inline(__always)
    func existingVerified<Value>(as type: Value.Type) -> Value? {
        guard let pointer = unsafe address.pointee.published.load(ordering: .acquiring) else { return nil }
        return unsafe pointer.assumingMemoryBound(to: Value.self).pointee
    }

    /// Destroys an instance `store` stored as a `Value`, and frees its memory unless it lies in
    /// the cell's room.
    private func destroy<Value>(_ pointer: UnsafeMutableRawPointer, as type: Value.Type) {
        let typed = unsafe pointer.assumingMemoryBound(to: Value.self)
        unsafe typed.deinitialize(count: 1)
        if unsafe pointer != room { unsafe typed.deallocate() }
    }
}
