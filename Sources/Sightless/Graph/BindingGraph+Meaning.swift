// How the graph decides each node's `Meaning`, once, after discovery.

extension BindingGraph {
    /// Decides the meaning of every node; `perChild` is `true` for a template's graph, whose
    /// kept values each child keeps. Linear in the graph, with passes to a fixed point where
    /// a decision flows along edges (a graph may hold cycles, which `CycleRule` reports).
    func decideMeanings(perChild: Bool) -> [Meaning] {
        var meanings: [Meaning] = []
        meanings.reserveCapacity(nodes.count)
        var anyAwaited = false, anyAlias = false
        for index in nodes.indices {
            let vertex = nodes[index]
            let reentry: Meaning.Reentry = hasDynamicDependencies(index) ? .recursion : .cycle
            guard let recipe = vertex.recipe else {
                var linked = vertex.linkedMeaning
                if vertex.fromParent && linked.owner != .none { linked.owner = .parent }
                anyAwaited = anyAwaited || linked.awaited != nil
                meanings.append(linked)
                continue
            }
            let strategy = recipe.scope.strategy
            let owner: Meaning.Owner = strategy.lifetime == .none && !strategy.isEager ? .none
                : perChild ? .eachChild : .injector
            let awaited = recipe.isAsync ? vertex.key : nil
            anyAwaited = anyAwaited || awaited != nil
            if case .alias = recipe.source { anyAlias = true }
            meanings.append(Meaning(owner: owner, isolation: recipe.isolation, awaited: awaited, reentry: reentry))
        }
        // An alias is built where its target is, through any chain of aliases.
        var changed = anyAlias
        while changed {
            changed = false
            for index in nodes.indices where meanings[index].isolation == nil {
                guard case .alias? = nodes[index].recipe?.source, let target = nodes[index].edges.first?.target,
                      let isolation = meanings[target].isolation else { continue }
                meanings[index].isolation = isolation
                changed = true
            }
        }
        // A node needs `await` when a dependency it builds at once does. Without one node that
        // needs `await`, none does: no pass over the edges.
        changed = anyAwaited
        while changed {
            changed = false
            for index in nodes.indices where meanings[index].awaited == nil {
                for edge in nodes[index].edges where !edge.isDeferred {
                    if let target = edge.target, let reason = meanings[target].awaited {
                        meanings[index].awaited = reason
                        changed = true
                        break
                    }
                }
            }
        }
        return meanings
    }
}
