extension InstanceStorage {
    /// The instance, if it exists, read without comparing types.
    ///
    /// Invariant: the caller holds this storage as one whose `valueType` is `Value`: a
    /// `TypedStorage<Value>`'s or a `PlanBox<Value>`'s, which keep only such a storage (checked
    /// when they are made), or a storage of a node it found by the identity of `Value` in a
    /// `NodeIndex`, which indexes a node only under the type it produces
    /// (`InstanceCell.existingVerified(as:)`).
    @unsafe @inlinable @inline(__always)
    func existingVerified<Value>(as type: Value.Type) -> Value? {
        unsafe stored.existingVerified(as: Value.self)
    }
}

/// Invariant: `stored` is a cell whose instance is published through an atomic and stored and
/// retired only under the lock of `BuildCoordinator.process` (`InstanceCell`); `build`'s fields
/// are private to `BuildCoordinator.swift`, whose functions read and write them only under that
/// lock; `closer` is written when the node is linked, before the storage is reachable by any
/// request, and only read after; the instance stored is always of type `valueType`.
extension InstanceStorage: @unchecked Sendable {}
