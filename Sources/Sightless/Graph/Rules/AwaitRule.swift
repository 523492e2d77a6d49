/// Finds, before anything is built, the values that need `await` where the graph cannot await
/// them: an eager singleton of an injector built synchronously, and a value kept in a scope
/// that keeps only values built synchronously.
///
/// A node needs `await` when its own initializer, closure or provider is `async`, or when a
/// dependency it builds at once (not through a `Lazy` or `Factory`) needs `await`.
struct AwaitRule: GraphRule {
    func check(_ input: RuleInput) -> [InjectionError.Problem] {
        // `true` for an injector that awaits its eager values (`Injector.start`).
        let graph = input.graph, awaitsEagerValues = input.awaitsEagerValues
        let meanings = graph.decidedMeanings
        var problems: [InjectionError.Problem] = []
        for index in graph.nodes.indices {
            guard let reason = meanings[index].awaited, let recipe = graph.nodes[index].recipe else { continue }
            let vertex = graph.nodes[index]
            let strategy = recipe.scope.strategy
            if strategy.awaitedScoping == .unsupported {
                problems.append(InjectionError.Problem(
                    .awaitedInScope(key: vertex.key, scope: recipe.scope.name, awaited: reason),
                    path: graph.path(to: index), location: recipe.location))
            } else if strategy.isEager && !awaitsEagerValues {
                problems.append(InjectionError.Problem(
                    .needsAwait(key: vertex.key, awaited: reason), path: graph.path(to: index), location: recipe.location))
            }
        }
        return problems
    }
}
