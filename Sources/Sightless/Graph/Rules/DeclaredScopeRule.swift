/// Reports a type that declares its own kept scope (`static var scope: Scope { .singleton }`)
/// and that a child injector would keep for itself: reached through a child, it needs a value
/// the child binds or is made with (a template's `User`, say), so it cannot be the family's
/// one, and each child would keep its own, one "singleton" per request. What a type declares
/// is what it gets, or this error, which names the value that makes it the child's. A type
/// declared per request is every request's own, a child's as much as the root's, and passes.
///
/// A type the child's own modules bind is the child's by that declaration, and a type the
/// child only decorates or gives contextual bindings to stays the child's as documented: only
/// what it needs counts.
struct DeclaredScopeRule: GraphRule {
    func check(_ input: RuleInput) -> [InjectionError.Problem] {
        guard input.isChild else { return [] }
        let graph = input.graph
        var problems: [InjectionError.Problem] = []
        for index in graph.nodes.indices {
            guard let recipe = graph.nodes[index].recipe, case .type(justInTime: true) = recipe.source,
                  Self.isShared(recipe.scope.strategy),
                  let chain = shortestChain(from: index, in: graph, to: { key in
                      key != Recipe.injectorKey && input.bindings[key] != nil
                  }),
                  let needed = chain.last, let binding = input.bindings[needed.key] else { continue }
            let provided: Bool = if case .provided = binding.source { true } else { false }
            problems.append(InjectionError.Problem(
                .keptByEachChild(key: graph.nodes[index].key, scope: recipe.scope.name, needs: needed.key,
                                 provided: provided),
                path: graph.path(to: index) + chain.dropFirst().map(\.key), location: binding.location))
        }
        return problems
    }

    /// Whether a scope gives one value to more than one request of the family: what a child
    /// cannot have. A value kept for one request only (``Scope/perRequest``) is each request's,
    /// whichever injector's request it is, so it may need what a child binds or is made with.
    private static func isShared(_ strategy: any ScopeStrategy) -> Bool {
        strategy.lifetime > .request || strategy.isEager
    }

    /// The nodes from `start` (first) to the nearest one whose key `isTarget` accepts (last),
    /// over every edge, deferred ones too: a `Lazy` of the child's value is the child's too.
    private func shortestChain(
        from start: Int, in graph: BindingGraph, to isTarget: (AnyKey) -> Bool
    ) -> [(index: Int, key: AnyKey)]? {
        var previous: [Int: Int] = [start: start]
        var queue = [start]
        var head = 0
        while head < queue.count {
            let current = queue[head]
            head += 1
            for edge in graph.nodes[current].edges {
                guard let target = edge.target, previous[target] == nil else { continue }
                previous[target] = current
                if isTarget(graph.nodes[target].key) {
                    var chain = [(index: target, key: graph.nodes[target].key)]
                    var step = current
                    while step != start {
                        chain.append((step, graph.nodes[step].key))
                        step = previous[step] ?? start
                    }
                    chain.append((start, graph.nodes[start].key))
                    return chain.reversed()
                }
                queue.append(target)
            }
        }
        return nil
    }
}
