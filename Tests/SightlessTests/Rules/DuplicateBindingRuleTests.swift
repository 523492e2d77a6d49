@testable import Sightless
import Testing

@Suite("Rule: duplicate binding")
struct DuplicateBindingRuleTests {
    @Test("a key bound twice is reported with both declarations")
    func boundTwice() {
        let binder = Binder()
        binder.bind(Int.self, fileID: "App/A.swift", line: 3).to(instance: 1)
        binder.bind(Int.self, fileID: "App/B.swift", line: 7).to(instance: 2)
        let merged = DuplicateBindingRule().merge(modules: binder.recipes, overrides: [], builtIn: [])
        guard case .boundTwice(let key, let first, let second, let amongOverrides)? = merged.problems.first?.detail else {
            Issue.record("expected boundTwice, got \(merged.problems)")
            return
        }
        #expect(key == Key<Int>().erased)
        #expect(first == SourceLocation(fileID: "App/A.swift", line: 3))
        #expect(second == SourceLocation(fileID: "App/B.swift", line: 7))
        #expect(!amongOverrides)
    }

    @Test("an override replaces the modules' binding without a problem")
    func overrideReplaces() {
        let modules = Binder(), overrides = Binder()
        modules.bind(Int.self).to(instance: 1)
        overrides.bind(Int.self).to(instance: 2)
        let merged = DuplicateBindingRule().merge(modules: modules.recipes, overrides: overrides.recipes, builtIn: [])
        #expect(merged.problems.isEmpty)
        #expect(merged.bindings[Key<Int>().erased]?.source == .instance)
    }

    @Test("binding the injector's own key is reported")
    func reservedKey() {
        let binder = Binder()
        binder.bind(Injector.self).to { resolver in resolver.injector }
        let merged = DuplicateBindingRule().merge(modules: binder.recipes, overrides: [], builtIn: [.injector()])
        guard case .reservedKey(let key)? = merged.problems.first?.detail else {
            Issue.record("expected reservedKey, got \(merged.problems)")
            return
        }
        #expect(key == Key<Injector>().erased)
    }
}
