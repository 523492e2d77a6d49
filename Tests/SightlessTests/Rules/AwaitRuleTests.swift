@testable import Sightless
import Testing

private final class Secret: Injectable {
    init() async {}
    static let initializer = Initializer(Secret.init)
}

private final class Client: Injectable {
    init(secret: Secret) {}
    static let initializer = Initializer(Client.init(secret:))
}

private final class LazyClient: Injectable {
    init(secret: Lazy<Secret>) {}
    static let initializer = Initializer(LazyClient.init(secret:))
}

private final class ChainLink {}

@Suite("Rule: await")
struct AwaitRuleTests {
    @Test("an eager singleton that needs await is reported, with the key that makes it so, when eager values are built synchronously")
    func eagerNeedsAwait() {
        let graph = ruleGraph { $0.bind(Client.self).in(.eagerSingleton) }
        let problems = AwaitRule().check(graph)
        guard case .needsAwait(let key, let awaited)? = problems.first?.detail else {
            Issue.record("expected needsAwait, got \(problems)")
            return
        }
        #expect(problems.count == 1)
        #expect(key == Key<Client>().erased)
        #expect(awaited == Key<Secret>().erased)
        #expect(problems.first?.path == [Key<Client>().erased])
    }

    @Test("an eager singleton that needs await is no problem when eager values are awaited")
    func eagerAwaited() {
        let graph = ruleGraph { $0.bind(Client.self).in(.eagerSingleton) }
        #expect(AwaitRule().check(RuleInput(graph: graph, awaitsEagerValues: true)).isEmpty)
    }

    @Test("a value that needs await in a scope that builds synchronously is reported with its path")
    func awaitedInWeakScope() {
        let graph = ruleGraph { binder in
            binder.bind(Client.self)
            binder.bind(Secret.self).in(.perRequest)
        }
        let problems = AwaitRule().check(graph)
        guard case .awaitedInScope(let key, let scope, let awaited)? = problems.first?.detail else {
            Issue.record("expected awaitedInScope, got \(problems)")
            return
        }
        #expect(problems.count == 1)
        #expect(key == Key<Secret>().erased)
        #expect(scope == "per request")
        #expect(awaited == Key<Secret>().erased)
    }

    @Test("need of await spreads through initializer edges, not through a Lazy")
    func spreadsThroughDirectEdgesOnly() {
        let graph = ruleGraph { binder in
            binder.bind(Client.self)
            binder.bind(LazyClient.self)
        }
        let awaited = graph.decidedMeanings.map(\.awaited)
        let byKey = Dictionary(uniqueKeysWithValues: zip(graph.nodes.map(\.key), awaited))
        #expect(byKey[Key<Secret>().erased] == .some(Key<Secret>().erased))
        #expect(byKey[Key<Client>().erased] == .some(Key<Secret>().erased))
        #expect(byKey[Key<LazyClient>().erased] == .some(nil))
    }

    @Test("need of await spreads to the start of a chain whose keys were bound needed-last")
    func spreadsAlongReversedChain() {
        // Bound from the consumer end: each key's node is found before the key it needs.
        let graph = ruleGraph { binder in
            for index in (1..<50).reversed() {
                binder.bind(Key<ChainLink>(named: String(index)))
                    .to(Initializer({ (_: ChainLink) in ChainLink() }, .named(String(index - 1))))
            }
            binder.bind(Key<ChainLink>(named: "0")).to(Initializer { (_: Secret) in ChainLink() })
        }
        let awaited = graph.decidedMeanings.map(\.awaited)
        let byKey = Dictionary(uniqueKeysWithValues: zip(graph.nodes.map(\.key), awaited))
        #expect((0..<50).allSatisfy { byKey[Key<ChainLink>(named: String($0)).erased] == .some(Key<Secret>().erased) })
    }

    @Test("a synchronous graph has nothing that needs await")
    func synchronousGraph() {
        let graph = ruleGraph { $0.bind(Garage.self).in(.eagerSingleton) }
        #expect(AwaitRule().check(graph).isEmpty)
        #expect(graph.decidedMeanings.map(\.awaited).allSatisfy { $0 == nil })
    }
}
