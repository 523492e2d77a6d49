@testable import Sightless
import Testing

/// The rule's problems for what `modules` and `overrides` record, with the bindings merged
/// from them as an injector merges them.
private func duplicateProblems(modules: Binder, overrides: Binder = Binder()) -> [InjectionError.Problem] {
    let recorded = RecordedElements(modules: modules, overrides: overrides)
    let merged = DuplicateBindingRule().merge(
        modules: recorded.recipes(overrides: false), overrides: recorded.recipes(overrides: true), builtIn: [.injector()])
    return DuplicateBindingRule().check(RuleInput(graph: BindingGraph(), recorded: recorded, bindings: merged.bindings,
                                                  moduleKeyCount: merged.moduleKeyCount))
}

@Suite("Rule: duplicate binding")
struct DuplicateBindingRuleTests {
    @Test("a key bound twice is reported with both declarations")
    func boundTwice() {
        let binder = Binder()
        binder.bind(Int.self, fileID: "App/A.swift", line: 3).to(instance: 1)
        binder.bind(Int.self, fileID: "App/B.swift", line: 7).to(instance: 2)
        let problems = duplicateProblems(modules: binder)
        guard case .boundTwice(let key, let first, let second, let amongOverrides)? = problems.first?.detail else {
            Issue.record("expected boundTwice, got \(problems)")
            return
        }
        #expect(key == Key<Int>().erased)
        #expect(first == SourceLocation(fileID: "App/A.swift", line: 3))
        #expect(second == SourceLocation(fileID: "App/B.swift", line: 7))
        #expect(!amongOverrides)
    }

    @Test("a key bound three times is reported twice, each time with the first declaration, and the first binding is kept")
    func boundThrice() {
        let binder = Binder()
        binder.bind(Int.self, fileID: "App/A.swift", line: 3).to(instance: 1)
        binder.bind(Int.self, fileID: "App/B.swift", line: 7).to { _ in 2 }
        binder.bind(Int.self, fileID: "App/C.swift", line: 9).to { _ in 3 }
        let recipes = binder.recipes
        let merged = DuplicateBindingRule().merge(modules: recipes, overrides: [], builtIn: [])
        var firsts: [Sightless.SourceLocation?] = []
        var seconds: [Sightless.SourceLocation?] = []
        for problem in duplicateProblems(modules: binder) {
            guard case .boundTwice(_, let first, let second, _) = problem.detail else { continue }
            firsts.append(first)
            seconds.append(second)
        }
        let a = Sightless.SourceLocation(fileID: "App/A.swift", line: 3)
        #expect(firsts == [a, a])
        #expect(seconds == [Sightless.SourceLocation(fileID: "App/B.swift", line: 7),
                            Sightless.SourceLocation(fileID: "App/C.swift", line: 9)])
        #expect(merged.bindings[Key<Int>().erased]?.source == .instance)
        #expect(merged.order == [Key<Int>().erased])
    }

    @Test("a key bound twice among the overrides is reported as among the overrides")
    func boundTwiceAmongOverrides() {
        let modules = Binder(), overrides = Binder()
        modules.bind(Int.self).to(instance: 1)
        overrides.bind(Int.self, fileID: "Tests/A.swift", line: 1).to(instance: 2)
        overrides.bind(Int.self, fileID: "Tests/A.swift", line: 2).to(instance: 3)
        let problems = duplicateProblems(modules: modules, overrides: overrides)
        guard case .boundTwice(_, let first, let second, let amongOverrides)? = problems.first?.detail else {
            Issue.record("expected boundTwice, got \(problems)")
            return
        }
        #expect(problems.count == 1)
        #expect(first == SourceLocation(fileID: "Tests/A.swift", line: 1))
        #expect(second == SourceLocation(fileID: "Tests/A.swift", line: 2))
        #expect(amongOverrides)
    }

    @Test("the keys are merged in the order they were first bound, overrides' new keys last")
    func order() {
        let modules = Binder(), overrides = Binder()
        modules.bind(Key<Int>(named: "b")).to(instance: 1)
        modules.bind(Key<Int>(named: "a")).to(instance: 2)
        overrides.bind(Key<Int>(named: "c")).to(instance: 3)
        overrides.bind(Key<Int>(named: "a")).to(instance: 4)
        let merged = DuplicateBindingRule().merge(modules: modules.recipes, overrides: overrides.recipes, builtIn: [])
        #expect(merged.order == ["b", "a", "c"].map { Key<Int>(named: $0).erased })
    }

    @Test("an override replaces the modules' binding without a problem")
    func overrideReplaces() {
        let modules = Binder(), overrides = Binder()
        modules.bind(Int.self).to(instance: 1)
        overrides.bind(Int.self).to(instance: 2)
        let merged = DuplicateBindingRule().merge(modules: modules.recipes, overrides: overrides.recipes, builtIn: [])
        #expect(duplicateProblems(modules: modules, overrides: overrides).isEmpty)
        #expect(merged.bindings[Key<Int>().erased]?.source == .instance)
    }

    @Test("binding the injector's own key is reported")
    func reservedKey() {
        let binder = Binder()
        binder.bind(Injector.self).to { resolver in resolver.injector }
        let problems = duplicateProblems(modules: binder)
        guard case .reservedKey(let key)? = problems.first?.detail else {
            Issue.record("expected reservedKey, got \(problems)")
            return
        }
        #expect(key == Key<Injector>().erased)
    }
}
