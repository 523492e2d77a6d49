import Dispatch
@testable import Sightless
import Testing

// Where a nonisolated value that holds a main-actor value is built (Concurrency.md, "Where a
// value is built"): a kept holder's first build runs on the main actor, wherever it is awaited
// from; an unscoped holder is built where its request runs, and needs the main actor only for
// what it builds there, so once the main-actor singleton it holds is built, a synchronous request
// anywhere builds it. Whether code runs on the main actor is the mark on the main dispatch queue
// (`ActorIsolation.isCurrent`), which a queue that targets the main queue inherits; the build
// then runs in `MainActor.assumeIsolated`, which accepts such a queue too (its blocks run on the
// main thread), and does not trap.

/// A main-actor service, one per injector: inferred `@MainActor` from its conformance.
private final class Notifier: MainActorInjectable {
    init() {}
    static let initializer = Initializer(Notifier.init)
    static var scope: Scope { .singleton }
}

/// A nonisolated singleton that holds the main-actor service.
private final class KeptBanner: Injectable, Sendable {
    let notifier: Notifier
    let builtOnMainActor: Bool
    init(notifier: Notifier) {
        self.notifier = notifier
        builtOnMainActor = ActorIsolation.mainActor.isCurrent
    }
    static let initializer = Initializer(KeptBanner.init(notifier:))
    static var scope: Scope { .singleton }
}

/// A nonisolated, unscoped value that holds the main-actor service.
private final class Banner: Injectable, Sendable {
    let notifier: Notifier
    let builtOnMainActor: Bool
    init(notifier: Notifier) {
        self.notifier = notifier
        builtOnMainActor = ActorIsolation.mainActor.isCurrent
    }
    static let initializer = Initializer(Banner.init(notifier:))
}

/// What a synchronous request gave: whether its value was built on the main actor, or the kind
/// of its error.
private enum Outcome: Equatable {
    case built(onMainActor: Bool)
    case failed(InjectionError.Kind?)

    init(_ request: () throws -> Banner) {
        do {
            self = .built(onMainActor: try request().builtOnMainActor)
        } catch {
            self = .failed((error as? InjectionError)?.kind)
        }
    }
}

/// What a synchronous request of the main-actor service gave on `queue`.
private func notifierRequest(on queue: DispatchQueue, of injector: Injector) async -> InjectionError.Kind?? {
    await withCheckedContinuation { continuation in
        queue.async {
            do {
                _ = try injector.getInstance(Notifier.self)
                continuation.resume(returning: .some(nil))
            } catch {
                continuation.resume(returning: .some((error as? InjectionError)?.kind))
            }
        }
    }
}

@Suite("Where a holder of a main-actor value is built")
struct MainActorHolderPlacementTests {
    @Test("awaited from a task elsewhere, a kept holder of a main-actor value is built on the main actor")
    func keptHolderAwaitedElsewhere() async throws {
        let injector = try await Injector.start(modules: [])
        let banner = try await Task.detached { try await injector.instance(KeptBanner.self) }.value
        #expect(banner.builtOnMainActor)
    }

    @Test("awaited from a task elsewhere, an unscoped holder of a main-actor value is built where the request runs")
    func unscopedHolderAwaitedElsewhere() async throws {
        let injector = try await Injector.start(modules: [])
        let banner = try await Task.detached { try await injector.instance(Banner.self) }.value
        #expect(!banner.builtOnMainActor)
    }

    @Test("requested synchronously elsewhere, an unscoped holder throws offActor until the main-actor singleton is built, then is built there every time")
    func unscopedHolderOfBuiltSingleton() async throws {
        let injector = try await Injector.start(modules: [])
        let before = await Task.detached { Outcome { try injector.getInstance(Banner.self) } }.value
        #expect(before == .failed(.offActor))
        _ = try await injector.instance(Notifier.self)
        let after = await Task.detached {
            [Outcome { try injector.getInstance(Banner.self) }, Outcome { try injector.getInstance(Banner.self) }]
        }.value
        #expect(after == [.built(onMainActor: false), .built(onMainActor: false)])
    }

    @Test("a synchronous request of a main-actor value runs on a queue that targets the main queue, and throws offActor on one that does not")
    func queueTargetingMain() async throws {
        // Two injectors: a main-actor singleton already built is returned anywhere.
        let targeting = DispatchQueue(label: "targets main", target: .main)
        #expect(await notifierRequest(on: targeting, of: try await Injector.start(modules: [])) == .some(nil))
        let elsewhere = DispatchQueue(label: "elsewhere")
        #expect(await notifierRequest(on: elsewhere, of: try await Injector.start(modules: [])) == .some(.offActor))
    }
}
