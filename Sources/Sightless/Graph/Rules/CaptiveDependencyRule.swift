/// Reports a value kept longer than a value it holds: a singleton that depends on a per-request
/// or weak key would keep the first value it got for as long as it lives (a captive
/// dependency). A `Factory` builds when asked and keeps nothing, so its edge is never captive (a
/// `Lazy` keeps the first value, so its edge is); an unscoped dependency belongs to its consumer.
struct CaptiveDependencyRule: GraphRule {
    func check(_ graph: BindingGraph) -> [InjectionError.Problem] {
        var problems: [InjectionError.Problem] = []
        for (index, node) in graph.nodes.enumerated() {
            guard let recipe = node.recipe else { continue }
            let holder = recipe.scope.strategy.lifetime
            for edge in node.edges where !(edge.isDeferred && edge.dependency.factoryArguments != nil) {
                guard let target = edge.target, let held = scope(reachedFrom: target, in: graph),
                      held.strategy.lifetime != .none, held.strategy.lifetime < holder else { continue }
                problems.append(InjectionError.Problem(
                    .captiveDependency(key: node.key, scope: recipe.scope.name, dependency: graph.nodes[target].key,
                                       dependencyScope: held.name),
                    path: graph.path(to: index) + [graph.nodes[target].key], location: edge.dependency.declaredAt))
            }
        }
        return problems
    }

    /// The scope that keeps a key's values: its own, or for an alias, its target's.
    private func scope(reachedFrom node: Int, in graph: BindingGraph) -> Scope? {
        var current = node
        var seen: Set<Int> = []
        while seen.insert(current).inserted, let recipe = graph.nodes[current].recipe {
            guard case .alias = recipe.source, recipe.scope == .unscoped,
                  let target = graph.nodes[current].edges.first?.target else { return recipe.scope }
            current = target
        }
        return nil
    }
}
