@testable import Sightless
import Testing

@MainActor
private final class Screen: MainActorInjectable {
    static let initializer = Initializer(Screen.init)
}

@MainActor
private final class Navigator: MainActorInjectable {
    init(screen: Screen) {}
    static let initializer = Initializer(Navigator.init(screen:))
}

private final class Presenter: Injectable {
    init(screen: Screen) {}
    static let initializer = Initializer(Presenter.init(screen:))
}

private final class Holder: Injectable {
    init(presenter: Presenter) {}
    static let initializer = Initializer(Holder.init(presenter:))
}

private final class LazyHolder: Injectable {
    init(screen: Lazy<Screen>) {}
    static let initializer = Initializer(LazyHolder.init(screen:))
}

private final class Outer: Injectable {
    init(holder: Holder) {}
    static let initializer = Initializer(Outer.init(holder:))
}

private func key<T>(_ type: T.Type) -> AnyKey { Key<T>().erased }

// The graphs are compiled on the main actor, where the descriptors of main-actor types are read.
@Suite("Rule: isolation")
@MainActor
struct IsolationRuleTests {
    @Test("a nonisolated singleton that needs a main-actor value is reported, with the path to it")
    func singletonNeedsMainActorValue() {
        let graph = ruleGraph { $0.bind(Presenter.self).in(.singleton) }
        let problems = IsolationRule().check(graph)
        #expect(problems.count == 1)
        guard case .capturesIsolated(let kept, let scope, let actor, let isolated)? = problems.first?.detail else {
            Issue.record("expected capturesIsolated, got \(problems)")
            return
        }
        #expect(kept == key(Presenter.self))
        #expect(scope == "singleton")
        #expect(actor == "MainActor")
        #expect(isolated == key(Screen.self))
        #expect(problems.first?.path == [key(Presenter.self), key(Screen.self)])
    }

    @Test("the path goes through the unscoped values between the kept one and the isolated one")
    func throughUnscopedValues() {
        let graph = ruleGraph { $0.bind(Holder.self).in(.eagerSingleton) }
        let problems = IsolationRule().check(graph)
        #expect(problems.count == 1)
        #expect(problems.first?.path == [key(Holder.self), key(Presenter.self), key(Screen.self)])
    }

    @Test("only the innermost kept value is reported: what holds it holds a shared value")
    func innermostKeptValue() {
        let graph = ruleGraph {
            $0.bind(Outer.self).in(.singleton)
            $0.bind(Holder.self).in(.singleton)
        }
        let problems = IsolationRule().check(graph)
        #expect(problems.map(\.detail.key) == [key(Holder.self)])
    }

    @Test("an unscoped nonisolated value may need a main-actor value")
    func unscopedConsumer() {
        let graph = ruleGraph { $0.bind(Holder.self) }
        #expect(IsolationRule().check(graph).isEmpty)
    }

    @Test("a kept value may reach a main-actor value through a Lazy")
    func deferredEdge() {
        let graph = ruleGraph { $0.bind(LazyHolder.self).in(.singleton) }
        #expect(IsolationRule().check(graph).isEmpty)
    }

    @Test("a main-actor singleton may hold a main-actor value")
    func sameActor() {
        let graph = ruleGraph { $0.bind(Navigator.self).in(.singleton) }
        #expect(IsolationRule().check(graph).isEmpty)
    }

    @Test("a value kept per request that needs a main-actor value is reported too")
    func perRequestScope() {
        let graph = ruleGraph { $0.bind(Presenter.self).in(.perRequest) }
        #expect(IsolationRule().check(graph).first?.detail.kind == .isolationConflict)
    }

    @Test("every node knows the actor it needs: its own, or the one an unscoped dependency needs")
    func neededIsolation() {
        let graph = ruleGraph(roots: [key(Holder.self), key(LazyHolder.self)]) { _ in }
        let needs = IsolationRule.neededIsolation(graph, graph.decidedMeanings)
        func needed(_ key: AnyKey) -> [AnyKey]? { graph.index[key].flatMap { needs[$0]?.1 } }
        #expect(needed(key(Screen.self)) == [key(Screen.self)])
        #expect(needed(key(Holder.self)) == [key(Holder.self), key(Presenter.self), key(Screen.self)])
        #expect(needed(key(LazyHolder.self)) == nil)
    }
}
