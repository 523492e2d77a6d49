#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Decides, for the instance storages of one injector, which thread builds an instance first,
/// and lets the others wait for it, without ever waiting in a circle.
///
/// A thread that finds an instance being built by another thread waits for it, unless that
/// thread is itself waiting, directly or through others, for an instance this thread is
/// building: then both would wait forever, and this thread throws a cycle error instead. Its
/// build fails, which wakes the other thread, which then builds on or meets the cycle itself.
/// Nothing is held while an instance is built; the coordinator's lock guards only this
/// bookkeeping.
@usableFromInline
final class BuildCoordinator {
    /// How many injectors of the family that made a child or a template have been shut down:
    /// while none has, a request of a child need not ask its parents whether one was.
    @usableFromInline let parentShutdowns = Atomic<Int>(0)
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    /// The storage each waiting thread waits for.
    private var waiting: [UInt: InstanceStorage] = [:]
    /// How many instances this family of injectors has stored: the order they were created in.
    private var stored = 0

    init() {
        // Not a `Lock`: the condition waits with the raw mutex, which a `Lock` keeps private.
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deinitialize(count: 1)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    enum Turn {
        /// The instance exists: read it.
        case built
        /// This thread builds the instance, then calls `finish`.
        case build
        /// This thread is building the instance already: it needs itself.
        case reentered
        /// Waiting would close a circle of threads waiting for each other.
        case deadlock
        /// The injector keeping the instance was shut down: nothing is built.
        case shutDown
    }

    /// Waits until `storage` holds an instance or this thread may build it.
    func claim(_ storage: InstanceStorage, thread: UInt) -> Turn {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while true {
            if storage.isFilled { return .built }
            if storage.sealed { return .shutDown }
            if storage.builder == 0 {
                storage.builder = thread
                return .build
            }
            if storage.builder == thread { return .reentered }
            if waitingCloses(from: storage.builder, back: thread) { return .deadlock }
            waiting[thread] = storage
            pthread_cond_wait(condition, mutex)
            waiting[thread] = nil
        }
    }

    /// Ends this thread's build of `storage`: `store` publishes the instance (or does nothing
    /// when the build failed), and every waiting thread looks again.
    func finish(_ storage: InstanceStorage, _ store: () -> Void) {
        pthread_mutex_lock(mutex)
        store()
        if storage.isFilled {
            stored += 1
            storage.creation = stored
        }
        storage.builder = 0
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Runs `body` under the coordinator's lock: the bookkeeping of awaited builds (see
    /// `InstanceStorage.awaitInstance`). `body` must not wait or suspend.
    func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Whether the thread `builder`, or a thread it waits for in turn, waits for an instance
    /// that `thread` is building.
    private func waitingCloses(from builder: UInt, back thread: UInt) -> Bool {
        var current = builder
        var steps = 0
        while let awaited = waiting[current], steps <= waiting.count {
            let next = awaited.builder
            if next == thread { return true }
            if next == 0 { return false }
            current = next
            steps += 1
        }
        return false
    }
}
