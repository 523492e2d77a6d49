@testable import Sightless
import Testing

private final class EntryBuilt: Injectable {
    static let initializer = Initializer(EntryBuilt.init)
}

@Suite("Rule: entry point")
struct EntryPointRuleTests {
    /// The rule's problems for what `configure` records, every entry point a root.
    private func problems(_ configure: (Binder) -> Void) -> [InjectionError.Problem] {
        let binder = Binder()
        configure(binder)
        let recorded = RecordedElements(modules: binder, overrides: Binder())
        let compiler = ruleCompiler(roots: recorded.entryPoints.map(\.key), configure)
        return EntryPointRule().check(RuleInput(graph: compiler.graph, recorded: recorded))
    }

    @Test("an entry point nothing builds is reported once, with where it was declared")
    func unbuildableReportedOnce() {
        let problems = problems { binder in
            binder.entryPoint(Key<Int>(named: "port"), fileID: "App/Main.swift", line: 4)
            binder.entryPoint(Key<Int>(named: "port"), fileID: "App/Main.swift", line: 5)
        }
        #expect(problems.count == 1)
        guard case .missingBinding(let key, let consumer, _, _)? = problems.first?.detail else {
            Issue.record("expected missingBinding, got \(problems)")
            return
        }
        #expect(key == Key<Int>(named: "port").erased)
        #expect(consumer == nil)
        #expect(problems.first?.location == SourceLocation(fileID: "App/Main.swift", line: 4))
    }

    @Test("an entry point of an Injectable type is not reported")
    func injectableNotReported() {
        #expect(problems { $0.entryPoint(EntryBuilt.self) }.isEmpty)
    }
}

@Suite("Rule: bound by parent")
struct BoundByParentRuleTests {
    @Test("a child's module binding a key its parent binds is reported")
    func parentsKeyReported() throws {
        let parent = try Injector(modules: [Bindings { $0.bind(Int.self).to(instance: 1) }])
        #expect {
            _ = try parent.child(modules: [Bindings { $0.bind(Int.self).to(instance: 2) }])
        } throws: { error in
            guard case .boundByParent(let key, _)? = (error as? InjectionError)?.problems.first?.detail else { return false }
            return key == Key<Int>().erased
        }
    }

    @Test("a child's override of a key its parent binds is not reported")
    func overrideNotReported() throws {
        let parent = try Injector(modules: [Bindings { $0.bind(Int.self).to(instance: 1) }])
        let child = try parent.child(overrides: [Bindings { $0.bind(Int.self).to(instance: 2) }])
        #expect(try child.getInstance(Int.self) == 2)
    }

    @Test("without a parent, the rule reports nothing")
    func noParentNothing() {
        let binder = Binder()
        binder.bind(Int.self).to(instance: 1)
        let recorded = RecordedElements(modules: binder, overrides: Binder())
        #expect(BoundByParentRule().check(RuleInput(graph: BindingGraph(), recorded: recorded)).isEmpty)
    }
}
