@testable import Sightless
import Testing

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
}
