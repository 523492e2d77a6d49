#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Keeps the one instance of a singleton binding: a lock-free read once it exists, and a lock
/// only while it is first built, so it is built exactly once however many threads ask.
final class SingletonStorage<Value>: @unchecked Sendable {
    private let stored = AtomicLazyReference<UncheckedBox<Value>>()
    private let lock = Lock()
    /// The thread building the instance, or 0: a request on that same thread can only come
    /// from the instance needing itself, and must fail rather than wait on its own lock.
    private let builder = Atomic<UInt>(0)
    private let key: AnyKey

    init(key: AnyKey) {
        self.key = key
    }

    /// The instance, if it has been built.
    var existing: Value? { stored.load()?.value }

    @inline(__always)
    func instance(_ resolution: inout Resolution, build: Plan<Value>) throws -> Value {
        if let box = stored.load() { return box.value }
        return try create(&resolution, build: build)
    }

    @inline(never)
    private func create(_ resolution: inout Resolution, build: Plan<Value>) throws -> Value {
        let thread = currentThread()
        if builder.load(ordering: .relaxed) == thread {
            throw InjectionError(InjectionError.Problem(
                .cyclicDependency, key: key, path: [key],
                message: "\(key) is a singleton that needs itself while it is being built.",
                fix: "Do not ask for \(key) (directly, or through a Lazy, Factory, closure or provider) from anything it needs while it is being built."))
        }
        var failure: (any Error)?
        lock.withLock {
            guard stored.load() == nil else { return }
            builder.store(thread, ordering: .relaxed)
            defer { builder.store(0, ordering: .relaxed) }
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

/// An identity of the calling thread, never 0.
@inline(__always)
private func currentThread() -> UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    UInt(pthread_self())
    #endif
}
