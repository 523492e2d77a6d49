extension InstanceStorage {
    /// The stored instance, read in place.
    ///
    /// Invariant: `pointer` came from this storage's `instancePointer`, whose memory was
    /// initialized with a `Value`: every reader was handed the storage by a `TypedStorage<Value>`,
    /// made by `typed(as:)` after comparing `valueType`, or compares it itself.
    @inlinable @inline(__always)
    static func read<Value>(_ pointer: UnsafeMutableRawPointer, as type: Value.Type) -> Value {
        unsafe pointer.assumingMemoryBound(to: Value.self).pointee
    }

    /// Frees an instance stored by `store`.
    static func destroy<Value>(_ pointer: UnsafeMutableRawPointer, as type: Value.Type) {
        let typed = unsafe pointer.assumingMemoryBound(to: Value.self)
        unsafe typed.deinitialize(count: 1)
        unsafe typed.deallocate()
    }
}

extension InstanceStorage {
    /// The instance, if it exists, read without comparing types.
    ///
    /// Invariant: the caller holds this storage as the storage of a `Node<Value>` or a
    /// `PlanBox<Value>`, which keep only a storage whose `valueType` is `Value` (checked when
    /// they are made), or found the node by the identity of `Value` in a `NodeIndex`, which
    /// indexes a node only under the type it produces.
    @inlinable @inline(__always)
    func existingVerified<Value>(as type: Value.Type) -> Value? {
        guard let pointer = unsafe instancePointer else { return nil }
        return unsafe Self.read(pointer, as: Value.self)
    }
}

/// Invariant: `stored` is an atomic; `builder`, `awaitedBuild`, `sealed` and `destroy` are read
/// and written only under the lock of the injector's `BuildCoordinator` (`destroy` also in
/// `deinit`); `destroy` is written once, before `stored` publishes the instance, and read only in
/// `deinit`; `closable` and `asyncClosable` are written under that lock before `stored`
/// publishes the instance, and `creation` under it just after; a shutdown reads them after it has
/// sealed the storage under that lock, so it sees all three; the instance stored is always of
/// type `valueType`.
extension InstanceStorage: @unchecked Sendable {}
