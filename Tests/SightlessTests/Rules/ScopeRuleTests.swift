@testable import Sightless
import Testing

private final class ClosedConnection: Injectable {
    static let initializer = Initializer(ClosedConnection.init)
}

private final class ScopedTitle: Injectable {
    init(title: String) {}
    static let initializer = Initializer(ScopedTitle.init(title:), .dynamic)
}

@Suite("Rule: scope")
struct ScopeRuleTests {
    @Test("a singleton with dynamic arguments is reported with its scope and slots")
    func singletonWithArguments() {
        let problems = ScopeRule().check(ruleGraph { $0.bind(ScopedTitle.self).in(.singleton) })
        guard case .scopedWithArguments(let key, let scope, let slots)? = problems.first?.detail else {
            Issue.record("expected scopedWithArguments, got \(problems)")
            return
        }
        #expect(key == Key<ScopedTitle>().erased)
        #expect(scope == "singleton")
        #expect(slots.count == 1)
    }

    @Test("a singleton alias of a type with dynamic arguments is reported with its target's slots")
    func singletonAliasWithArguments() {
        let problems = ScopeRule().check(ruleGraph { binder in
            binder.bind(Key<ScopedTitle>(named: "kept")).to(ScopedTitle.self).in(.singleton)
        })
        guard case .scopedWithArguments(let key, let scope, let slots)? = problems.first?.detail else {
            Issue.record("expected scopedWithArguments, got \(problems)")
            return
        }
        #expect(problems.count == 1)
        #expect(key == Key<ScopedTitle>(named: "kept").erased)
        #expect(scope == "singleton")
        #expect(slots == [.init(role: .argument(1), key: Key<String>().erased)])
    }

    @Test("an unscoped type with dynamic arguments is no problem")
    func unscopedWithArguments() {
        #expect(ScopeRule().check(ruleGraph { $0.bind(ScopedTitle.self) }).isEmpty)
    }

    @Test("a closer on a weak binding is reported with its scope: nothing keeps the value until shutdown")
    func closerOnWeakBinding() {
        let problems = ScopeRule().check(ruleGraph { $0.bind(ClosedConnection.self).in(.weak).onShutdown { _ in } })
        guard case .closerNotKept(let key, let scope)? = problems.first?.detail else {
            Issue.record("expected closerNotKept, got \(problems)")
            return
        }
        #expect(problems.count == 1)
        #expect(key == Key<ClosedConnection>().erased)
        #expect(scope == "weak")
    }

    @Test("a closer on a singleton or an eager singleton is no problem")
    func closerOnKeptBinding() {
        #expect(ScopeRule().check(ruleGraph { $0.bind(ClosedConnection.self).in(.singleton).onShutdown { _ in } }).isEmpty)
        #expect(ScopeRule().check(ruleGraph { binder in
            binder.bind(ClosedConnection.self).in(.eagerSingleton).onShutdown { _ async in }
        }).isEmpty)
    }
}
