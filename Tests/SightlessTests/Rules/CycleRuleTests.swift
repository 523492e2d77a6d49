@testable import Sightless
import Testing

private final class CycleOne: Injectable {
    init(two: CycleTwo) {}
    static let initializer = Initializer(CycleOne.init(two:))
}
private final class CycleTwo: Injectable {
    init(one: CycleOne) {}
    static let initializer = Initializer(CycleTwo.init(one:))
}
private final class CycleLazyOne: Injectable {
    init(two: Lazy<CycleLazyTwo>) {}
    static let initializer = Initializer(CycleLazyOne.init(two:))
}
private final class CycleLazyTwo: Injectable {
    init(one: CycleLazyOne) {}
    static let initializer = Initializer(CycleLazyTwo.init(one:))
}

@Suite("Rule: cycle")
struct CycleRuleTests {
    @Test("two types that need each other are one cycle, first key repeated at the end")
    func twoTypeCycle() {
        let problems = CycleRule().check(ruleGraph { $0.bind(CycleOne.self) })
        #expect(problems.count == 1)
        guard case .cycle(let keys)? = problems.first?.detail else {
            Issue.record("expected a cycle, got \(problems)")
            return
        }
        #expect(keys == [Key<CycleOne>().erased, Key<CycleTwo>().erased, Key<CycleOne>().erased])
    }

    @Test("a Lazy edge breaks a cycle")
    func lazyBreaksCycle() {
        #expect(CycleRule().check(ruleGraph { $0.bind(CycleLazyOne.self) }).isEmpty)
    }
}
