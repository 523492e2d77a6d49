/// Reports an alias whose target builds values that are not of the alias's type:
/// `bind(Pet.self).to(Cat.self)` where `Cat` is not a `Pet`, or `Key<Int>` bound to a
/// `Key<String>`. The target's type is known before anything is built when the alias leads
/// (through other aliases) to an ``Injectable`` type or an instance; a closure's or provider's
/// values are checked when they are built.
struct TypeMismatchRule: GraphRule {
    func check(_ input: RuleInput) -> [InjectionError.Problem] {
        let graph = input.graph
        guard graph.nodes.indices.contains(where: { Self.isAlias(graph.nodes[$0].recipe) }) else { return [] }
        // The node each alias's values come from, found for every alias at once: walked from
        // each alias, a chain of aliases, each bound to the next, would cost the square of its
        // length.
        let built = graph.chainEnds { node in Self.step(from: node, in: graph) }
        return graph.nodes.indices.compactMap { index in
            guard let recipe = graph.nodes[index].recipe, case .alias(let targetKey) = recipe.source,
                  let origin = built[index], let concrete = graph.nodes[origin].recipe?.concreteType,
                  !recipe.accepts(concrete, instance: graph.nodes[origin].recipe?.concreteInstance?.value) else { return nil }
            return InjectionError.Problem(
                .aliasTarget(key: graph.nodes[index].key, target: targetKey, actual: AnyKey(type: concrete, name: nil)),
                path: graph.path(to: index), location: recipe.location)
        }
    }

    private static func isAlias(_ recipe: Recipe?) -> Bool {
        if case .alias? = recipe?.source { return true }
        return false
    }

    /// One step from an alias towards the node that builds its values: its target, or, when the
    /// target is an alias too, on to it. A node that is no alias, or whose target is not known
    /// (reached through an optional, or a node compiled before), leads nowhere.
    private static func step(from node: Int, in graph: BindingGraph) -> BindingGraph.ChainStep {
        guard isAlias(graph.nodes[node].recipe), let edge = graph.nodes[node].edges.first, !edge.throughWrapped,
              let target = edge.target, let recipe = graph.nodes[target].recipe else { return .end(nil) }
        return isAlias(recipe) ? .next(target) : .end(target)
    }
}
