#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Sightless
import Synchronization
import Testing

// Awaited requests that meet a value a thread is building synchronously suspend until that build
// ends: they hold no thread of the cooperative pool, which the build may need to go on.

/// More tasks than any machine's cooperative pool has threads.
private let awaitingTasks = 64

/// The door a slow synchronous build waits behind, on a thread of its own: `entered` opens when
/// the build has begun; `open(by:)` lets it finish, once.
private final class Door: Sendable {
    let entered = Latch()
    private let semaphore = DispatchSemaphore(value: 0)
    private let openedBy = Mutex<String?>(nil)

    /// Called by the build: tells it has begun, then waits for the door to open.
    func pass() {
        entered.open()
        semaphore.wait()
    }

    func open(by opener: String) {
        let first = openedBy.withLock { openedBy in
            guard openedBy == nil else { return false }
            openedBy = opener
            return true
        }
        if first { semaphore.signal() }
    }

    var opener: String? { openedBy.withLock { $0 } }
}

/// A singleton built synchronously, slowly: behind the door.
private final class SlowService: Injectable, Sendable {
    init(door: Door) { door.pass() }
    static let initializer = Initializer(SlowService.init(door:))
    static var scope: Scope { .singleton }
}

/// A singleton that needs a value built with `await`, built synchronously once that value is
/// stored, slowly: behind the door.
private final class SlowStore: Injectable, Sendable {
    let pool: DatabasePool
    init(pool: DatabasePool, door: Door) {
        door.pass()
        self.pool = pool
    }
    static let initializer = Initializer(SlowStore.init(pool:door:))
    static var scope: Scope { .singleton }
}

/// How far the awaiting tasks are, and whether they are done (which stops the watchdog).
private final class Progress: Sendable {
    let started = Atomic<Int>(0)
    let finished = Atomic<Bool>(false)
}

@Suite("Awaiting a thread's build")
struct AwaitingThreadBuildTests {
    private func injector(door: Door) async throws -> Injector {
        let injector = try Injector(asyncBindings { binder in
            binder.bind(Door.self).to(instance: door)
            binder.bind(DatabasePool.self).in(.singleton)
        })
        // Stored first: a thread may then build what needs it synchronously.
        _ = try await injector.instance(DatabasePool.self)
        return injector
    }

    /// A thread builds `Value` synchronously behind `door`; `awaitingTasks` tasks then await it
    /// with `request`, and a task of the pool opens the door once all of them are waiting. Were a
    /// waiting task to hold its thread, the pool would have none left for the opener: a watchdog
    /// thread opens the door after 30 s, and the test fails.
    private func awaitAll<Value: AnyObject & Sendable>(
        _ type: Value.Type, door: Door, injector: Injector,
        request: @escaping @Sendable (Injector) async throws -> Value
    ) async throws -> (built: Value?, awaited: [Value]) {
        let built = Mutex<Value?>(nil)
        let builder = onOwnThread {
            let value = try? injector.getInstance(Value.self)
            built.withLock { $0 = value }
        }
        await door.entered.wait()
        let progress = Progress()
        _ = startThread(stackSize: 1 << 20, detached: true) {
            let deadline = ContinuousClock.now + .seconds(30)
            while !progress.finished.load(ordering: .acquiring), ContinuousClock.now < deadline { usleep(10_000) }
            door.open(by: "the watchdog")
        }
        defer { progress.finished.store(true, ordering: .releasing) }
        let awaited = try await withThrowingTaskGroup(of: Value.self) { group in
            for _ in 0..<awaitingTasks {
                group.addTask {
                    progress.started.add(1, ordering: .relaxed)
                    return try await request(injector)
                }
            }
            group.addTask {
                while progress.started.load(ordering: .relaxed) < awaitingTasks { await Task.yield() }
                // Time for the last of them to reach the build and wait.
                try await Task.sleep(for: .milliseconds(50))
                door.open(by: "a task of the pool")
                return try await request(injector)
            }
            var values: [Value] = []
            for try await value in group { values.append(value) }
            return values
        }
        progress.finished.store(true, ordering: .releasing)
        await builder.wait()
        return (built.withLock { $0 }, awaited)
    }

    @Test("tasks awaiting a singleton that a thread is building synchronously hold no thread of the pool")
    func awaitedSingleton() async throws {
        let door = Door()
        let injector = try await injector(door: door)
        let (built, awaited) = try await awaitAll(SlowService.self, door: door, injector: injector) { injector in
            try await injector.instance(SlowService.self)
        }
        #expect(door.opener == "a task of the pool")
        let service = try #require(built)
        #expect(awaited.count == awaitingTasks + 1)
        #expect(awaited.allSatisfy { $0 === service })
    }

    @Test("tasks awaiting a singleton over an awaited value, which a thread is building synchronously, hold no thread of the pool")
    func awaitedSingletonOverAwaitedValue() async throws {
        let door = Door()
        let injector = try await injector(door: door)
        let (built, awaited) = try await awaitAll(SlowStore.self, door: door, injector: injector) { injector in
            try await injector.instance(SlowStore.self)
        }
        #expect(door.opener == "a task of the pool")
        let store = try #require(built)
        #expect(awaited.allSatisfy { $0 === store })
        #expect(try injector.getInstance(SlowStore.self) === store)
    }

    @Test("tasks awaiting a Lazy of a singleton that a thread is building synchronously hold no thread of the pool")
    func awaitedLazy() async throws {
        let door = Door()
        let injector = try await injector(door: door)
        let lazy = try injector.getInstance(Lazy<SlowService>.self)
        let (built, awaited) = try await awaitAll(SlowService.self, door: door, injector: injector) { _ in
            try await lazy.value
        }
        #expect(door.opener == "a task of the pool")
        let service = try #require(built)
        #expect(awaited.allSatisfy { $0 === service })
    }
}
