/// Finds, before anything is built, the values that need `await` where the graph cannot await
/// them: an eager singleton of an injector built synchronously, and a value kept in a scope
/// that keeps only values built synchronously.
///
/// A node needs `await` when its own initializer, closure or provider is `async`, or when a
/// dependency it builds at once (not through a `Lazy` or `Factory`) needs `await`.
struct AwaitRule: GraphRule {
    /// `true` for an injector that awaits its eager values (`Injector.start`).
    var awaitsEagerValues = false

    func check(_ graph: BindingGraph) -> [InjectionError.Problem] {
        let awaited = Self.awaitedKeys(graph)
        var problems: [InjectionError.Problem] = []
        for index in graph.nodes.indices {
            guard let reason = awaited[index], let recipe = graph.nodes[index].recipe else { continue }
            let vertex = graph.nodes[index]
            let strategy = recipe.scope.strategy
            if !(strategy is Unscoped) && !(strategy is Singleton) {
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

    /// For every node, the key whose `async` build makes it need `await`, or `nil`: found by
    /// iterating to a fixed point, since a graph may hold cycles (reported by `CycleRule`).
    static func awaitedKeys(_ graph: BindingGraph) -> [AnyKey?] {
        var awaited: [AnyKey?] = []
        awaited.reserveCapacity(graph.nodes.count)
        var anyAwaited = false
        for index in graph.nodes.indices {
            let reason: AnyKey?
            if let recipe = graph.nodes[index].recipe {
                reason = recipe.isAsync ? graph.nodes[index].key : nil
            } else {
                reason = graph.nodes[index].linkedAwaited
            }
            anyAwaited = anyAwaited || reason != nil
            awaited.append(reason)
        }
        // Without one node that needs `await`, none does: no pass over the edges.
        var changed = anyAwaited
        while changed {
            changed = false
            for index in graph.nodes.indices where awaited[index] == nil {
                for edge in graph.nodes[index].edges where !edge.isDeferred {
                    if let target = edge.target, let reason = awaited[target] {
                        awaited[index] = reason
                        changed = true
                        break
                    }
                }
            }
        }
        return awaited
    }
}
