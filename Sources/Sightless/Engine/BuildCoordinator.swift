import Synchronization

/// Decides, for every instance storage of the process, which thread builds an instance first,
/// and lets the others wait for it, without ever waiting in a circle.
///
/// There is one coordinator, `process`, and its lock guards the build state of every storage
/// (`InstanceStorage`'s `builder`, `sealed`, `awaitedBuild`): a storage belongs to no injector
/// alone, since a custom scope may hand one storage to the injectors of several families, and
/// a thread of one family may wait for a build another family's thread runs. Only the first
/// build of each instance and a shutdown take the lock.
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
            if storage.sealed { return .shutDown }
            if storage.awaitedBuild != nil { return .awaited }
            if storage.builder == 0 {
                storage.builder = thread
                return .build
            }
            if storage.builder == thread { return .reentered }
            if waits.waitingCloses(from: storage.builder, back: thread) { return .deadlock }
            waits.waiting[thread] = storage
            return nil
        }
    }

    /// Ends this thread's build of `storage`: `store` publishes the instance (or does nothing
    /// when the build failed), every waiting thread looks again, and every task suspended in
    /// `awaitBuild(of:)` for it resumes.
    func finish(_ storage: InstanceStorage, _ store: () -> Void) {
        let suspended = monitor.broadcast { waits -> [CheckedContinuation<Void, Never>]? in
            store()
            if storage.isFilled {
                waits.stored += 1
                storage.creation = waits.stored
            }
            storage.builder = 0
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
                if storage.builder == 0 { return true }
                waits.suspended[ObjectIdentifier(storage), default: []].append(task)
                return false
            }
            if finished { task.resume() }
        }
    }

    /// Runs `body` under the coordinator's lock: the bookkeeping of awaited builds (see
    /// `InstanceStorage.awaitInstance`). `body` must not wait or suspend.
    func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        try monitor.withLock { (_: inout Waits) throws(Failure) -> Result in try body() }
    }

    /// Runs `body` under the coordinator's lock with the waits of awaited builds, which it
    /// records and ends (`Waits.beginAwaitedWait`, `Waits.endAwaitedWait`). `body` must not wait
    /// or suspend.
    func withWaits<Result>(_ body: (inout Waits) -> Result) -> Result {
        monitor.withLock(body)
    }
}

extension BuildCoordinator {
    /// Who waits for whom: read and written only under the coordinator's lock (its `Monitor`).
    struct Waits {
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
        /// `waiter` (`waiter`'s own left out) are returned. Called under the lock (`withWaits`).
        mutating func beginAwaitedWait(_ waiter: InstanceStorage, for storage: InstanceStorage) -> [AnyKey]? {
            if let circle = awaitedCircle(from: storage, to: waiter) { return circle }
            awaitedWaits[ObjectIdentifier(waiter), default: []].append(storage)
            return nil
        }

        /// Ends one wait that `beginAwaitedWait` recorded. Called under the lock (`withWaits`).
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
                let next = awaited.builder
                if next == thread { return true }
                if next == 0 { return false }
                current = next
                steps += 1
            }
            return false
        }
    }
}
