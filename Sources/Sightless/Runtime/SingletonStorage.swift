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
///
/// The instance lives in memory of its own, published by an atomic pointer. Nothing here is
/// generic over the value's type, so reading it asks the runtime for no type metadata (an
/// `AtomicLazyReference` of a generic box does, on every read).
@usableFromInline
final class SingletonStorage: @unchecked Sendable {
    @usableFromInline let stored = Atomic<UnsafeMutableRawPointer?>(nil)
    /// Serializes the first build; also guards `destroy`.
    private let lock = Lock()
    /// The thread building the instance, or 0: a request on that same thread can only come
    /// from the instance needing itself, and must fail rather than wait on its own lock.
    private let builder = Atomic<UInt>(0)
    /// Frees the instance with the storage; set once, under the lock, when it is stored.
    private var destroy: ((UnsafeMutableRawPointer) -> Void)?
    private let key: AnyKey

    init(key: AnyKey) {
        self.key = key
    }

    deinit {
        if let pointer = stored.load(ordering: .acquiring) { destroy?(pointer) }
    }

    /// Where the instance lives, once it exists.
    @inlinable @inline(__always)
    var instancePointer: UnsafeMutableRawPointer? {
        stored.load(ordering: .acquiring)
    }

    /// The instance, if it has been built.
    func existing<Value>(as type: Value.Type) -> Value? {
        stored.load(ordering: .acquiring).map { $0.assumingMemoryBound(to: Value.self).pointee }
    }

    @inline(__always)
    func instance<Value>(_ resolution: inout Resolution, build: Plan<Value>) throws -> Value {
        if let pointer = stored.load(ordering: .acquiring) {
            return pointer.assumingMemoryBound(to: Value.self).pointee
        }
        return try create(&resolution, build: build)
    }

    @inline(never)
    private func create<Value>(_ resolution: inout Resolution, build: Plan<Value>) throws -> Value {
        let thread = currentThread()
        if builder.load(ordering: .relaxed) == thread {
            throw InjectionError(InjectionError.Problem(
                .cyclicDependency, key: key, path: [key],
                message: "\(key) is a singleton that needs itself while it is being built.",
                fix: "Do not ask for \(key) (directly, or through a Lazy, Factory, closure or provider) from anything it needs while it is being built."))
        }
        var failure: (any Error)?
        lock.withLock {
            guard stored.load(ordering: .acquiring) == nil else { return }
            builder.store(thread, ordering: .relaxed)
            defer { builder.store(0, ordering: .relaxed) }
            do {
                let value = try build(&resolution)
                let pointer = UnsafeMutablePointer<Value>.allocate(capacity: 1)
                pointer.initialize(to: value)
                destroy = { raw in
                    let typed = raw.assumingMemoryBound(to: Value.self)
                    typed.deinitialize(count: 1)
                    typed.deallocate()
                }
                stored.store(UnsafeMutableRawPointer(pointer), ordering: .releasing)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        guard let pointer = stored.load(ordering: .acquiring) else {
            throw InjectionError(.initializerFailed, key: key, message: "The singleton \(key) was not stored.",
                                 fix: "Report this as a bug in Sightless.")
        }
        return pointer.assumingMemoryBound(to: Value.self).pointee
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
