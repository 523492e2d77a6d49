import Sightless
import Testing

// At `Injector.start`, an eager `async` closure needs an unscoped value with a property, and the
// property is an eager singleton that needs `await` (over a singleton built with `await`). The
// unscoped value is built once for the closure's one build, however the two eager builds race.

private final class StartedSource: Injectable, Sendable {
    init() async {}
    static let initializer = Initializer(StartedSource.init)
}

private final class StartedCache: Injectable, Sendable {
    init(source: StartedSource) {}
    static let initializer = Initializer(StartedCache.init(source:))
}

/// How many holders were built.
private final class HolderCount: Sendable {
    let builds = Locked(0)
}

/// What the service asks for: the holder, through an alias.
private protocol Holding: AnyObject, Sendable {}

private final class CacheHolder: Injectable, Holding, @unchecked Sendable {
    var cache: StartedCache?
    init(count: HolderCount) { count.builds.withLock { $0 += 1 } }
    static let initializer = Initializer(CacheHolder.init(count:))
    static let properties = Properties<CacheHolder>().inject(\.cache)
}

private final class StartedService: Sendable {
    init(holder: any Holding) {}
}

private func startedHolderModule(count: HolderCount) -> some Module {
    Bindings { binder in
        binder.bind(HolderCount.self).to(instance: count)
        binder.bind(StartedSource.self).in(.singleton)
        binder.bind(StartedCache.self).in(.eagerSingleton)
        binder.bind((any Holding).self).to(CacheHolder.self)
        binder.bind(StartedService.self).to { resolver async throws in
            let holder = try await resolver.instance((any Holding).self)
            await Task.yield()
            return StartedService(holder: holder)
        }.in(.eagerSingleton)
    }
}

@Suite("Regression: an unscoped holder of an eager awaited singleton, needed at start")
struct StartedPropertyHolderTests {
    @Test("Injector.start builds the holder once for the eager closure's one build")
    func holderBuiltOnceAtStart() async throws {
        for _ in 0..<200 {
            let count = HolderCount()
            let injector = try await Injector.start(modules: [startedHolderModule(count: count)])
            #expect(count.builds.withLock { $0 } == 1)
            try await injector.awaitShutDown()
        }
    }
}
