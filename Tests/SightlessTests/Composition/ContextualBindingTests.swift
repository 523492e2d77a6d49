import Sightless
import Testing

private protocol ResourceLoader: Sendable { var source: String { get } }
private struct Loader: ResourceLoader { let source: String }

private final class UsersScreen: Injectable {
    let loader: any ResourceLoader
    init(loader: any ResourceLoader) { self.loader = loader }
    static let initializer = Initializer(UsersScreen.init(loader:))
}

private final class ProjectsScreen: Injectable {
    let loader: any ResourceLoader
    init(loader: any ResourceLoader) { self.loader = loader }
    static let initializer = Initializer(ProjectsScreen.init(loader:))
}

private final class OptionalScreen: Injectable {
    let loader: (any ResourceLoader)?
    init(loader: (any ResourceLoader)?) { self.loader = loader }
    static let initializer = Initializer(OptionalScreen.init(loader:))
}

private final class Shed: Sendable {}

private final class Yard: Injectable {
    let shed: Shed
    init(shed: Shed) { self.shed = shed }
    static let initializer = Initializer(Yard.init(shed:))
}

private final class ApiScreen: Injectable {
    init(loader: any ResourceLoader, api: any Api) {}
    static let initializer = Initializer(ApiScreen.init(loader:api:))
}

private final class UsersTab: Injectable {
    init(screen: UsersScreen) {}
    static let initializer = Initializer(UsersTab.init(screen:))
}

private final class Plain: Injectable {
    static let initializer = Initializer(Plain.init)
}

private var loaders: Bindings {
    Bindings { binder in
        binder.bind((any ResourceLoader).self).to { _ in Loader(source: "default") }
        binder.bind((any ResourceLoader).self).whenInjected(into: UsersScreen.self).to { _ in Loader(source: "users") }
    }
}

@Suite("Contextual bindings")
struct ContextualBindingTests {
    @Test("a contextual binding serves its consumer")
    func servesConsumer() throws {
        let injector = try Injector(loaders)
        #expect(try injector.getInstance(UsersScreen.self).loader.source == "users")
    }

    @Test("other consumers keep the key's own binding")
    func othersKeepPlain() throws {
        let injector = try Injector(loaders)
        #expect(try injector.getInstance(ProjectsScreen.self).loader.source == "default")
        #expect(try injector.getInstance((any ResourceLoader).self).source == "default")
    }

    @Test("a contextual binding works without a binding of the key itself")
    func withoutPlainBinding() throws {
        let injector = try Injector(Bindings { binder in
            binder.bind((any ResourceLoader).self).whenInjected(into: UsersScreen.self).to { _ in Loader(source: "users") }
        })
        #expect(try injector.getInstance(UsersScreen.self).loader.source == "users")
    }

    @Test("a contextual binding keeps its own scope")
    func ownScope() throws {
        let injector = try Injector(Bindings { binder in
            binder.bind(Shed.self).to { _ in Shed() }
            binder.bind(Shed.self).whenInjected(into: Yard.self).to { _ in Shed() }.in(.singleton)
        })
        let first = try injector.getInstance(Yard.self)
        let second = try injector.getInstance(Yard.self)
        #expect(first.shed === second.shed)
        #expect(try injector.getInstance(Shed.self) !== first.shed)
    }

    @Test("an optional dependency of the consumer is served too")
    func optionalServed() throws {
        let injector = try Injector(Bindings { binder in
            binder.bind((any ResourceLoader).self).whenInjected(into: OptionalScreen.self).to { _ in Loader(source: "optional") }
        })
        #expect(try injector.getInstance(OptionalScreen.self).loader?.source == "optional")
    }

    @Test("a contextual binding whose consumer has no such dependency is an unused declaration")
    func unusedReported() throws {
        let error = try #require(throws: InjectionError.self) {
            try Injector(Bindings { binder in
                binder.bind((any ResourceLoader).self).whenInjected(into: Plain.self).to { _ in Loader(source: "x") }
            })
        }
        guard case .unusedContextualBinding(let key, let consumer, _) = error.problems.first?.detail else {
            Issue.record("expected an unused contextual binding, got \(error)")
            return
        }
        #expect(key == Key<any ResourceLoader>().erased)
        #expect(consumer == Key<Plain>().erased)
    }

    @Test("a consumer's missing dependencies are reported when the injector is built")
    func consumerValidatedAtBuild() throws {
        let error = try #require(throws: InjectionError.self) {
            try Injector(Bindings { binder in
                binder.bind((any ResourceLoader).self).whenInjected(into: ApiScreen.self).to { _ in Loader(source: "x") }
            })
        }
        #expect(error.kind == .missingBinding)
    }

    @Test("explain shows which binding served each edge")
    func explainShowsServingBinding() throws {
        let injector = try Injector(loaders)
        #expect(try injector.explain(UsersScreen.self) == """
            UsersScreen — unscoped, just-in-time type
            └─ argument 1 → ResourceLoader(named: "when injected into UsersScreen") — unscoped, closure

            """)
        #expect(try injector.explain(ProjectsScreen.self).contains("argument 1 → ResourceLoader — unscoped, closure"))
    }

    @Test("explain of a type outside the compiled graph shows the contextual binding too")
    func explainOutsideGraph() throws {
        let injector = try Injector(loaders)
        #expect(try injector.explain(UsersTab.self).contains(
            "argument 1 → ResourceLoader(named: \"when injected into UsersScreen\")"))
    }

    @Test("an override replaces a module's contextual binding for the same consumer")
    func overrideReplaces() throws {
        let injector = try Injector(modules: [loaders]) { binder in
            binder.bind((any ResourceLoader).self).whenInjected(into: UsersScreen.self).to { _ in Loader(source: "fake") }
        }
        #expect(try injector.getInstance(UsersScreen.self).loader.source == "fake")
    }
}
