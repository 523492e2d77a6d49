@testable import Sightless
import Testing

private protocol Shape: Sendable {}
private final class Circle: Shape, Injectable { static let initializer = Initializer(Circle.init) }
private final class Square: Shape, Injectable { static let initializer = Initializer(Square.init) }

private final class Canvas: Injectable {
    init(shape: any Shape) {}
    static let initializer = Initializer(Canvas.init(shape:))
}

private final class Blank: Injectable {
    static let initializer = Initializer(Blank.init)
}

@Suite("Rule: unbound decorator")
struct UnboundDecoratorRuleTests {
    @Test("a decorator of a key nothing binds is reported with its declaration")
    func unboundReported() {
        let binder = Binder()
        binder.decorate(Key<Int>(named: "limit"), fileID: "App/Limits.swift", line: 5) { value, _ in value }
        let problems = UnboundDecoratorRule.unbound(binder.decorators, isBound: { _ in false }, bound: [])
        guard case .decoratorWithoutBinding(let key, let location, _)? = problems.first?.detail else {
            Issue.record("expected decoratorWithoutBinding, got \(problems)")
            return
        }
        #expect(key == Key<Int>(named: "limit").erased)
        #expect(location == SourceLocation(fileID: "App/Limits.swift", line: 5))
    }

    @Test("a decorator of a bound key or of an Injectable type is not reported")
    func boundNotReported() {
        let binder = Binder()
        binder.decorate(Int.self) { value, _ in value }
        binder.decorate(Blank.self) { value, _ in value }
        let bound = Key<Int>().erased
        #expect(UnboundDecoratorRule.unbound(binder.decorators, isBound: { $0 == bound }, bound: [bound]).isEmpty)
    }
}

@Suite("Rule: duplicate contribution")
struct DuplicateContributionRuleTests {
    @Test("two module contributions of one map key are reported with both declarations")
    func duplicateKeyReported() {
        let binder = Binder()
        binder.contribute(to: [String: Int].self, key: "a", fileID: "App/A.swift", line: 1).to(instance: 1)
        binder.contribute(to: [String: Int].self, key: "a", fileID: "App/B.swift", line: 2).to(instance: 2)
        let gathered = DuplicateContributionRule().gather(binder.contributions, bound: [:], overridden: [])
        guard case .contributedTwice(_, let entry, let first, let second)? = gathered.problems.first?.detail else {
            Issue.record("expected contributedTwice, got \(gathered.problems)")
            return
        }
        #expect(entry == "\"a\"")
        #expect(first == SourceLocation(fileID: "App/A.swift", line: 1))
        #expect(second == SourceLocation(fileID: "App/B.swift", line: 2))
    }

    @Test("an override's entry of the same key replaces the module's without a problem")
    func overrideEntryReplaces() {
        let modules = Binder(), overrides = Binder()
        overrides.isRecordingOverrides = true
        modules.contribute(to: [String: Int].self, key: "a").to(instance: 1)
        overrides.contribute(to: [String: Int].self, key: "a").to(instance: 2)
        let gathered = DuplicateContributionRule().gather(
            modules.contributions + overrides.contributions, bound: [:], overridden: [])
        #expect(gathered.problems.isEmpty)
        #expect(gathered.recipes.first?.dependencies.map(\.key) == overrides.contributions.map(\.element))
    }

    @Test("a collection whose key an override binds is not gathered")
    func overriddenCollectionSkipped() {
        let binder = Binder()
        binder.contribute(to: [Int].self).to(instance: 1)
        let gathered = DuplicateContributionRule().gather(binder.contributions, bound: [:], overridden: [Key<[Int]>().erased])
        #expect(gathered.recipes.isEmpty)
    }
}

@Suite("Rule: unused contextual binding")
struct UnusedContextualBindingRuleTests {
    @Test("a contextual binding whose consumer does not need the key is reported")
    func unusedReported() {
        var recorded = RecordedElements()
        let compiler = ruleCompiler(roots: [Key<Blank>().erased]) { binder in
            binder.bind((any Shape).self).whenInjected(into: Blank.self).to(Circle.self)
            recorded = RecordedElements(modules: binder, overrides: Binder())
        }
        let problems = UnusedContextualBindingRule().check(RuleInput(graph: compiler.graph, recorded: recorded))
        guard case .unusedContextualBinding(_, let consumer, _)? = problems.first?.detail else {
            Issue.record("expected unusedContextualBinding, got \(problems)")
            return
        }
        #expect(consumer == Key<Blank>().erased)
    }

    @Test("a contextual binding that serves an edge is not reported")
    func usedNotReported() {
        let binder = Binder()
        binder.bind((any Shape).self).whenInjected(into: Canvas.self).to(Circle.self)
        let merged = DuplicateBindingRule().merge(modules: binder.recipes, overrides: [], builtIn: [])
        var compiler = GraphCompiler(bindings: merged.bindings)
        for binding in binder.contextualBindings {
            compiler.contextual[binding.consumer, default: [:]][binding.key] = binding.serving
        }
        for key in merged.order { compiler.addRoot(key) }
        compiler.addRoot(Key<Canvas>().erased)
        let recorded = RecordedElements(modules: binder, overrides: Binder())
        #expect(UnusedContextualBindingRule().check(RuleInput(graph: compiler.graph, recorded: recorded)).isEmpty)
    }
}

@Suite("Rule: ambiguous candidate")
struct AmbiguousCandidateRuleTests {
    @Test("one candidate of an unbound protocol becomes its binding")
    func oneCandidateBinds() {
        let binder = Binder()
        binder.candidate(Circle.self, for: (any Shape).self) { $0 }
        let resolved = AmbiguousCandidateRule().resolve(binder.candidates) { _ in false }
        #expect(resolved.problems.isEmpty)
        #expect(resolved.recipes.map(\.key) == [Key<any Shape>().erased])
    }

    @Test("two candidates of an unbound protocol are reported, each with its declaration")
    func twoCandidatesReported() {
        let binder = Binder()
        binder.candidate(Circle.self, for: (any Shape).self, fileID: "App/A.swift", line: 1) { $0 }
        binder.candidate(Square.self, for: (any Shape).self, fileID: "App/B.swift", line: 2) { $0 }
        let resolved = AmbiguousCandidateRule().resolve(binder.candidates) { _ in false }
        guard case .severalCandidates(_, let candidates)? = resolved.problems.first?.detail else {
            Issue.record("expected severalCandidates, got \(resolved.problems)")
            return
        }
        #expect(candidates.map(\.location) == [SourceLocation(fileID: "App/A.swift", line: 1),
                                               SourceLocation(fileID: "App/B.swift", line: 2)])
        #expect(resolved.recipes.isEmpty)
    }

    @Test("a bound protocol ignores its candidates")
    func boundIgnoresCandidates() {
        let binder = Binder()
        binder.candidate(Circle.self, for: (any Shape).self) { $0 }
        binder.candidate(Square.self, for: (any Shape).self) { $0 }
        let resolved = AmbiguousCandidateRule().resolve(binder.candidates) { _ in true }
        #expect(resolved.problems.isEmpty && resolved.recipes.isEmpty)
    }
}
