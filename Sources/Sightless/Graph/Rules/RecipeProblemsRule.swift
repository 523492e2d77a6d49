/// Reports the mistakes found while bindings were recorded: a binding left without a target,
/// an initializer that builds another type, a subclass's property declared on its superclass.
struct RecipeProblemsRule: GraphRule {
    func check(_ graph: BindingGraph) -> [InjectionError.Problem] {
        graph.nodes.indices.flatMap { node in
            (graph.nodes[node].recipe?.problems ?? []).map { problem in
                var problem = problem
                if problem.path.isEmpty { problem.path = graph.path(to: node) }
                return problem
            }
        }
    }
}
