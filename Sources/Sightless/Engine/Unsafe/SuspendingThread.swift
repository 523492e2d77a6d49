#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Marks the thread running the synchronous part of an awaited request (a section, or a node
/// ready to be built without `await`): there, a value another thread is building is not waited
/// for, which would hold a thread of the cooperative pool (or the main actor) until that build
/// ends. The claim fails instead, noting the build (`noteBusy(_:)`), and `retrying(_:)` awaits
/// it, holding no thread, then runs the part again. What the failed run kept stays kept; what
/// it built for itself is dropped.
///
/// A synchronous request that code of that part makes on the same thread (a resolver's, a
/// `Lazy`'s) is marked too: its failure reaches the part through the code that made it.
///
/// Invariant: the thread's slot holds nothing, `active` (the thread runs a marked part and
/// met no build of another thread's), or a storage retained once for the slot (it met that
/// build). Only this type reads or writes the slot, and only for the calling thread; `attempt`
/// sets it and restores what it found, releasing a storage noted in between.
@usableFromInline @safe enum SuspendingThread {
    private static let slot: pthread_key_t = {
        var key = pthread_key_t()
        unsafe pthread_key_create(&key, nil)
        return key
    }()

    /// The slot's mark of a part that met no build of another thread's.
    private static var active: UnsafeMutableRawPointer { unsafe UnsafeMutableRawPointer(bitPattern: 1)! }

    /// How a marked part ended.
    @usableFromInline enum Outcome<Value, Failure: Error> {
        case ended(Result<Value, Failure>)
        /// It met a value another thread is building.
        case busy(InstanceStorage)
    }

    /// `true` while this thread runs a marked part.
    static var isMarked: Bool { unsafe pthread_getspecific(slot) != nil }

    /// Notes that the marked part running on this thread met `storage`'s build on another
    /// thread; the first noted is the one awaited.
    static func noteBusy(_ storage: InstanceStorage) {
        guard let current = unsafe pthread_getspecific(slot), unsafe current == active else { return }
        unsafe pthread_setspecific(slot, Unmanaged.passRetained(storage).toOpaque())
    }

    /// Runs `body` once, marked.
    @usableFromInline static func attempt<Value, Failure: Error>(_ body: () throws(Failure) -> Value) -> Outcome<Value, Failure> {
        let enclosing = unsafe pthread_getspecific(slot)
        unsafe pthread_setspecific(slot, active)
        let outcome: Result<Value, Failure>
        do throws(Failure) {
            outcome = .success(try body())
        } catch {
            outcome = .failure(error)
        }
        let noted = unsafe pthread_getspecific(slot)
        unsafe pthread_setspecific(slot, enclosing)
        var busy: InstanceStorage?
        if unsafe noted != nil && noted != active {
            busy = unsafe Unmanaged<InstanceStorage>.fromOpaque(noted!).takeRetainedValue()
        }
        if case .failure = outcome, let busy { return .busy(busy) }
        return .ended(outcome)
    }
}

extension SuspendingThread {
    /// Runs `body` marked until it does not meet a value another thread is building, awaiting
    /// each such build in between, holding no thread.
    @inlinable @inline(__always) nonisolated(nonsending)
    static func retrying<Value, Failure: Error>(_ body: () throws(Failure) -> Value) async throws(Failure) -> Value {
        while true {
            switch attempt(body) {
            case .ended(let outcome): return try outcome.get()
            case .busy(let storage): await awaitBuild(of: storage)
            }
        }
    }

    /// Suspends until no thread builds `storage`.
    @usableFromInline nonisolated(nonsending)
    static func awaitBuild(of storage: InstanceStorage) async {
        await BuildCoordinator.process.awaitBuild(of: storage)
    }

    /// `retrying(_:)` for a part that runs on the main actor: marked there, awaited off it.
    nonisolated(nonsending)
    static func retryingOnMainActor<Value: Sendable>(_ body: @MainActor () throws -> Value) async throws -> Value {
        while true {
            let outcome = await MainActor.run { attempt { () throws -> Value in try body() } }
            switch outcome {
            case .ended(let outcome): return try outcome.get()
            case .busy(let storage): await BuildCoordinator.process.awaitBuild(of: storage)
            }
        }
    }
}

extension SuspendingThread.Outcome: Sendable where Value: Sendable {}
