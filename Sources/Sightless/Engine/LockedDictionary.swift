/// A dictionary that several threads read and write, behind a pthread lock: ThreadSanitizer
/// cannot see `Synchronization.Mutex` on Linux, and reports what it guards as racing (see
/// `Lock`).
final class LockedDictionary<Lookup: Hashable, Stored> {
    private let lock = Lock()
    private var storage: [Lookup: Stored] = [:]

    init() {}

    /// The value of `key`, if one was stored.
    func value(for key: Lookup) -> Stored? {
        lock.withLock { storage[key] }
    }

    /// Stores `value` for `key`.
    func set(_ value: Stored, for key: Lookup) {
        lock.withLock { storage[key] = value }
    }
}
