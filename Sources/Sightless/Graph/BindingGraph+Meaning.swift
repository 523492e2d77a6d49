// How the graph decides each node's `Meaning`, once, after discovery.

extension BindingGraph {
    /// Decides the meaning of every node; `perChild` is `true` for a template's graph, whose
    /// kept values each child keeps. Linear in the graph: a decision that flows along edges is
    /// spread from the nodes that have it in one walk (a graph may hold cycles, which
    /// `CycleRule` reports).
    func decideMeanings(perChild: Bool) -> [Meaning] {
        var meanings: [Meaning] = []
        meanings.reserveCapacity(nodes.count)
        var anyAwaited = false, anyAlias = false
        for index in nodes.indices {
            // The recipe alone, not a copy of the whole vertex: most nodes have one.
            let reentry: Meaning.Reentry = hasDynamicDependencies(index) ? .recursion : .cycle
            guard let recipe = nodes[index].recipe else {
                var linked = nodes[index].linkedMeaning
                if nodes[index].fromParent && linked.owner != .none { linked.owner = .parent }
                anyAwaited = anyAwaited || linked.awaited != nil
                meanings.append(linked)
                continue
            }
            let strategy = recipe.scope.strategy
            let owner: Meaning.Owner = strategy.lifetime == .none && !strategy.isEager ? .none
                : perChild ? .eachChild : .injector
            let awaited = recipe.isAsync ? nodes[index].key : nil
            anyAwaited = anyAwaited || awaited != nil
            if case .alias = recipe.source { anyAlias = true }
            meanings.append(Meaning(owner: owner, isolation: recipe.isolation, awaited: awaited, reentry: reentry))
        }
        // An alias is built where its target is, through any chain of aliases: found for every
        // alias at once, since passes to a fixed point would take one per alias of a chain.
        if anyAlias {
            let isolatedAt = chainEnds { node in
                if meanings[node].isolation != nil { return .end(node) }
                guard case .alias? = nodes[node].recipe?.source, let target = nodes[node].edges.first?.target else {
                    return .end(nil)
                }
                return .next(target)
            }
            for index in nodes.indices where meanings[index].isolation == nil {
                if let isolated = isolatedAt[index] { meanings[index].isolation = meanings[isolated].isolation }
            }
        }
        // A node needs `await` when a dependency it builds at once does, for the reason of the
        // nearest one. Without one node that needs `await`, none does: no walk over the edges.
        if anyAwaited {
            let awaited = spreadBackward(meanings.map(\.awaited), deferredEdges: false) { _, reason in reason }
            for index in nodes.indices { meanings[index].awaited = awaited[index] }
        }
        decideBuildIsolation(&meanings)
        return meanings
    }

    /// A kept nonisolated value that needs, at once, a value isolated to an actor (and no
    /// `async` build) is first built on that actor: on the main actor when requested there, by
    /// hopping there when awaited. Once built it is shared, as Swift shares a `Sendable` value.
    /// An unscoped one stays nonisolated: it is built where it is requested, and needs the actor
    /// only when its build builds the isolated value (one not kept, or kept and not built yet),
    /// whose own plan looks for the actor, and which an awaiting consumer hops to the actor for.
    private func decideBuildIsolation(_ meanings: inout [Meaning]) {
        guard meanings.contains(where: { $0.isolation != nil }) else { return }
        let needs = neededIsolation(meanings)
        for index in nodes.indices where meanings[index].isolation == nil && meanings[index].awaited == nil {
            guard let recipe = nodes[index].recipe, recipe.scope.strategy.lifetime > .none || recipe.scope.strategy.isEager,
                  let actor = needs.actor(of: index) else { continue }
            meanings[index].isolation = actor
            meanings[index].isolatedForBuild = true
        }
    }
}
