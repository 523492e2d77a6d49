/// Reports an alias whose target builds values that are not of the alias's type:
/// `bind(Pet.self).to(Cat.self)` where `Cat` is not a `Pet`, or `Key<Int>` bound to a
/// `Key<String>`. The target's type is known before anything is built when the alias leads
/// (through other aliases) to an ``Injectable`` type or an instance; a closure's or provider's
/// values are checked when they are built.
struct TypeMismatchRule: GraphRule {
    func check(_ input: RuleInput) -> [InjectionError.Problem] {
        let graph = input.graph
        return graph.nodes.indices.compactMap { index in
            guard let recipe = graph.nodes[index].recipe, case .alias(let targetKey) = recipe.source,
                  let concrete = concreteType(reachedFrom: index, in: graph),
                  !recipe.accepts(concrete) else { return nil }
            return InjectionError.Problem(
                .aliasTarget(key: graph.nodes[index].key, target: targetKey, actual: AnyKey(type: concrete, name: nil)),
                path: graph.path(to: index), location: recipe.location)
        }
    }

    /// The concrete type of the values an alias ends up with, when it is known.
    private func concreteType(reachedFrom alias: Int, in graph: BindingGraph) -> Any.Type? {
        var current = alias
        // A walk longer than the graph has nodes went around a cycle: counted rather than
        // remembered, so that no walk allocates.
        for _ in 0...graph.nodes.count {
            guard let edge = graph.nodes[current].edges.first, !edge.throughWrapped,
                  let target = edge.target, let recipe = graph.nodes[target].recipe else { return nil }
            if case .alias = recipe.source {
                current = target
                continue
            }
            return recipe.concreteType
        }
        return nil
    }
}
