@testable import Sightless
import Testing

private final class DynamicTitle: Injectable {
    let title: String
    init(title: String) { self.title = title }
    static let initializer = Initializer(DynamicTitle.init(title:), .dynamic)
}
private final class DynamicConsumer: Injectable {
    init(title: DynamicTitle) {}
    static let initializer = Initializer(DynamicConsumer.init(title:))
}
private final class DynamicOptionalAlias: Injectable {
    init(title: DynamicTitle?, count: Int) {}
    static let initializer = Initializer(DynamicOptionalAlias.init(title:count:), .named("x"), .dynamic)
}
private final class DynamicFactory: Injectable {
    init(make: Factory<DynamicTitle, Int>) {}
    static let initializer = Initializer(DynamicFactory.init(make:))
}
private final class DynamicNamedConsumer: Injectable {
    init(title: DynamicTitle) {}
    static let initializer = Initializer(DynamicNamedConsumer.init(title:), .named("outer"))
}

@Suite("Rule: dynamic arguments")
struct DynamicDependencyRuleTests {
    @Test("a type with dynamic arguments injected as a plain dependency is reported with its slots")
    func injected() {
        let problems = DynamicDependencyRule().check(ruleGraph { $0.bind(DynamicConsumer.self) })
        guard case .creationTimeArgumentsInjected(let target, let consumer, let slots)? = problems.first?.detail else {
            Issue.record("expected creationTimeArgumentsInjected, got \(problems)")
            return
        }
        #expect(target == Key<DynamicTitle>().erased)
        #expect(consumer.key == Key<DynamicConsumer>().erased)
        #expect(slots == [.init(role: .argument(1), key: Key<String>().erased)])
    }

    @Test("an alias of an optional key whose target has dynamic arguments is reported")
    func optionalAlias() {
        let graph = ruleGraph(roots: [Key<DynamicOptionalAlias>().erased]) { binder in
            binder.bind(Key<DynamicTitle?>(named: "x")).to(Key<DynamicTitle?>())
        }
        let problems = DynamicDependencyRule().check(graph)
        #expect(problems.contains { $0.kind == .dynamicDependency && $0.key == Key<DynamicTitle?>(named: "x").erased })
    }

    @Test("a type with dynamic arguments reached through two aliases and injected as a plain dependency is reported")
    func injectedThroughAliases() {
        let graph = ruleGraph(roots: [Key<DynamicNamedConsumer>().erased]) { binder in
            binder.bind(Key<DynamicTitle>(named: "outer")).to(Key<DynamicTitle>(named: "inner"))
            binder.bind(Key<DynamicTitle>(named: "inner")).to(DynamicTitle.self)
        }
        let problems = DynamicDependencyRule().check(graph)
        guard case .creationTimeArgumentsInjected(let target, let consumer, let slots)? = problems.first?.detail else {
            Issue.record("expected creationTimeArgumentsInjected, got \(problems)")
            return
        }
        #expect(problems.count == 1)
        #expect(target == Key<DynamicTitle>(named: "outer").erased)
        #expect(consumer.key == Key<DynamicNamedConsumer>().erased)
        #expect(slots == [.init(role: .argument(1), key: Key<String>().erased)])
    }

    @Test("aliases that lead to each other bring no dynamic arguments")
    func aliasCycle() {
        let graph = ruleGraph(roots: [Key<DynamicNamedConsumer>().erased]) { binder in
            binder.bind(Key<DynamicTitle>(named: "outer")).to(Key<DynamicTitle>(named: "inner"))
            binder.bind(Key<DynamicTitle>(named: "inner")).to(Key<DynamicTitle>(named: "outer"))
        }
        #expect(DynamicDependencyRule().check(graph).isEmpty)
    }

    @Test("a Factory whose argument types differ from the slots is reported with both")
    func factoryArguments() {
        let problems = DynamicDependencyRule().check(ruleGraph { $0.bind(DynamicFactory.self) })
        guard case .factoryArguments(_, _, let target, let passed, let slots)? = problems.first?.detail else {
            Issue.record("expected factoryArguments, got \(problems)")
            return
        }
        #expect(target == Key<DynamicTitle>().erased)
        #expect(passed == [Key<Int>().erased])
        #expect(slots.map(\.key) == [Key<String>().erased])
    }
}
