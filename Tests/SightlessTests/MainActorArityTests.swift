import Sightless
import Testing

// Main-actor initializers of none to six arguments take a form of their own arity; seven take
// the parameter-pack form. Each must pass every argument in its place, fill each slot as it says,
// call the initializer on the main actor and report its error at its key.

private final class V1: Injectable, Sendable { init() {}; static let initializer = Initializer(V1.init) }
private final class V2: Injectable, Sendable { init() {}; static let initializer = Initializer(V2.init) }
private final class V3: Injectable, Sendable { init() {}; static let initializer = Initializer(V3.init) }
private final class V4: Injectable, Sendable { init() {}; static let initializer = Initializer(V4.init) }
private final class V5: Injectable, Sendable { init() {}; static let initializer = Initializer(V5.init) }
private final class V6: Injectable, Sendable { init() {}; static let initializer = Initializer(V6.init) }
private final class V7: Injectable, Sendable { init() {}; static let initializer = Initializer(V7.init) }

/// The types each model was given, in the order of its initializer's parameters.
@MainActor private protocol Received { var received: [Any.Type] { get } }

@MainActor private final class Model0: MainActorInjectable, Received {
    let received: [Any.Type]
    init() { MainActor.assertIsolated(); received = [] }
    static let initializer = Initializer(Model0.init)
}
@MainActor private final class Model1: MainActorInjectable, Received {
    let received: [Any.Type]
    init(a: V1) { MainActor.assertIsolated(); received = [type(of: a)] }
    static let initializer = Initializer(Model1.init(a:))
}
@MainActor private final class Model2: MainActorInjectable, Received {
    let received: [Any.Type]
    init(a: V1, b: V2) { received = [type(of: a), type(of: b)] }
    static let initializer = Initializer(Model2.init(a:b:))
}
@MainActor private final class Model3: MainActorInjectable, Received {
    let received: [Any.Type]
    init(a: V1, b: V2, c: V3) { received = [type(of: a), type(of: b), type(of: c)] }
    static let initializer = Initializer(Model3.init(a:b:c:))
}
@MainActor private final class Model4: MainActorInjectable, Received {
    let received: [Any.Type]
    init(a: V1, b: V2, c: V3, d: V4) { received = [type(of: a), type(of: b), type(of: c), type(of: d)] }
    static let initializer = Initializer(Model4.init(a:b:c:d:))
}
@MainActor private final class Model5: MainActorInjectable, Received {
    let received: [Any.Type]
    init(a: V1, b: V2, c: V3, d: V4, e: V5) { received = [type(of: a), type(of: b), type(of: c), type(of: d), type(of: e)] }
    static let initializer = Initializer(Model5.init(a:b:c:d:e:))
}
@MainActor private final class Model6: MainActorInjectable, Received {
    let received: [Any.Type]
    init(a: V1, b: V2, c: V3, d: V4, e: V5, f: V6) {
        received = [type(of: a), type(of: b), type(of: c), type(of: d), type(of: e), type(of: f)]
    }
    static let initializer = Initializer(Model6.init(a:b:c:d:e:f:))
}
@MainActor private final class Model7: MainActorInjectable, Received {
    let received: [Any.Type]
    init(a: V1, b: V2, c: V3, d: V4, e: V5, f: V6, g: V7) {
        received = [type(of: a), type(of: b), type(of: c), type(of: d), type(of: e), type(of: f), type(of: g)]
    }
    static let initializer = Initializer(Model7.init(a:b:c:d:e:f:g:))
}

/// Three slots of three kinds: a binding by type, a named one, and a creation-time argument.
@MainActor private final class Titled: MainActorInjectable {
    let first: V1
    let endpoint: String
    let title: String
    init(first: V1, endpoint: String, title: String) {
        self.first = first
        self.endpoint = endpoint
        self.title = title
    }
    static let initializer = Initializer(Titled.init(first:endpoint:title:), .inject, .named("endpoint"), .dynamic)
}

private struct LoadFailed: Error {}

@MainActor private final class Failing: MainActorInjectable {
    init(a: V1, b: V2) throws { throw LoadFailed() }
    static let initializer = Initializer(Failing.init(a:b:))
}

@MainActor private final class Holder: MainActorInjectable {
    let failing: Failing
    init(failing: Failing) { self.failing = failing }
    static let initializer = Initializer(Holder.init(failing:))
}


private final class RequestPath: Sendable {
    let path: String
    init(path: String) { self.path = path }
}

/// Two arguments in a template's child: the child's own value and a binding of its parent.
@MainActor private final class RequestModel: MainActorInjectable {
    let request: RequestPath
    let first: V1
    init(request: RequestPath, first: V1) {
        self.request = request
        self.first = first
    }
    static let initializer = Initializer(RequestModel.init(request:first:))
}

/// A cycle through a main-actor type, closed by a `Lazy`: router → coordinator → `Lazy<router>`.
@MainActor private final class Router: MainActorInjectable {
    let coordinator: Coordinator
    let first: V1
    init(coordinator: Coordinator, first: V1) {
        self.coordinator = coordinator
        self.first = first
    }
    static let initializer = Initializer(Router.init(coordinator:first:))
    static var scope: Scope { .singleton }
}

private final class Coordinator: Injectable, Sendable {
    let router: Lazy<Router>
    init(router: Lazy<Router>) { self.router = router }
    static let initializer = Initializer(Coordinator.init(router:))
}

/// Counts its builds: a singleton awaited by many tasks at once is built once.
private let sharedBuilds = Locked(0)

@MainActor private final class Shared: MainActorInjectable {
    init(first: V1, second: V2) { sharedBuilds.withLock { $0 += 1 } }
    static let initializer = Initializer(Shared.init(first:second:))
    static var scope: Scope { .singleton }
}

@MainActor private final class Decorated: MainActorInjectable {
    nonisolated let tag: String
    init(first: V1, second: V2) { tag = "built" }
    private init(tag: String) { self.tag = tag }
    nonisolated static func decorating(_ value: Decorated) -> Decorated {
        MainActor.assumeIsolated { Decorated(tag: value.tag + "+decorated") }
    }
    static let initializer = Initializer(Decorated.init(first:second:))
}

@Suite("Main-actor initializers of every arity")
@MainActor
struct MainActorArityTests {
    private let expected: [Any.Type] = [V1.self, V2.self, V3.self, V4.self, V5.self, V6.self, V7.self]

    private func received<Model: MainActorInjectable & Received>(_ model: Model.Type) throws -> [String] {
        let injector = try Injector(modules: [])
        return try injector.getInstance(Model.self).received.map { "\($0)" }
    }

    private func expected(_ count: Int) -> [String] { expected.prefix(count).map { "\($0)" } }

    @Test("each arity from none to seven passes every argument in its place")
    func everyArityPassesItsArguments() throws {
        #expect(try received(Model0.self) == expected(0))
        #expect(try received(Model1.self) == expected(1))
        #expect(try received(Model2.self) == expected(2))
        #expect(try received(Model3.self) == expected(3))
        #expect(try received(Model4.self) == expected(4))
        #expect(try received(Model5.self) == expected(5))
        #expect(try received(Model6.self) == expected(6))
        #expect(try received(Model7.self) == expected(7))
    }

    @Test("slots fill a binding by type, a named binding and a creation-time argument")
    func slotsFillAsTheySay() throws {
        let injector = try Injector(modules: [AnyModule { binder in
            binder.bind(Key<String>(named: "endpoint")).to(instance: "https://example.com")
        }])
        let titled = try injector.getInstance(Titled.self, arguments: "Inbox")
        #expect(titled.endpoint == "https://example.com")
        #expect(titled.title == "Inbox")
    }

    @Test("an awaited request from off the main actor builds each arity on the main actor")
    func awaitedOffTheMainActor() async throws {
        let injector = try Injector(modules: [])
        let received = try await Task.detached {
            let one = try await injector.instance(Model1.self)
            let zero = try await injector.instance(Model0.self)
            return (one.received.count, zero.received.count)
        }.value
        #expect(received == (1, 0))
    }

    @Test("a synchronous request off the main actor is refused with offActor")
    func synchronousOffTheMainActorIsRefused() async throws {
        let injector = try Injector(modules: [])
        let kind = await Task.detached { () -> InjectionError.Kind? in
            do {
                _ = try injector.getInstance(Model2.self)
                return nil
            } catch let error as InjectionError {
                return error.kind
            } catch {
                return nil
            }
        }.value
        #expect(kind == .offActor)
    }

    @Test("the initializer's error is reported at its key, on the path from the request")
    func initializerErrorAtItsKey() throws {
        let injector = try Injector(modules: [])
        let error = #expect(throws: InjectionError.self) { try injector.getInstance(Holder.self) }
        #expect(error?.underlying is LoadFailed)
        #expect(error?.path.map(\.type).last.map { "\($0)" } == "\(Failing.self)")
    }

    @Test("in a template's child, an argument is the child's own value and another the parent's binding")
    func inATemplateChild() throws {
        let requests = try Injector(modules: []).childTemplate(providing: RequestPath.self) { binder in
            binder.entryPoint(RequestModel.self)
        }
        let first = try requests.child(RequestPath(path: "/a")).getInstance(RequestModel.self)
        let second = try requests.child(RequestPath(path: "/b")).getInstance(RequestModel.self)
        #expect(first.request.path == "/a" && second.request.path == "/b")
    }

    @Test("a cycle through a main-actor type closed by a Lazy resolves to the one singleton")
    func lazyCycle() throws {
        let injector = try Injector(modules: [])
        let router = try injector.getInstance(Router.self)
        #expect(try router.coordinator.router.get() === router)
    }

    @Test("a main-actor singleton awaited by many tasks at once is built once")
    func awaitedByManyTasks() async throws {
        let injector = try Injector(modules: [])
        let before = sharedBuilds.withLock { $0 }
        let identities = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<16 {
                group.addTask { ObjectIdentifier(try await injector.instance(Shared.self)) }
            }
            var identities: Set<ObjectIdentifier> = []
            for try await identity in group { identities.insert(identity) }
            return identities
        }
        #expect(identities.count == 1)
        #expect(sharedBuilds.withLock { $0 } == before + 1)
    }

    @Test("a decorator wraps, and an observer sees, a main-actor value of two arguments")
    func decoratedAndObserved() throws {
        let seen = Locked<[String]>([])
        let injector = try Injector(modules: [AnyModule { binder in
            binder.decorate(Decorated.self) { value, _ in Decorated.decorating(value) }
            binder.observe { event in seen.withLock { $0.append("\(event.key)") } }
        }])
        #expect(try injector.getInstance(Decorated.self).tag == "built+decorated")
        #expect(seen.withLock { $0 }.contains("\(AnyKey(Key<Decorated>()))"))
    }

    @Test("a child's shutdown, then its parent's, leaves the main-actor values requested before intact and refuses new ones")
    func shutdownOverTime() throws {
        let parent = try Injector(modules: [])
        let child = try parent.child()
        let before = try child.getInstance(Model2.self)
        try child.shutDown()
        #expect(before.received.count == 2)
        let refused = #expect(throws: InjectionError.self) { try child.getInstance(Model2.self) }
        #expect(refused?.kind == .injectorShutDown)
        _ = try parent.getInstance(Model3.self)
        try parent.shutDown()
        #expect(throws: InjectionError.self) { try parent.getInstance(Model3.self) }
    }
}
