import Synchronization

/// The cell that publishes a kept instance: one atomic pointer in memory of its own, so that
/// the index a request probes can point at it and a request reads the instance without
/// touching, retaining or borrowing the storage or the node that owns it.
///
/// Invariant: an `InstanceStorage` allocates its cell when it is made and frees it in its
/// `deinit`, after which nothing reads it: every other holder of the cell (a `NodeIndex` or
/// `LaterIndex` entry) belongs to the node table that keeps the node, and so the storage,
/// alive. The pointer it publishes is `nil` or the address of an initialized instance of the
/// storage's `valueType`, which stays allocated as long as the storage (a shutdown retires it
/// without freeing it).
@usableFromInline
@safe struct InstanceCell {
    @usableFromInline let address: UnsafeMutablePointer<Atomic<UnsafeMutableRawPointer?>>

    /// A cell that publishes nothing yet; freed by `free()`.
    static func allocate() -> InstanceCell {
        let address = UnsafeMutablePointer<Atomic<UnsafeMutableRawPointer?>>.allocate(capacity: 1)
        unsafe address.initialize(to: Atomic(nil))
        return unsafe InstanceCell(address: address)
    }

    @usableFromInline
    init(address: UnsafeMutablePointer<Atomic<UnsafeMutableRawPointer?>>) {
        unsafe self.address = address
    }

    /// Frees the cell; called once, by the storage's `deinit`.
    func free() {
        unsafe address.deinitialize(count: 1)
        unsafe address.deallocate()
    }

    /// Where the instance lives, once it has been published.
    @inlinable @inline(__always)
    func load() -> UnsafeMutableRawPointer? {
        unsafe address[0].load(ordering: .acquiring)
    }

    /// Publishes (or, with `nil`, retires) the instance's address.
    func publish(_ pointer: UnsafeMutableRawPointer?) {
        unsafe address[0].store(pointer, ordering: .releasing)
    }

    /// The published instance, read as a `Value` without comparing types.
    ///
    /// Invariant: the caller found the cell by the identity of `Value` in a node index, which
    /// indexes a node (and its storage's cell) only under the type it produces, and a node keeps
    /// only a storage of its own value type.
    @inlinable @inline(__always)
    func existingVerified<Value>(as type: Value.Type) -> Value? {
        guard let pointer = unsafe load() else { return nil }
        return unsafe pointer.assumingMemoryBound(to: Value.self).pointee
    }
}
