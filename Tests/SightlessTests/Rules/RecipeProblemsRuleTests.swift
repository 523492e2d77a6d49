@testable import Sightless
import Testing

@Suite("Rule: recorded problems")
struct RecipeProblemsRuleTests {
    @Test("a binding without a target of a type that is not Injectable is reported with its path")
    func bindingWithoutTarget() {
        let problems = RecipeProblemsRule().check(ruleGraph { $0.bind(Key<Int>(named: "retries")) })
        guard case .bindingWithoutTarget(let key, _)? = problems.first?.detail else {
            Issue.record("expected bindingWithoutTarget, got \(problems)")
            return
        }
        #expect(key == Key<Int>(named: "retries").erased)
        #expect(problems.first?.path == [Key<Int>(named: "retries").erased])
        #expect(problems.first?.location != nil)
    }
}
