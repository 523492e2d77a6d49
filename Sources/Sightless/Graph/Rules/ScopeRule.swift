/// Reports scopes that cannot hold their binding: a singleton whose initializer takes
/// creation-time arguments would keep the values of whichever request came first.
struct ScopeRule: GraphRule {
    func check(_ graph: BindingGraph) -> [InjectionError.Problem] {
        graph.nodes.indices.compactMap { index in
            let node = graph.nodes[index]
            guard let recipe = node.recipe, recipe.scope == .singleton else { return nil }
            let dynamic = graph.dynamicDependencies(of: index)
            guard !dynamic.isEmpty else { return nil }
            return InjectionError.Problem(
                .scopeConflict, key: node.key, path: graph.path(to: index),
                message: "\(node.key) is a singleton, but it takes creation-time arguments (\(dynamic.map { "\($0.role): \($0.key.typeName)" }.joined(separator: ", "))), which would differ from request to request.",
                fix: "Leave \(node.key) unscoped, or make its arguments injected slots.",
                location: recipe.location)
        }
    }
}
