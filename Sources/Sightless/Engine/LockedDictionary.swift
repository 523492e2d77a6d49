/// A dictionary that several threads read and write, behind a pthread lock that owns it (see
/// `Locked`).
final class LockedDictionary<Lookup: Hashable, Stored>: Sendable where Lookup: Sendable, Stored: Sendable {
    private let storage = Locked<[Lookup: Stored]>([:])

    init() {}

    /// The value of `key`, if one was stored.
    func value(for key: Lookup) -> Stored? {
        storage.withLock { $0[key] }
    }

    /// Stores `value` for `key`.
    func set(_ value: Stored, for key: Lookup) {
        storage.withLock { $0[key] = value }
    }
}
