import Foundation
@testable import Sightless
import Testing

private final class ListCycleOne: Injectable {
    init(two: ListCycleTwo) {}
    static let initializer = Initializer(ListCycleOne.init(two:))
}

private final class ListCycleTwo: Injectable {
    init(one: ListCycleOne) {}
    static let initializer = Initializer(ListCycleTwo.init(one:))
}

private protocol ListClock: Sendable {}

private final class ListNeedy: Injectable {
    init(clock: any ListClock) {}
    static let initializer = Initializer(ListNeedy.init(clock:))
}

private final class ListBlank: Injectable {
    static let initializer = Initializer(ListBlank.init)
}

/// A module with one mistake for each of several rules, recorded in the reverse of the rules'
/// order, so that the order of the problems is the rules' and not the declarations'.
private struct ManyMistakes: Module {
    func configure(_ binder: Binder) {
        binder.bind(String.self).whenInjected(into: ListBlank.self).to(instance: "unused")   // unused contextual binding
        binder.bind(ListCycleOne.self)                                                       // cycle
        binder.bind(ListNeedy.self)                                                          // missing binding
        binder.entryPoint(Key<Double>(named: "absent"))                                      // entry point
        binder.decorate(Key<Float>(named: "nothing")) { value, _ in value }                  // unbound decorator
        binder.bind(Bool.self).to(instance: true)
        binder.bind(Bool.self).to(instance: false)                                           // duplicate binding
    }
}

/// The name of a problem's case, without its values.
private func caseName(_ problem: InjectionError.Problem) -> String {
    String(String(describing: problem.detail).prefix { $0 != "(" })
}

@Suite("Rules: the one list the compiler runs")
struct RuleListTests {
    @Test("the rule list holds every rule of Graph/Rules, each once")
    func listCoversEveryRule() throws {
        let folder = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/Sightless/Graph/Rules")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix("Rule.swift") }.map { String($0.dropLast(".swift".count)) }
        let listed = GraphCompiler.rules.map { String(describing: type(of: $0)) }
        #expect(!files.isEmpty)
        #expect(listed.sorted() == files.sorted())
        #expect(Set(listed).count == listed.count)
    }

    @Test("a graph with mistakes for several rules reports them all, in the order of the rule list")
    func problemsInRuleOrder() {
        do {
            _ = try Injector(modules: [ManyMistakes()])
            Issue.record("expected the injector to fail")
        } catch {
            #expect(error.problems.map(caseName) == [
                "boundTwice",               // DuplicateBindingRule
                "decoratorWithoutBinding",  // UnboundDecoratorRule
                "missingBinding",           // EntryPointRule
                "missingBinding",           // MissingBindingRule
                "cycle",                    // CycleRule
                "unusedContextualBinding",  // UnusedContextualBindingRule
            ])
            #expect(error.problems.compactMap { $0.path.first } == [
                Key<Bool>().erased, Key<Float>(named: "nothing").erased, Key<Double>(named: "absent").erased,
                Key<ListNeedy>().erased, Key<ListCycleOne>().erased, Key<ListBlank>().erased,
            ])
        }
    }
}
