@testable import Sightless
import Testing

@Suite("Rule: unmatched override")
struct UnmatchedOverrideRuleTests {
    @Test("an override of an unbound key is reported with its declaration and near misses")
    func unboundReported() {
        let overrides = Binder()
        overrides.bind(Key<Int>(named: "retires"), fileID: "AppTests/Fakes.swift", line: 9).to(instance: 1)
        let problems = UnmatchedOverrideRule.unmatched(
            overrides.recipes, isBound: { _ in false }, bound: [Key<Int>(named: "retries").erased])
        guard case .overrideReplacesNothing(let key, let location, let nearMisses)? = problems.first?.detail else {
            Issue.record("expected overrideReplacesNothing, got \(problems)")
            return
        }
        #expect(key == Key<Int>(named: "retires").erased)
        #expect(location == SourceLocation(fileID: "AppTests/Fakes.swift", line: 9))
        #expect(nearMisses == [Key<Int>(named: "retries").erased])
    }

    @Test("an override of a bound key is not reported")
    func boundNotReported() {
        let overrides = Binder()
        overrides.bind(Int.self).to(instance: 1)
        #expect(UnmatchedOverrideRule.unmatched(overrides.recipes, isBound: { _ in true }, bound: []).isEmpty)
    }

    @Test("an override of an Injectable type with no name is not reported")
    func justInTimeNotReported() {
        let overrides = Binder()
        overrides.bind(Garage.self).to { _ in Garage() }
        #expect(UnmatchedOverrideRule.unmatched(overrides.recipes, isBound: { _ in false }, bound: []).isEmpty)
    }
}
