/// Reports a value kept longer than a value it holds: a singleton that depends on a per-request
/// or weak key would keep the first value it got for as long as it lives (a captive
/// dependency). A `Factory` builds when asked and keeps nothing, so its edge is never captive (a
/// `Lazy` keeps the first value, so its edge is); an unscoped dependency belongs to its consumer.
/// A child's kept value over a shorter-lived value its parent binds is captive too: the parent's
/// binding says how long that value lives.
struct CaptiveDependencyRule: GraphRule {
    func check(_ input: RuleInput) -> [InjectionError.Problem] {
        let graph = input.graph
        var problems: [InjectionError.Problem] = []
        for index in graph.nodes.indices {
            guard let recipe = graph.nodes[index].recipe else { continue }
            let holder = recipe.scope.strategy.lifetime
            // A dependency is captive when it lives shorter than its holder, yet longer than
            // no time at all: nothing is, under a holder kept for a request or less.
            guard holder > .request else { continue }
            // The dependency is read only for an edge to a shorter-lived value: most edges are not.
            for edge in graph.nodes[index].edges {
                guard let target = edge.target, let held = scope(reachedFrom: target, in: graph, parent: input.parent),
                      held.strategy.lifetime != .none, held.strategy.lifetime < holder else { continue }
                let dependency = graph.dependency(of: edge, from: index)
                guard !(edge.isDeferred && dependency.factoryArguments != nil) else { continue }
                problems.append(InjectionError.Problem(
                    .captiveDependency(key: graph.nodes[index].key, scope: recipe.scope.name,
                                       dependency: graph.nodes[target].key,
                                       dependencyScope: held.name),
                    path: graph.path(to: index) + [graph.nodes[target].key], location: dependency.declaredAt))
            }
        }
        return problems
    }

    /// The scope that keeps a key's values: its own, or for an alias, its target's; for a node
    /// taken from the parent, the parent's binding's.
    private func scope(reachedFrom node: Int, in graph: BindingGraph, parent: GraphCompilation.Parent?) -> Scope? {
        var current = node
        // A walk longer than the graph has nodes went around a cycle: counted rather than
        // remembered, so that no walk allocates.
        for _ in 0...graph.nodes.count {
            guard let recipe = graph.nodes[current].recipe else {
                guard graph.nodes[current].fromParent, let parent else { return nil }
                return scope(ofParentKey: graph.nodes[current].key, parent)
            }
            guard case .alias = recipe.source, recipe.scope == .unscoped,
                  let target = graph.nodes[current].edges.first?.target else { return recipe.scope }
            current = target
        }
        return nil
    }

    /// The scope that keeps the values of `key`, which the parent (or one of its parents)
    /// binds: its binding's, or for an unscoped alias, its target's. A key no parent binds is a
    /// type the parent compiled just in time, which keeps what its declaration says: its
    /// recipe's scope, made once per process (`nil` when its declaration could not be read
    /// here, which its own compile reported).
    private func scope(ofParentKey key: AnyKey, _ parent: GraphCompilation.Parent) -> Scope? {
        var key = key
        var seen: Set<AnyKey> = []
        while seen.insert(key).inserted {
            guard let recipe = parent.recipe(for: key) else {
                guard key.name == nil, let declared = JustInTimeRecipes.recipe(of: key.type),
                      declared.problems.isEmpty else { return nil }
                return declared.scope
            }
            guard case .alias(let target) = recipe.source, recipe.scope == .unscoped else { return recipe.scope }
            key = target
        }
        return nil
    }
}
