import Sightless
import Testing

/// Two services that each take 100 ms to open, and what needs both.
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

/// The shortest of up to ten timings of `body`, stopping at the first under `bound`. The tests
/// run beside many others on a busy machine, which can only make a timing longer: one run under
/// the bound shows the two waits overlapped (one after the other, they take at least 200 ms).
private func shortestTiming(under bound: Duration, _ body: () async throws -> Void) async rethrows -> Duration {
    let clock = ContinuousClock()
    var shortest = Duration.seconds(3600)
    for _ in 0..<10 {
        shortest = min(shortest, try await clock.measure { try await body() })
        if shortest < bound { break }
    }
    return shortest
}

private func slowBindings(scope: Scope = .unscoped, failing: Bool = false) -> Bindings {
    Bindings { binder in
        binder.bind(DatabasePool.self).to { _ async throws in
            try await Task.sleep(for: opening)
            if failing { throw OpenError.refused("pool") }
            return try await DatabasePool(url: "slow")
        }.in(scope)
        binder.bind(Cache.self).to { _ async throws in
            try await Task.sleep(for: opening)
            if failing { throw OpenError.refused("cache") }
            return Cache()
        }.in(scope)
        binder.bind(Broker.self).to { _ in Broker() }
    }
}

@Suite("Concurrent async dependencies")
struct ConcurrentAsyncDependencyTests {
    @Test("independent async dependencies are built at the same time: two 100 ms ones in under 150 ms")
    func builtConcurrently() async throws {
        let injector = try Injector(slowBindings())
        let elapsed = try await shortestTiming(under: opening * 1.5) { _ = try await injector.instance(Dashboard.self) }
        #expect(elapsed < opening * 1.5, "took \(elapsed)")
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
        var injector: Injector?
        let elapsed = try await shortestTiming(under: opening * 1.5) {
            injector = try await Injector.start(modules: [slowBindings(scope: .eagerSingleton)])
        }
        #expect(elapsed < opening * 1.5, "took \(elapsed)")
        let started = try #require(injector)
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
