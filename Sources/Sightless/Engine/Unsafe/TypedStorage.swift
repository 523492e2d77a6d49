/// An instance storage known to keep `Value`s, whose instance is read without comparing types:
/// the storage of an argument's plan (`ArgumentPlan`) or of a `Handle`.
///
/// Invariant, kept here: `init(_:)` keeps a storage only when its `valueType` is `Value`, and a
/// storage stores only instances of its `valueType` (`InstanceStorage`), so the read of
/// `existing` as a `Value` (`InstanceStorage.existingVerified(as:)`) is sound whoever holds one.
@usableFromInline
struct TypedStorage<Value>: Sendable {
    @usableFromInline let storage: InstanceStorage

    /// `storage`, when it keeps `Value`s; `nil` otherwise.
    @usableFromInline
    init?(_ storage: InstanceStorage?) {
        guard let storage, storage.valueType == ObjectIdentifier(Value.self) else { return nil }
        self.storage = storage
    }

    /// The instance, if it has been built.
    @inlinable @inline(__always)
    var existing: Value? { unsafe storage.existingVerified(as: Value.self) }
}
