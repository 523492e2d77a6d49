/// Reports the mistakes found while bindings were recorded: a binding left without a target,
/// an initializer that builds another type, a subclass's property declared on its superclass.
struct RecipeProblemsRule: GraphRule {
    func check(_ input: RuleInput) -> [InjectionError.Problem] {
        let graph = input.graph
        var problems: [InjectionError.Problem] = []
        for node in graph.nodes.indices {
            guard let recorded = graph.nodes[node].recipe?.problems, !recorded.isEmpty else { continue }
            for problem in recorded {
                var problem = problem
                if problem.path.isEmpty { problem.path = graph.path(to: node) }
                problems.append(problem)
            }
        }
        return problems
    }
}
