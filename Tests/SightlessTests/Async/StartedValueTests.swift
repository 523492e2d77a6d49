#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Sightless
import Testing

// A server's wiring: a pool that is an eager singleton built with await, which `Injector.start`
// builds; per request, a child whose session (kept per child) leases from the pool; a handler,
// unscoped, over the session.

private final class StartedPool: Injectable, Sendable {
    init() async {}
    static let initializer = Initializer(StartedPool.init)
}

/// How many sessions were built.
private final class SessionCount: Sendable {
    let builds = Locked(0)
}

private final class StartedSession: Injectable, Sendable {
    let pool: StartedPool
    init(pool: StartedPool, count: SessionCount) {
        self.pool = pool
        count.builds.withLock { $0 += 1 }
        // Long enough for requests of one child to overlap.
        usleep(2_000)
    }
    static let initializer = Initializer(StartedSession.init(pool:count:))
}

private final class StartedHandler: Injectable, Sendable {
    let session: StartedSession
    init(session: StartedSession) { self.session = session }
    static let initializer = Initializer(StartedHandler.init(session:))
}

private final class LazyHandler: Injectable, Sendable {
    let session: Lazy<StartedSession>
    init(session: Lazy<StartedSession>) { self.session = session }
    static let initializer = Initializer(LazyHandler.init(session:))
}

private final class SlowPool: Injectable, Sendable {
    init() async throws { try await Task.sleep(for: .milliseconds(20)) }
    static let initializer = Initializer(SlowPool.init)
}

private final class SlowPoolSession: Injectable, Sendable {
    init(pool: SlowPool, count: SessionCount) {
        count.builds.withLock { $0 += 1 }
        usleep(5_000)
    }
    static let initializer = Initializer(SlowPoolSession.init(pool:count:))
}

/// A main-actor model, built synchronously on the main actor.
@MainActor
private final class StartedModel: MainActorInjectable {
    init() {}
    static let initializer = Initializer(StartedModel.init)
}

/// Needs the started pool and a main-actor model.
private final class PoolAndModelHandler: Injectable, Sendable {
    init(pool: StartedPool, model: StartedModel) {}
    static let initializer = Initializer(PoolAndModelHandler.init(pool:model:))
}

/// Nonisolated, over a main-actor model.
private final class StartedPresenter: Injectable, Sendable {
    let model: StartedModel
    init(model: StartedModel) { self.model = model }
    static let initializer = Initializer(StartedPresenter.init(model:))
}

/// Needs the started pool and, through a presenter, a main-actor model.
private final class PoolAndPresenterHandler: Injectable, Sendable {
    init(pool: StartedPool, presenter: StartedPresenter) {}
    static let initializer = Initializer(PoolAndPresenterHandler.init(pool:presenter:))
}

private struct RequestNumber: Sendable {
    let value: Int
}

// An eager singleton built synchronously over an eager one built with await, and another eager
// one, built with await, that awaits both: `Injector.start` builds the three at the same time.

private final class StartedSource: Sendable {}

private final class StartedReader: Injectable, Sendable {
    let source: StartedSource
    init(source: StartedSource) {
        self.source = source
        // Long enough for the other eager build to request it while this one runs.
        usleep(20_000)
    }
    static let initializer = Initializer(StartedReader.init(source:))
}

private final class StartedReport: Sendable {
    let reader: StartedReader
    init(reader: StartedReader) { self.reader = reader }
}

private func serverBindings(_ count: SessionCount, pool scope: Scope = .eagerSingleton) -> Bindings {
    Bindings { binder in
        binder.bind(StartedPool.self).in(scope)
        binder.bind(SessionCount.self).to(instance: count)
    }
}

@Suite("What start built is built: a value over a started eager singleton is requested synchronously")
struct StartedValueTests {
    @Test("after start, a handler over a template child's session over the started pool is requested synchronously")
    func handlerOverPerChildSession() async throws {
        let count = SessionCount()
        let app = try await Injector.start(modules: [serverBindings(count)])
        let requests = try app.childTemplate(providing: RequestNumber.self) { $0.bind(StartedSession.self).in(.singleton) }
        let child = try requests.child(RequestNumber(value: 1))
        let first = try child.getInstance(StartedHandler.self)
        let second = try child.getInstance(StartedHandler.self)
        #expect(first !== second)
        #expect(first.session === second.session)
        #expect(first.session.pool === (try app.getInstance(StartedPool.self)))
        let other = try requests.child(RequestNumber(value: 2)).getInstance(StartedHandler.self)
        #expect(other.session !== first.session)
        #expect(count.builds.withLock { $0 } == 2)
    }

    @Test("after start, a handler over a plain child's singleton over the started pool is requested synchronously")
    func handlerOverPlainChildSingleton() async throws {
        let count = SessionCount()
        let app = try await Injector.start(modules: [serverBindings(count)])
        let child = try app.child { $0.bind(StartedSession.self).in(.singleton) }
        let handler = try child.getInstance(StartedHandler.self)
        #expect(handler.session === (try child.getInstance(StartedHandler.self)).session)
        #expect(handler.session === (try await child.instance(StartedSession.self)))
        #expect(count.builds.withLock { $0 } == 1)
    }

    @Test("after start, a synchronous request off the main actor of a value over the pool and a main-actor model throws offActor, naming the model")
    @MainActor
    func poolAndMainActorModelOffMainActor() async throws {
        let app = try await Injector.start(modules: [serverBindings(SessionCount())])
        _ = try app.getInstance(PoolAndModelHandler.self)   // on the main actor: built synchronously
        let error = await Task.detached { () -> InjectionError? in
            do {
                _ = try app.getInstance(PoolAndModelHandler.self)
                return nil
            } catch {
                return error as? InjectionError
            }
        }.value
        #expect(error?.kind == .offActor)
        #expect(error?.path == [Key<PoolAndModelHandler>().erased, Key<StartedModel>().erased])
        #expect(error?.problems.first?.message.contains("async") == false)
    }

    @Test("after start, a synchronous request off the main actor of a value over the pool and, through a nonisolated value, a main-actor model throws offActor")
    @MainActor
    func poolAndPresenterOffMainActor() async throws {
        let app = try await Injector.start(modules: [serverBindings(SessionCount())])
        _ = try app.getInstance(PoolAndPresenterHandler.self)   // on the main actor: built synchronously
        let error = await Task.detached { () -> InjectionError? in
            do {
                _ = try app.getInstance(PoolAndPresenterHandler.self)
                return nil
            } catch {
                return error as? InjectionError
            }
        }.value
        #expect(error?.kind == .offActor)
        #expect(error?.path == [Key<PoolAndPresenterHandler>().erased, Key<StartedPresenter>().erased, Key<StartedModel>().erased])
    }

    @Test("after start, a Lazy of the per-child session gets it synchronously")
    func lazySessionAfterStart() async throws {
        let count = SessionCount()
        let app = try await Injector.start(modules: [serverBindings(count)])
        let requests = try app.childTemplate(providing: RequestNumber.self) { $0.bind(StartedSession.self).in(.singleton) }
        let child = try requests.child(RequestNumber(value: 1))
        let lazy = try child.getInstance(LazyHandler.self).session
        #expect(try lazy.get() === (try child.getInstance(StartedHandler.self)).session)
    }

    @Test("after start, a Factory of the handler makes it synchronously")
    func factoryHandlerAfterStart() async throws {
        let count = SessionCount()
        let app = try await Injector.start(modules: [serverBindings(count)])
        let requests = try app.childTemplate(providing: RequestNumber.self) { $0.bind(StartedSession.self).in(.singleton) }
        let child = try requests.child(RequestNumber(value: 1))
        let factory = try child.getInstance(Factory<StartedHandler>.self)
        #expect(try factory.make().session === (try factory.make()).session)
        #expect(count.builds.withLock { $0 } == 1)
    }

    @Test("an awaited request of the handler gets the session a synchronous request built")
    func awaitedAfterSynchronous() async throws {
        let count = SessionCount()
        let app = try await Injector.start(modules: [serverBindings(count)])
        let requests = try app.childTemplate(providing: RequestNumber.self) { $0.bind(StartedSession.self).in(.singleton) }
        let child = try requests.child(RequestNumber(value: 1))
        let awaited = try await child.instance(StartedHandler.self)
        #expect(try child.getInstance(StartedHandler.self).session === awaited.session)
        #expect(count.builds.withLock { $0 } == 1)
    }

    @Test("one child's session is built once under concurrent synchronous and awaited requests")
    func oneSessionUnderContention() async throws {
        let count = SessionCount()
        let app = try await Injector.start(modules: [serverBindings(count)])
        let requests = try app.childTemplate(providing: RequestNumber.self) { $0.bind(StartedSession.self).in(.singleton) }
        let child = try requests.child(RequestNumber(value: 1))
        let sessions = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for index in 0..<40 {
                group.addTask {
                    if index.isMultiple(of: 2) { return ObjectIdentifier(try child.getInstance(StartedHandler.self).session) }
                    return ObjectIdentifier(try await child.instance(StartedHandler.self).session)
                }
            }
            var sessions: Set<ObjectIdentifier> = []
            for try await session in group { sessions.insert(session) }
            return sessions
        }
        #expect(sessions.count == 1)
        #expect(count.builds.withLock { $0 } == 1)
    }

    @Test("an injector built synchronously with an eager singleton that needs await still fails at once")
    func eagerAwaitedNeedsStart() throws {
        let error = #expect(throws: InjectionError.self) { _ = try Injector(modules: [serverBindings(SessionCount())]) }
        #expect(error?.kind == .needsAwait)
    }

    @Test("before its awaited singleton is built, a synchronous request of a child's session over it still needs await")
    func beforeBuiltStillNeedsAwait() async throws {
        let count = SessionCount()
        let app = try Injector(modules: [serverBindings(count, pool: .singleton)])
        let child = try app.child { $0.bind(StartedSession.self).in(.singleton) }
        let error = #expect(throws: InjectionError.self) { _ = try child.getInstance(StartedHandler.self) }
        #expect(error?.kind == .needsAwait)
        _ = try await app.instance(StartedPool.self)
        #expect(try child.getInstance(StartedHandler.self).session === (try child.getInstance(StartedSession.self)))
        #expect(count.builds.withLock { $0 } == 1)
    }

    @Test("explain says a handler over a started eager singleton is ready once started, and the pool is built with await")
    func explainSaysReadyOnceStarted() async throws {
        let app = try await Injector.start(modules: [serverBindings(SessionCount())])
        let requests = try app.childTemplate(providing: RequestNumber.self) { $0.bind(StartedSession.self).in(.singleton) }
        let explained = try app.explain(StartedHandler.self)
        #expect(explained.contains("StartedHandler — unscoped, just-in-time type, ready once started (StartedPool)"))
        #expect(explained.contains("StartedPool — eager singleton, type, kept by this injector, built with await"))
        #expect(requests.exportGraph(as: .text).contains("StartedSession — singleton, type, kept by each child, ready once"))
    }

    @Test("explain says a value over a singleton built with await is ready once it is built, and one over an unscoped one needs await")
    func explainSaysReadyOnceBuilt() throws {
        let app = try Injector(modules: [serverBindings(SessionCount(), pool: .singleton)])
        #expect(try app.explain(StartedHandler.self).contains("ready once StartedPool is built"))
        let unscoped = try Injector(modules: [serverBindings(SessionCount(), pool: .unscoped)])
        #expect(try unscoped.explain(StartedHandler.self).contains("needs await (StartedPool)"))
    }

    @Test("start builds an eager value over a started one while another eager build awaits it: that one awaits the build")
    func eagerAwaitsEagerBuiltOverStarted() async throws {
        let app = try await Injector.start(modules: [Bindings { binder in
            binder.bind(StartedSource.self).to { _ async throws in
                try await Task.sleep(for: .milliseconds(5))
                return StartedSource()
            }.in(.eagerSingleton)
            binder.bind(StartedReader.self).in(.eagerSingleton)
            binder.bind(StartedReport.self).to { resolver async throws in
                _ = try await resolver.instance(StartedSource.self)
                return StartedReport(reader: try await resolver.instance(StartedReader.self))
            }.in(.eagerSingleton)
        }])
        #expect(try app.getInstance(StartedReport.self).reader === app.getInstance(StartedReader.self))
    }

    @Test("a synchronous request while an awaited request builds the singleton is told to await, and it is built once")
    func synchronousWhileAwaitedBuilds() async throws {
        let count = SessionCount()
        let app = try Injector(modules: [Bindings { binder in
            binder.bind(SlowPool.self).in(.singleton)
            binder.bind(SessionCount.self).to(instance: count)
        }])
        let child = try app.child { $0.bind(SlowPoolSession.self).in(.singleton) }
        let awaited = Task { try await child.instance(SlowPoolSession.self) }
        var synchronous: SlowPoolSession?
        while synchronous == nil {
            do {
                synchronous = try child.getInstance(SlowPoolSession.self)
            } catch {
                #expect(error.kind == .needsAwait)
                try await Task.sleep(for: .microseconds(200))
            }
        }
        #expect(try await awaited.value === synchronous)
        #expect(count.builds.withLock { $0 } == 1)
    }
}
