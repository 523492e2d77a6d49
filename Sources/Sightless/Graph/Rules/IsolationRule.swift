/// Finds, before anything is built, a value kept by a scope that holds a value isolated to an
/// actor it is not isolated to: a nonisolated singleton that needs a `MainActorInjectable`
/// view model, say. Such a value would be built on the actor for its first request, then
/// shared with every thread, holding something it can use only on that actor.
///
/// A value needs an actor when it is isolated to it, or when it builds at once (not through a
/// `Lazy` or `Factory`) an unscoped nonisolated value that needs it. An unscoped value that
/// needs an actor is fine: it is built there, for one consumer, each time.
struct IsolationRule: GraphRule {
    func check(_ input: RuleInput) -> [InjectionError.Problem] {
        let graph = input.graph
        let meanings = graph.decidedMeanings
        let needs = Self.neededIsolation(graph, meanings)
        var problems: [InjectionError.Problem] = []
        for (index, vertex) in graph.nodes.enumerated() {
            guard let recipe = vertex.recipe, meanings[index].isolation == nil,
                  recipe.scope.strategy.lifetime > .none else { continue }
            // What the kept value holds: through its own dependencies, not its own isolation.
            for edge in vertex.edges where !edge.isDeferred {
                guard let target = edge.target, let (actor, chain) = needs[target] else { continue }
                let path = graph.path(to: index) + chain
                problems.append(InjectionError.Problem(
                    .capturesIsolated(key: vertex.key, scope: recipe.scope.name, actor: actor.name,
                                      isolated: chain.last ?? vertex.key),
                    path: path, location: recipe.location))
                break
            }
        }
        return problems
    }

    /// For every node, the actor its value needs and the keys from it down to the isolated
    /// value (it first, the isolated one last), or `nil`: found by iterating to a fixed point,
    /// since a graph may hold cycles (reported by `CycleRule`).
    static func neededIsolation(_ graph: BindingGraph, _ meanings: [Meaning]) -> [(ActorIsolation, [AnyKey])?] {
        var needs: [(ActorIsolation, [AnyKey])?] = graph.nodes.indices.map { index in
            meanings[index].isolation.map { ($0, [graph.nodes[index].key]) }
        }
        var changed = true
        while changed {
            changed = false
            for index in graph.nodes.indices where needs[index] == nil {
                // A kept value is reported itself; what holds it holds a shared value.
                if let recipe = graph.nodes[index].recipe, recipe.scope.strategy.lifetime > .none { continue }
                for edge in graph.nodes[index].edges where !edge.isDeferred {
                    if let target = edge.target, let (actor, chain) = needs[target] {
                        needs[index] = (actor, [graph.nodes[index].key] + chain)
                        changed = true
                        break
                    }
                }
            }
        }
        return needs
    }
}
