@testable import Sightless
import Testing

private protocol MissingApi {}
private final class MissingFeed: Injectable {
    init(api: any MissingApi) {}
    static let initializer = Initializer(MissingFeed.init(api:))
}
private final class MissingOptional: Injectable {
    init(api: (any MissingApi)?) {}
    static let initializer = Initializer(MissingOptional.init(api:))
}
private final class MissingAfterDynamic: Injectable {
    init(title: String, port: Int, api: (any MissingApi)?) {}
    static let initializer = Initializer(MissingAfterDynamic.init(title:port:api:), .dynamic, .named("port"), .inject)
}
private final class MissingNamed: Injectable {
    init(port: Int) {}
    static let initializer = Initializer(MissingNamed.init(port:), .named("port"))
}

private final class PathLink {}
private protocol PathApi {}
private final class PathLeaf: Injectable {
    init(api: any PathApi) {}
    static let initializer = Initializer(PathLeaf.init(api:))
}
private final class PathMiddle: Injectable {
    init(leaf: PathLeaf) {}
    static let initializer = Initializer(PathMiddle.init(leaf:))
}
private final class PathTop: Injectable {
    init(middle: PathMiddle) {}
    static let initializer = Initializer(PathTop.init(middle:))
}
private final class PathNear: Injectable {
    init(leaf: PathLeaf) {}
    static let initializer = Initializer(PathNear.init(leaf:))
}

@Suite("Rule: missing binding")
struct MissingBindingRuleTests {
    @Test("a dependency nothing provides is reported with its consumer and path")
    func unboundDependency() {
        let graph = ruleGraph { $0.bind(MissingFeed.self) }
        let problems = MissingBindingRule().check(graph)
        #expect(problems.count == 1)
        guard case .missingBinding(let key, let consumer, let nearMisses, let canConform)? = problems.first?.detail else {
            Issue.record("expected missingBinding, got \(problems)")
            return
        }
        #expect(key == Key<any MissingApi>().erased)
        #expect(consumer == .init(key: Key<MissingFeed>().erased, role: .argument(1)))
        #expect(nearMisses.isEmpty)
        #expect(canConform)
        #expect(problems.first?.path == [Key<MissingFeed>().erased, Key<any MissingApi>().erased])
    }

    @Test("a dependency after a dynamic argument is reported with its own role and key, and an optional one after it is not")
    func afterDynamic() {
        let problems = MissingBindingRule().check(ruleGraph { $0.bind(MissingAfterDynamic.self) })
        guard case .missingBinding(let key, let consumer, _, _)? = problems.first?.detail else {
            Issue.record("expected missingBinding, got \(problems)")
            return
        }
        #expect(problems.count == 1)
        #expect(key == Key<Int>(named: "port").erased)
        #expect(consumer == .init(key: Key<MissingAfterDynamic>().erased, role: .argument(2)))
    }

    @Test("an optional dependency nothing provides is no problem")
    func optionalDependency() {
        #expect(MissingBindingRule().check(ruleGraph { $0.bind(MissingOptional.self) }).isEmpty)
    }

    @Test("a named key nothing provides lists the keys bound with the same type")
    func nearMisses() {
        var compiler = ruleCompiler { binder in
            binder.bind(MissingNamed.self)
            binder.bind(Key<Int>(named: "prot")).to(instance: 80)
        }
        let problems = compiler.validate().filter { $0.kind == .missingBinding }
        guard case .missingBinding(_, _, let nearMisses, let canConform)? = problems.first?.detail else {
            Issue.record("expected missingBinding, got \(problems)")
            return
        }
        #expect(nearMisses == [Key<Int>(named: "prot").erased])
        #expect(!canConform)
    }

    @Test("the advice never asks to make Optional, Lazy or Factory Injectable")
    func noImpossibleAdvice() {
        for key in [Key<Int?>().erased, Key<Lazy<Int>>().erased, Key<Factory<Int, String>>().erased] {
            let problem = MissingBindingRule.problem(for: key, neededBy: nil, path: [key], location: nil, bindings: [:])
            #expect(!problem.fix.contains("Injectable"), "\(problem.fix)")
        }
    }

    @Test("the path of a missing binding starts at the binding that needs it, not at the first key that reached it")
    func pathStartsAtTheBindingToChange() {
        let graph = ruleGraph { binder in
            for (name, needed) in [("a", "b"), ("b", "c"), ("c", "m"), ("m", "x")] {
                binder.bind(Key<PathLink>(named: name))
                    .to(Initializer({ (_: PathLink) in PathLink() }, .named(needed)))
            }
        }
        let problems = MissingBindingRule().check(graph)
        #expect(problems.map(\.path) == [[Key<PathLink>(named: "m").erased, Key<PathLink>(named: "x").erased]])
    }

    @Test("the path to a type built just in time is the shortest from any binding")
    func shortestPathFromAnyBinding() {
        let graph = ruleGraph { binder in
            binder.bind(PathTop.self)
            binder.bind(PathNear.self)
        }
        let problems = MissingBindingRule().check(graph)
        #expect(problems.map(\.path) == [[Key<PathNear>().erased, Key<PathLeaf>().erased, Key<any PathApi>().erased]])
    }
}
