import Sightless
import Testing

/// Two services that open with `await`, and what needs both.
private final class Cache: Sendable {}
private final class Broker: Sendable {}

private final class Dashboard: Injectable, Sendable {
    let pool: DatabasePool
    let cache: Cache
    let broker: Broker
    init(pool: DatabasePool, cache: Cache, broker: Broker) {
        self.pool = pool
        self.cache = cache
        self.broker = broker
    }
    static let initializer = Initializer(Dashboard.init(pool:cache:broker:))
}

private let opening = Duration.milliseconds(100)

/// Two builds that each wait for the other to start: both finish only when they run at the
/// same time. Built one after the other, the first would wait for the second until the deadline
/// (10 s of its own running, far beyond any delay a busy machine or a sanitizer adds; see
/// `PatientDeadline`) and then fail.
private final class Meeting: Sendable {
    private let arrived = Locked(0)

    func arriveAndWaitForTheOther() async throws {
        arrived.withLock { $0 += 1 }
        var deadline = PatientDeadline(after: .seconds(10))
        while arrived.withLock({ $0 }) < 2 {
            if deadline.hasPassed() { throw OpenError.refused("the other build never started") }
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}

/// The pool and the cache open with `await`: each meets the other when `meeting` is given, and
/// takes 100 ms otherwise.
private func slowBindings(scope: Scope = .unscoped, failing: Bool = false, meeting: Meeting? = nil) -> Bindings {
    Bindings { binder in
        binder.bind(DatabasePool.self).to { _ async throws in
            if let meeting { try await meeting.arriveAndWaitForTheOther() } else { try await Task.sleep(for: opening) }
            if failing { throw OpenError.refused("pool") }
            return try await DatabasePool(url: "slow")
        }.in(scope)
        binder.bind(Cache.self).to { _ async throws in
            if let meeting { try await meeting.arriveAndWaitForTheOther() } else { try await Task.sleep(for: opening) }
            if failing { throw OpenError.refused("cache") }
            return Cache()
        }.in(scope)
        binder.bind(Broker.self).to { _ in Broker() }
    }
}

@Suite("Concurrent async dependencies")
struct ConcurrentAsyncDependencyTests {
    @Test("independent async dependencies are built at the same time: each waits for the other to start")
    func builtConcurrently() async throws {
        let injector = try Injector(slowBindings(meeting: Meeting()))
        _ = try await injector.instance(Dashboard.self)
    }

    @Test("the failures of two async dependencies are reported together")
    func failuresGathered() async throws {
        let injector = try Injector(slowBindings(failing: true))
        let error = await #expect(throws: InjectionError.self) { _ = try await injector.instance(Dashboard.self) }
        #expect(error?.problems.count == 2)
        #expect(Set(error?.problems.compactMap { $0.path.last } ?? []) == [Key<DatabasePool>().erased, Key<Cache>().erased])
        #expect(error?.problems.allSatisfy { $0.path.first == Key<Dashboard>().erased } == true)
    }

    @Test("Injector.start awaits eager async singletons at the same time")
    func eagerStartConcurrently() async throws {
        // Each eager singleton waits for the other to start: awaited one after the other, they
        // would fail.
        let started = try await Injector.start(modules: [slowBindings(scope: .eagerSingleton, meeting: Meeting())])
        // Built at start-up: a synchronous request reads them.
        _ = try started.getInstance(DatabasePool.self)
        _ = try started.getInstance(Cache.self)
    }

    @Test("Injector.start with overrides in place replaces a binding that needs await, validated like a module's")
    func startOverriding() async throws {
        let fake = try await DatabasePool(url: "fake")
        let injector = try await Injector.start(modules: [slowBindings(scope: .eagerSingleton, failing: true)]) {
            $0.bind(DatabasePool.self).to(instance: fake)
            $0.bind(Cache.self).to(instance: Cache())
        }
        #expect(try injector.getInstance(DatabasePool.self) === fake)
        let error = await #expect(throws: InjectionError.self) {
            _ = try await Injector.start(modules: []) { $0.bind(Dashboard.self) }
        }
        #expect(error?.kind == .missingBinding)
    }

    @Test("Injector.start reports the failures of eager async singletons together")
    func eagerStartFailures() async throws {
        let error = await #expect(throws: InjectionError.self) {
            _ = try await Injector.start(modules: [slowBindings(scope: .eagerSingleton, failing: true)])
        }
        #expect(error?.problems.count == 2)
    }
}
