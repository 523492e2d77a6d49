/// Reports scopes that cannot hold their binding: a scope that shares values (a singleton, say)
/// whose initializer takes dynamic arguments would keep the values of whichever request came
/// first; a binding that closes its value at shutdown (`onShutdown`) in a scope that keeps no
/// value until then would never close anything.
struct ScopeRule: GraphRule {
    func check(_ input: RuleInput) -> [InjectionError.Problem] {
        let graph = input.graph
        var problems: [InjectionError.Problem] = []
        for index in graph.nodes.indices {
            guard let recipe = graph.nodes[index].recipe else { continue }
            if recipe.scope.strategy.sharesValues, graph.hasDynamicDependencies(index) {
                let dynamic = graph.dynamicDependencies(of: index)
                problems.append(InjectionError.Problem(
                    .scopedWithArguments(key: graph.nodes[index].key, scope: recipe.scope.name,
                                         slots: dynamic.map { .init(role: $0.role, key: $0.key) }),
                    path: graph.path(to: index), location: recipe.location))
            }
            if recipe.closer != nil, recipe.scope.strategy.lifetime < .injector {
                problems.append(InjectionError.Problem(
                    .closerNotKept(key: graph.nodes[index].key, scope: recipe.scope.name),
                    path: graph.path(to: index), location: recipe.location))
            }
        }
        return problems
    }
}
