import Sightless
import Testing

// Every binding kind goes through the same stages when it is linked: its build, then its
// decorators, then its observers, all inside its scope. A value remembers whether a decorator
// made it, so that a test sees which value a request got.

/// A value a binding builds, or that a decorator makes of one.
protocol PipelineValue: AnyObject, Sendable {
    var decorated: Bool { get }
    /// The value a decorator makes of a built one.
    static func decorating(_ value: Self) -> Self
}

private final class Piped: PipelineValue {
    let decorated: Bool
    init(decorated: Bool = false) { self.decorated = decorated }
    static func decorating(_ value: Piped) -> Piped { Piped(decorated: true) }
    static func built() -> Piped { Piped() }
}

private struct PipedProvider: Provider {
    func provide(_ resolver: Resolver) throws -> Piped { Piped() }
}

private struct AwaitedPipedProvider: AsyncProvider {
    func provide(_ resolver: Resolver) async throws -> Piped {
        await Task.yield()
        return Piped()
    }
}

private final class PipedType: Injectable, PipelineValue {
    let decorated: Bool
    private init(decorated: Bool) { self.decorated = decorated }
    static func decorating(_ value: PipedType) -> PipedType { PipedType(decorated: true) }
    static func built() -> PipedType { PipedType(decorated: false) }
    static let initializer = Initializer(PipedType.built)
}

private final class AwaitedPipedType: Injectable, PipelineValue {
    let decorated: Bool
    private init(decorated: Bool) { self.decorated = decorated }
    static func built() async -> AwaitedPipedType {
        await Task.yield()
        return AwaitedPipedType(decorated: false)
    }
    static func decorating(_ value: AwaitedPipedType) -> AwaitedPipedType { AwaitedPipedType(decorated: true) }
    static let initializer = Initializer(AwaitedPipedType.built)
}

@MainActor
private final class MainActorPipedType: MainActorInjectable, PipelineValue {
    nonisolated let decorated: Bool
    private init(decorated: Bool) { self.decorated = decorated }
    static func built() -> MainActorPipedType { MainActorPipedType(decorated: false) }
    nonisolated static func decorating(_ value: MainActorPipedType) -> MainActorPipedType {
        MainActor.assumeIsolated { MainActorPipedType(decorated: true) }
    }
    static let initializer = Initializer(MainActorPipedType.built)
}

private final class IsolatedPiped: PipelineValue {
    let decorated: Bool
    init(decorated: Bool = false) { self.decorated = decorated }
    static func decorating(_ value: IsolatedPiped) -> IsolatedPiped { IsolatedPiped(decorated: true) }
    @MainActor static func built() -> IsolatedPiped { IsolatedPiped() }
}

/// One kind of binding: how it is bound in a scope, and how a request gets its value.
struct PipelineKind: Sendable, CustomTestStringConvertible {
    let name: String
    let key: AnyKey
    let bind: @Sendable (Binder, Scope) -> Void
    let decorate: @Sendable (Binder, Locked<[String]>) -> Void
    let request: @MainActor @Sendable (Injector) async throws -> any PipelineValue

    var testDescription: String { name }

    /// A kind whose values are `Value`s, requested synchronously or with `await`.
    static func of<Value: PipelineValue>(
        _ name: String, _ type: Value.Type, awaited: Bool, bind: @escaping @Sendable (Binder, Scope) -> Void
    ) -> PipelineKind {
        PipelineKind(
            name: name, key: Key<Value>().erased, bind: bind,
            decorate: { binder, log in
                binder.decorate(Value.self) { value, _ in
                    // The decorator sees the value as it was built, before anything else.
                    log.withLock { $0.append(value.decorated ? "decorated twice" : "decorated") }
                    return Value.decorating(value)
                }
            },
            request: { injector in
                awaited ? try await injector.instance(Value.self) : try injector.getInstance(Value.self)
            })
    }

    static let all: [PipelineKind] = [
        .of("closure", Piped.self, awaited: false) { binder, scope in
            binder.bind(Piped.self).to { _ in Piped() }.in(scope)
        },
        .of("provider", Piped.self, awaited: false) { binder, scope in
            binder.bind(Piped.self).to(provider: PipedProvider()).in(scope)
        },
        .of("initializer", Piped.self, awaited: false) { binder, scope in
            binder.bind(Piped.self).to(Initializer(Piped.built)).in(scope)
        },
        .of("Injectable type", PipedType.self, awaited: false) { binder, scope in
            binder.bind(PipedType.self).in(scope)
        },
        .of("async closure", Piped.self, awaited: true) { binder, scope in
            binder.bind(Piped.self).to { _ async in
                await Task.yield()
                return Piped()
            }.in(scope)
        },
        .of("async provider", Piped.self, awaited: true) { binder, scope in
            binder.bind(Piped.self).to(provider: AwaitedPipedProvider()).in(scope)
        },
        .of("async initializer", AwaitedPipedType.self, awaited: true) { binder, scope in
            binder.bind(AwaitedPipedType.self).in(scope)
        },
        .of("main-actor type", MainActorPipedType.self, awaited: false) { binder, scope in
            binder.bind(MainActorPipedType.self).in(scope)
        },
        .of("main-actor initializer", IsolatedPiped.self, awaited: false) { binder, scope in
            binder.bind(IsolatedPiped.self).to(Initializer(IsolatedPiped.built)).in(scope)
        },
    ]
}

/// An injector of `kind` bound in `scope`, decorated and observed, each writing to `log`.
private func pipelineInjector(_ kind: PipelineKind, in scope: Scope, log: Locked<[String]>) throws -> Injector {
    try Injector(Bindings { binder in
        kind.bind(binder, scope)
        kind.decorate(binder, log)
        binder.observe { event in
            if event.key == kind.key { log.withLock { $0.append("observed") } }
        }
    })
}

@Suite("The linking pipeline of every binding kind")
struct PipelineTests {
    @Test("a request gets the decorated value", arguments: PipelineKind.all)
    @MainActor
    func requestGetsDecoratedValue(_ kind: PipelineKind) async throws {
        let injector = try pipelineInjector(kind, in: .unscoped, log: Locked([]))
        #expect(try await kind.request(injector).decorated)
    }

    @Test("the decorator sees the built value before the observer is told of the build", arguments: PipelineKind.all)
    @MainActor
    func decoratedThenObserved(_ kind: PipelineKind) async throws {
        let log = Locked<[String]>([])
        let injector = try pipelineInjector(kind, in: .unscoped, log: log)
        _ = try await kind.request(injector)
        #expect(log.withLock { $0 } == ["decorated", "observed"])
    }

    @Test("an unscoped value is decorated and observed on every request", arguments: PipelineKind.all)
    @MainActor
    func unscopedEveryRequest(_ kind: PipelineKind) async throws {
        let log = Locked<[String]>([])
        let injector = try pipelineInjector(kind, in: .unscoped, log: log)
        let first = try await kind.request(injector)
        let second = try await kind.request(injector)
        #expect(first !== second)
        #expect(log.withLock { $0 } == ["decorated", "observed", "decorated", "observed"])
    }

    @Test("a singleton keeps the decorated value, decorated and observed once", arguments: PipelineKind.all)
    @MainActor
    func singletonKeepsDecoratedOnce(_ kind: PipelineKind) async throws {
        let log = Locked<[String]>([])
        let injector = try pipelineInjector(kind, in: .singleton, log: log)
        let first = try await kind.request(injector)
        let second = try await kind.request(injector)
        #expect(first === second)
        #expect(first.decorated)
        #expect(log.withLock { $0 } == ["decorated", "observed"])
    }
}
