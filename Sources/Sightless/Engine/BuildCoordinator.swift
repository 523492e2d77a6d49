import Synchronization

/// Decides, for every instance storage of the process, which thread builds an instance first,
/// and lets the others wait for it, without ever waiting in a circle.
///
/// There is one coordinator, `process`, and its lock guards the build state of every storage
/// (`BuildState`): a storage belongs to no injector alone, since a custom scope may hand one
/// storage to the injectors of several families, and a thread of one family may wait for a
/// build another family's thread runs. The state's fields are private to this file, and every
/// function here that reads or writes them does so under the lock: nothing else can reach them.
/// Only the first build of each instance and a shutdown take the lock.
///
/// A thread that finds an instance being built by another thread waits for it, unless that
/// thread is itself waiting, directly or through others, for an instance this thread is
/// building: then both would wait forever, and this thread throws a cycle error instead. Its
/// build fails, which wakes the other thread, which then builds on or meets the cycle itself.
/// Nothing is held while an instance is built; the coordinator's lock guards only this
/// bookkeeping.
///
/// An instance built with `await` is built by a task of its own, which other tasks wait for
/// (`InstanceStorage.awaitInstance`); the same rule holds between those builds: a build that
/// would wait for a build that waits, directly or through others, for it fails with a cycle
/// error instead.
final class BuildCoordinator: Sendable {
    /// The coordinator of every storage of the process.
    static let process = BuildCoordinator()

    /// The bookkeeping of who waits for whom, and the lock of the storages' build state.
    private let monitor = Monitor(Waits())

    private init() {}

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
        /// An awaited request is building the instance (`InstanceStorage.awaitInstance`): a
        /// thread does not wait for a task, which may need this thread's builds; it is told to
        /// await the instance instead.
        case awaited
    }

    /// Waits until `storage` holds an instance or this thread may build it.
    func claim(_ storage: InstanceStorage, thread: UInt) -> Turn {
        monitor.waitUntil { waits in
            // Most often no thread waits: nothing to hash.
            if !waits.waiting.isEmpty { waits.waiting[thread] = nil }
            if storage.isFilled { return .built }
            if storage.build.sealed { return .shutDown }
            if storage.build.awaitedBuild != nil { return .awaited }
            if storage.build.builder == 0 {
                storage.build.builder = thread
                return .build
            }
            if storage.build.builder == thread { return .reentered }
            if waits.waitingCloses(from: storage.build.builder, back: thread) { return .deadlock }
            waits.waiting[thread] = storage
            return nil
        }
    }

    /// Ends this thread's build of `storage`, which stored nothing (it failed): every waiting
    /// thread looks again, and every task suspended in `awaitBuild(of:)` for it resumes.
    func abandon(_ storage: InstanceStorage) {
        end(storage) {}
    }

    /// Ends the build of `storage` with `value`: stores it as the instance and returns `true`,
    /// unless the storage was sealed by a shutdown (then `false`, and nothing is stored: the
    /// builder closes the value) or `value` is not of the storage's type (nothing is stored,
    /// and the request that reads the instance back reports the defect, `missing()`). Every
    /// waiting thread looks again, and every task suspended in `awaitBuild(of:)` for it resumes.
    /// `awaited`: the build was the storage's awaited build (`claimAwaited`), which ends too.
    func finish<Value>(_ storage: InstanceStorage, storing value: Value, awaited: Bool = false) -> Bool {
        var kept = true
        end(storage) {
            if awaited { Self.endAwaited(storage) }
            if storage.build.sealed {
                kept = false
                return
            }
            guard storage.valueType == ObjectIdentifier(Value.self) else { return }
            // Whether the instance closes itself is asked when a shutdown retires it
            // (`InstanceCell.retiredClosable()`), not here.
            if let closer = storage.closer { storage.build.bound = closer.bound(to: value) }
            storage.stored.store(value)
        }
        return kept
    }

    /// Ends the awaited build of `storage`, which failed: nothing is stored.
    func abandonAwaited(_ storage: InstanceStorage) {
        monitor.withLock { _ in Self.endAwaited(storage) }
    }

    /// Under the lock: the awaited build of `storage` is over.
    private static func endAwaited(_ storage: InstanceStorage) {
        storage.build.awaitedBuild = nil
        storage.awaitedBuildRuns.store(false, ordering: .releasing)
    }

    /// Runs `store` and ends the build of `storage`, under the lock; then resumes the tasks
    /// suspended for it.
    private func end(_ storage: InstanceStorage, _ store: () -> Void) {
        let suspended = monitor.broadcast { waits -> [CheckedContinuation<Void, Never>]? in
            store()
            if storage.isFilled {
                waits.stored += 1
                storage.build.creation = waits.stored
            }
            storage.build.builder = 0
            // Most often no task is suspended: nothing to hash.
            return waits.suspended.isEmpty ? nil : waits.suspended.removeValue(forKey: ObjectIdentifier(storage))
        }
        if let suspended { for task in suspended { task.resume() } }
    }

    /// Suspends the calling task until no thread builds `storage` (at once when none does): a
    /// task waits for a thread's build without holding a thread.
    func awaitBuild(of storage: InstanceStorage) async {
        await withCheckedContinuation { (task: CheckedContinuation<Void, Never>) in
            let finished = monitor.withLock { waits -> Bool in
                if storage.build.builder == 0 { return true }
                waits.suspended[ObjectIdentifier(storage), default: []].append(task)
                return false
            }
            if finished { task.resume() }
        }
    }

    /// Hands out the awaited build of `storage` (`InstanceStorage.awaitInstance`), under the
    /// lock: the build under way, unless `waiter` (the awaited build the caller runs in) would
    /// then wait in a circle; or the stored instance; or nothing, when a shutdown sealed the
    /// storage or a thread builds it; or a build begun now with `begin`, which must neither
    /// wait nor suspend. A wait handed out is recorded until `endAwaitedWait(_:for:)`.
    func claimAwaited(
        _ storage: InstanceStorage, waiter: InstanceStorage?, begin: () -> Task<Void, any Error>
    ) -> AwaitedClaim {
        monitor.withLock { waits -> AwaitedClaim in
            if let running = storage.build.awaitedBuild {
                if let waiter, let circle = waits.beginAwaitedWait(waiter, for: storage) { return .circle(circle) }
                return .wait(running)
            }
            if storage.isFilled { return .built }
            // The injector keeping it was shut down: nothing is built.
            if storage.build.sealed { return .shutDown }
            // A thread builds it synchronously (what it awaits was stored): its one build.
            if storage.build.builder != 0 { return .synchronous }
            let task = begin()
            storage.build.awaitedBuild = task
            storage.awaitedBuildRuns.store(true, ordering: .releasing)
            // Nothing waits for a build just begun: no circle to look for.
            if let waiter { _ = waits.beginAwaitedWait(waiter, for: storage) }
            return .wait(task)
        }
    }

    /// Ends one wait that `claimAwaited` handed out to `waiter`.
    func endAwaitedWait(_ waiter: InstanceStorage, for storage: InstanceStorage) {
        monitor.withLock { $0.endAwaitedWait(waiter, for: storage) }
    }

    /// Whether a shutdown sealed `storage`: asked on a request's failure only.
    func isSealed(_ storage: InstanceStorage) -> Bool {
        monitor.withLock { _ in storage.build.sealed }
    }

    /// Seals `storage`, made for an injector already shut down: no instance is ever stored in it.
    func seal(_ storage: InstanceStorage) {
        monitor.withLock { _ in storage.build.sealed = true }
    }

    /// Seals and retires `storages` for a shutdown: an instance stored before is no longer found
    /// by any request and is returned, to be closed by the shutdown if it is ``Closable`` or
    /// ``AsyncClosable`` or its binding closes it; one built after is closed by its builder, and
    /// a build not begun yet is refused.
    func retire(_ storages: [InstanceStorage]) -> [ClosingValue] {
        monitor.withLock { _ in
            var closing: [ClosingValue] = []
            for storage in storages {
                storage.build.sealed = true
                guard storage.stored.retire() else { continue }
                if let bound = storage.build.bound {
                    closing.append(ClosingValue(key: storage.key, object: bound.object, closer: bound.close,
                                                creation: storage.build.creation))
                } else if let value = storage.stored.retiredClosable() {
                    closing.append(ClosingValue(key: storage.key, object: value, closer: nil, creation: storage.build.creation))
                }
            }
            return closing
        }
    }
}

/// The build state of one storage, guarded by the coordinator's lock. Its fields are private to
/// this file: the coordinator's functions, each under its lock, are the only code that reads or
/// writes them.
struct BuildState {
    /// The thread building the instance, or 0.
    fileprivate var builder: UInt = 0
    /// `true` once the injector that keeps the instance is shut down: an instance built after
    /// that is not stored, and its builder closes it.
    fileprivate var sealed = false
    /// The build of an instance that needs `await`, while one runs (`claimAwaited`).
    fileprivate var awaitedBuild: Task<Void, any Error>?
    /// When the instance was stored, among the instances of the process (from 1): the order a
    /// shutdown closes them against.
    fileprivate var creation = 0
    /// The binding's closer bound to the instance, once stored.
    fileprivate var bound: BoundCloser?

    init() {}
}

/// What a caller of `InstanceStorage.awaitInstance` does: read the stored instance, wait for the
/// build under way, or fail, since that build waits for the one the caller runs in (the keys of
/// the circle), or since the injector keeping the instance was shut down.
enum AwaitedClaim {
    case built
    case wait(Task<Void, any Error>)
    case circle([AnyKey])
    case shutDown
    /// A thread is building it synchronously.
    case synchronous
}

extension BuildCoordinator {
    /// Who waits for whom: read and written only under the coordinator's lock (its `Monitor`).
    struct Waits {
        fileprivate init() {}

        /// The storage each waiting thread waits for.
        var waiting: [UInt: InstanceStorage] = [:]
        /// The tasks suspended until a thread's build of a storage ends, by storage
        /// (`awaitBuild(of:)`).
        var suspended: [ObjectIdentifier: [CheckedContinuation<Void, Never>]] = [:]
        /// How many instances the process has stored: the order they were created in, which a
        /// shutdown closes them against.
        var stored = 0
        /// The awaited builds each awaited build waits for, by the storage of the waiting build:
        /// one entry per wait under way (two branches of one build may wait for one storage).
        var awaitedWaits: [ObjectIdentifier: [InstanceStorage]] = [:]

        /// Records that the awaited build of `waiter` waits for the one of `storage`, unless the build
        /// of `storage` waits, directly or through others, for the build of `waiter`: then both would
        /// wait forever, nothing is recorded, and the keys of the builds from `storage` round to
        /// `waiter` (`waiter`'s own left out) are returned. Called under the lock.
        mutating func beginAwaitedWait(_ waiter: InstanceStorage, for storage: InstanceStorage) -> [AnyKey]? {
            if let circle = awaitedCircle(from: storage, to: waiter) { return circle }
            awaitedWaits[ObjectIdentifier(waiter), default: []].append(storage)
            return nil
        }

        /// Ends one wait that `beginAwaitedWait` recorded. Called under the lock.
        mutating func endAwaitedWait(_ waiter: InstanceStorage, for storage: InstanceStorage) {
            let id = ObjectIdentifier(waiter)
            guard var awaited = awaitedWaits[id], let index = awaited.firstIndex(where: { $0 === storage }) else { return }
            awaited.remove(at: index)
            awaitedWaits[id] = awaited.isEmpty ? nil : awaited
        }

        /// The keys of the builds from `start` to `target`, `target`'s left out, along the awaited
        /// builds each waits for; `nil` when `start` waits for `target` through none of them.
        fileprivate func awaitedCircle(from start: InstanceStorage, to target: InstanceStorage) -> [AnyKey]? {
            if start === target { return [start.key] }
            // Breadth first, each build visited once: the shortest circle.
            var cameFrom: [ObjectIdentifier: InstanceStorage] = [ObjectIdentifier(start): start]
            var frontier = [start]
            while !frontier.isEmpty {
                var next: [InstanceStorage] = []
                for storage in frontier {
                    for awaited in awaitedWaits[ObjectIdentifier(storage)] ?? [] {
                        if awaited === target {
                            var keys = [storage.key]
                            var current = storage
                            while current !== start, let previous = cameFrom[ObjectIdentifier(current)] {
                                keys.append(previous.key)
                                current = previous
                            }
                            // A `Lazy`'s own build waits for its key's: one key, named once.
                            var circle: [AnyKey] = []
                            for key in keys.reversed() where circle.last != key { circle.append(key) }
                            return circle
                        }
                        guard cameFrom[ObjectIdentifier(awaited)] == nil else { continue }
                        cameFrom[ObjectIdentifier(awaited)] = storage
                        next.append(awaited)
                    }
                }
                frontier = next
            }
            return nil
        }

        /// Whether the thread `builder`, or a thread it waits for in turn, waits for an instance
        /// that `thread` is building.
        fileprivate func waitingCloses(from builder: UInt, back thread: UInt) -> Bool {
            var current = builder
            var steps = 0
            while let awaited = waiting[current], steps <= waiting.count {
                let next = awaited.build.builder
                if next == thread { return true }
                if next == 0 { return false }
                current = next
                steps += 1
            }
            return false
        }
    }
}
