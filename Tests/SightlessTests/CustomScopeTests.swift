import Sightless
import Synchronization
import Testing

/// Counts the values a binding builds, building a new one for every request.
private struct CountingScope: ScopeStrategy {
    let builds: Counter
    var sharesValues: Bool { false }

    func scope<Value>(_ unscoped: Provision<Value>) -> Provision<Value> {
        let builds = builds
        return Provision(unscoped.key) { resolution in
            builds.increment()
            return try unscoped.get(&resolution)
        }
    }
}

/// Keeps one value per injector, like `.singleton`, through the storage every storing scope uses.
private struct KeepingScope: ScopeStrategy {
    func scope<Value>(_ unscoped: Provision<Value>) -> Provision<Value> {
        unscoped.stored(in: InstanceStorage(unscoped.key))
    }
}

/// Keeps one value per injector, built synchronously or awaited once.
private struct AwaitedKeepingScope: ScopeStrategy {
    func scope<Value>(_ unscoped: Provision<Value>) -> Provision<Value> {
        unscoped.stored(in: InstanceStorage(unscoped.key))
    }
    var awaitedScoping: AwaitedScoping { .keepsOne }
}

private final class AwaitedScopedThing: Injectable, Sendable {
    init() async {}
    static let initializer = Initializer(AwaitedScopedThing.init)
}

private final class ScopedThing: Injectable {
    static let initializer = Initializer(ScopedThing.init)
}

private final class ScopedTitled: Injectable {
    let title: String
    init(title: String) { self.title = title }
    static let initializer = Initializer(ScopedTitled.init(title:), .dynamic)
}

private final class ScopedConsumer: Injectable {
    let first: ScopedThing
    let second: ScopedThing
    init(first: ScopedThing, second: ScopedThing) {
        self.first = first
        self.second = second
    }
    static let initializer = Initializer(ScopedConsumer.init(first:second:))
}

@Suite("Custom scopes")
struct CustomScopeTests {
    @Test("a scope written as one type wraps every value its binding provides")
    func countingScope() throws {
        let builds = Counter()
        let counting = Scope("counting", CountingScope(builds: builds))
        let injector = try Injector(Bindings { $0.bind(ScopedThing.self).in(counting) })
        let first = try injector.getInstance(ScopedThing.self)
        let second = try injector.getInstance(ScopedThing.self)
        #expect(first !== second)
        #expect(builds.count == 2)
    }

    @Test("a scope wraps the values its binding provides as a dependency too")
    func countingScopeAsDependency() throws {
        let builds = Counter()
        let injector = try Injector(Bindings {
            $0.bind(ScopedThing.self).in(Scope("counting", CountingScope(builds: builds)))
        })
        _ = try injector.getInstance(ScopedConsumer.self)
        #expect(builds.count == 2)
    }

    @Test("a storing scope keeps one value and gives it to every request and dependency")
    func storingScope() throws {
        let injector = try Injector(Bindings { $0.bind(ScopedThing.self).in(Scope("kept", KeepingScope())) })
        let consumer = try injector.getInstance(ScopedConsumer.self)
        #expect(consumer.first === consumer.second)
        #expect(try injector.getInstance(ScopedThing.self) === consumer.first)
        #expect(try injector.handle(for: ScopedThing.self).get() === consumer.first)
    }

    @Test("a scope that shares values cannot hold a type with dynamic arguments")
    func sharingScopeRejectsDynamicArguments() {
        let error = #expect(throws: InjectionError.self) {
            _ = try Injector(Bindings { $0.bind(ScopedTitled.self).in(Scope("kept", KeepingScope())) })
        }
        guard case .scopedWithArguments(_, let scope, _)? = error?.problems.first?.detail else {
            Issue.record("expected scopedWithArguments, got \(String(describing: error))")
            return
        }
        #expect(scope == "kept")
    }

    @Test("a scope that builds a value per request may hold a type with dynamic arguments")
    func perRequestScopeAllowsDynamicArguments() throws {
        let builds = Counter()
        let injector = try Injector(Bindings { $0.bind(ScopedTitled.self).in(Scope("counting", CountingScope(builds: builds))) })
        #expect(try injector.getInstance(ScopedTitled.self, arguments: "Inbox").title == "Inbox")
        #expect(builds.count == 1)
    }

    @Test("the graph export names a custom scope")
    func exportNamesScope() throws {
        let injector = try Injector(Bindings { $0.bind(ScopedThing.self).in(Scope("kept", KeepingScope())) })
        #expect(injector.exportGraph(as: .text).contains("ScopedThing — kept, type"))
    }

    @Test("scopes are equal by name")
    func equalByName() {
        #expect(Scope("kept", KeepingScope()) == Scope("kept", CountingScope(builds: Counter())))
        #expect(Scope.singleton != Scope.unscoped)
    }
}

private final class SelfDeclaredSingleton: Injectable {
    static let initializer = Initializer(SelfDeclaredSingleton.init)
    static var scope: Scope { .singleton }
}

private protocol SelfDeclaredService: AnyObject {}
extension SelfDeclaredSingleton: SelfDeclaredService {}

@Suite("A type's own scope")
struct TypeDeclaredScopeTests {
    @Test("a type that declares itself a singleton is one without a binding")
    func selfDeclaredSingleton() throws {
        let injector = try Injector(modules: [])
        #expect(try injector.getInstance(SelfDeclaredSingleton.self) === (try injector.getInstance(SelfDeclaredSingleton.self)))
    }

    @Test("an alias to a type that declares itself a singleton shares its one instance")
    func aliasSharesDeclaredScope() throws {
        let injector = try Injector(Bindings { $0.bind((any SelfDeclaredService).self).to(SelfDeclaredSingleton.self) })
        #expect(try injector.getInstance((any SelfDeclaredService).self) === (try injector.getInstance(SelfDeclaredSingleton.self)))
    }

    @Test("a binding's explicit scope wins over the type's own")
    func explicitScopeWins() throws {
        let injector = try Injector(Bindings { $0.bind(SelfDeclaredSingleton.self).in(.unscoped) })
        #expect(try injector.getInstance(SelfDeclaredSingleton.self) !== (try injector.getInstance(SelfDeclaredSingleton.self)))
    }

    @Test("a scope of one's own that keeps one value per injector keeps a value built with await, awaited once")
    func customScopeKeepsAwaitedValue() async throws {
        let injector = try Injector(Bindings { $0.bind(AwaitedScopedThing.self).in(Scope("awaited keeping", AwaitedKeepingScope())) })
        let first = try await injector.instance(AwaitedScopedThing.self)
        #expect(first === (try await injector.instance(AwaitedScopedThing.self)))
    }

    @Test("a scope of one's own that says nothing of await refuses a value built with await")
    func customScopeRefusesAwaitedValue() {
        #expect { _ = try Injector(Bindings { $0.bind(AwaitedScopedThing.self).in(Scope("keeping", KeepingScope())) }) } throws: {
            ($0 as? InjectionError)?.kind == .scopeConflict
        }
    }
}
