import Synchronization

/// Keeps the one instance of a singleton binding: a lock-free read once it exists, and a lock
/// only while it is first built, so it is built exactly once however many threads ask.
final class SingletonStorage<Value>: @unchecked Sendable {
    private let stored = AtomicLazyReference<UncheckedBox<Value>>()
    private let lock = Mutex<Void>(())
    private let key: AnyKey

    init(key: AnyKey) {
        self.key = key
    }

    @inline(__always)
    func instance(_ resolution: inout Resolution, build: Plan<Value>) throws -> Value {
        if let box = stored.load() { return box.value }
        return try create(&resolution, build: build)
    }

    @inline(never)
    private func create(_ resolution: inout Resolution, build: Plan<Value>) throws -> Value {
        let id = ObjectIdentifier(self)
        // Only a closure or provider binding can lead back here while the instance is being
        // built (the compiled graph has no cycles); fail instead of waiting on our own lock.
        if resolution.active.contains(id) {
            throw InjectionError(InjectionError.Problem(
                .cyclicDependency, key: key, path: [key],
                message: "\(key) is a singleton that needs itself while it is being built.",
                fix: "Remove the request for \(key) from the closure or provider bindings it depends on."))
        }
        var failure: (any Error)?
        lock.withLock { _ in
            guard stored.load() == nil else { return }
            resolution.active.append(id)
            defer { resolution.active.removeLast() }
            do {
                _ = stored.storeIfNil(UncheckedBox(try build(&resolution)))
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        guard let box = stored.load() else {
            throw InjectionError(.initializerFailed, key: key, message: "The singleton \(key) was not stored.",
                                 fix: "Report this as a bug in Sightless.")
        }
        return box.value
    }
}
