/// Reports scopes that cannot hold their binding: a scope that shares values (a singleton, say)
/// whose initializer takes dynamic arguments would keep the values of whichever request came
/// first.
struct ScopeRule: GraphRule {
    func check(_ input: RuleInput) -> [InjectionError.Problem] {
        let graph = input.graph
        return graph.nodes.indices.compactMap { index in
            guard let recipe = graph.nodes[index].recipe, recipe.scope.strategy.sharesValues,
                  graph.hasDynamicDependencies(index) else { return nil }
            let dynamic = graph.dynamicDependencies(of: index)
            return InjectionError.Problem(
                .scopedWithArguments(key: graph.nodes[index].key, scope: recipe.scope.name,
                                     slots: dynamic.map { .init(role: $0.role, key: $0.key) }),
                path: graph.path(to: index), location: recipe.location)
        }
    }
}
