@testable import Sightless
import Testing

private final class CaptiveWidget: Injectable {
    static let initializer = Initializer(CaptiveWidget.init)
}
private final class CaptiveHolder: Injectable {
    init(widget: CaptiveWidget) {}
    static let initializer = Initializer(CaptiveHolder.init(widget:))
}
private final class CaptiveNamedHolder: Injectable {
    init(widget: CaptiveWidget) {}
    static let initializer = Initializer(CaptiveNamedHolder.init(widget:), .named("outer"))
}

/// A type that declares itself per request, which a parent compiles just in time.
private final class DeclaredPerRequest: Injectable {
    static let initializer = Initializer(DeclaredPerRequest.init)
    static var scope: Scope { .perRequest }
}
private final class DeclaredPerRequestHolder: Injectable {
    init(value: DeclaredPerRequest) {}
    static let initializer = Initializer(DeclaredPerRequestHolder.init(value:))
}

@Suite("Rule: captive dependency")
struct CaptiveDependencyRuleTests {
    @Test("a singleton holding a per-request value is reported with both scopes and the path")
    func singletonHoldsPerRequest() {
        let problems = CaptiveDependencyRule().check(ruleGraph { binder in
            binder.bind(CaptiveWidget.self).in(.perRequest)
            binder.bind(CaptiveHolder.self).in(.singleton)
        })
        guard case .captiveDependency(let key, let scope, let dependency, let dependencyScope)? = problems.first?.detail else {
            Issue.record("expected captiveDependency, got \(problems)")
            return
        }
        #expect(problems.count == 1)
        #expect(key == Key<CaptiveHolder>().erased)
        #expect(scope == "singleton")
        #expect(dependency == Key<CaptiveWidget>().erased)
        #expect(dependencyScope == "per request")
        #expect(problems.first?.path == [Key<CaptiveHolder>().erased, Key<CaptiveWidget>().erased])
    }

    @Test("a weak value holding a per-request value is reported")
    func weakHoldsPerRequest() {
        let problems = CaptiveDependencyRule().check(ruleGraph { binder in
            binder.bind(CaptiveWidget.self).in(.perRequest)
            binder.bind(CaptiveHolder.self).in(.weak)
        })
        #expect(problems.map(\.kind) == [.scopeConflict])
    }

    @Test("a per-request value may hold a weak value or a singleton")
    func perRequestHoldsLongerLived() {
        let weak = ruleGraph { binder in
            binder.bind(CaptiveWidget.self).in(.weak)
            binder.bind(CaptiveHolder.self).in(.perRequest)
        }
        let singleton = ruleGraph { binder in
            binder.bind(CaptiveWidget.self).in(.singleton)
            binder.bind(CaptiveHolder.self).in(.perRequest)
        }
        #expect(CaptiveDependencyRule().check(weak).isEmpty)
        #expect(CaptiveDependencyRule().check(singleton).isEmpty)
    }

    @Test("a singleton holding a per-request value through an unscoped alias is reported, naming the alias")
    func throughAlias() {
        let problems = CaptiveDependencyRule().check(ruleGraph { binder in
            binder.bind(Key<CaptiveWidget>(named: "outer")).to(CaptiveWidget.self)
            binder.bind(CaptiveWidget.self).in(.perRequest)
            binder.bind(CaptiveNamedHolder.self).in(.singleton)
        })
        guard case .captiveDependency(_, _, let dependency, let dependencyScope)? = problems.first?.detail else {
            Issue.record("expected captiveDependency, got \(problems)")
            return
        }
        #expect(problems.count == 1)
        #expect(dependency == Key<CaptiveWidget>(named: "outer").erased)
        #expect(dependencyScope == "per request")
    }

    @Test("aliases that lead to each other make no captive dependency")
    func aliasCycle() {
        let graph = ruleGraph { binder in
            binder.bind(Key<CaptiveWidget>(named: "outer")).to(Key<CaptiveWidget>(named: "inner"))
            binder.bind(Key<CaptiveWidget>(named: "inner")).to(Key<CaptiveWidget>(named: "outer"))
            binder.bind(CaptiveNamedHolder.self).in(.singleton)
        }
        #expect(CaptiveDependencyRule().check(graph).isEmpty)
    }

    @Test("a child's singleton holding a per-request type its parent compiled just in time is reported")
    func childSingletonHoldsParentsDeclaredPerRequest() throws {
        let app = try Injector(modules: [])
        _ = try app.getInstance(DeclaredPerRequest.self)   // the parent compiles it
        let error = #expect(throws: InjectionError.self) {
            try app.child { $0.bind(DeclaredPerRequestHolder.self).in(.singleton) }
        }
        guard case .captiveDependency(let key, _, let dependency, let dependencyScope)? = error?.problems.first?.detail else {
            Issue.record("expected captiveDependency, got \(String(describing: error))")
            return
        }
        #expect(key == Key<DeclaredPerRequestHolder>().erased)
        #expect(dependency == Key<DeclaredPerRequest>().erased)
        #expect(dependencyScope == "per request")
    }

    @Test("a child's singleton holding a per-request type reached first through the child is reported")
    func childSingletonHoldsSharedDeclaredPerRequest() throws {
        let app = try Injector(modules: [])
        let error = #expect(throws: InjectionError.self) {
            try app.child { $0.bind(DeclaredPerRequestHolder.self).in(.singleton) }
        }
        #expect(error?.kind == .scopeConflict, "\(String(describing: error))")
    }

    @Test("the same singleton in the root injector is reported alike")
    func rootSingletonHoldsDeclaredPerRequest() throws {
        let error = #expect(throws: InjectionError.self) {
            try Injector(modules: [AnyModule { $0.bind(DeclaredPerRequestHolder.self).in(.singleton) }])
        }
        #expect(error?.kind == .scopeConflict, "\(String(describing: error))")
    }
}
