/// Reports every entry point that nothing can build: no binding, no node of a parent's, no
/// ``Injectable`` type, and no `T?`, `Lazy<T>` or `Factory<T, …>` of one. A key declared twice
/// is reported once.
struct EntryPointRule: GraphRule {
    func check(_ input: RuleInput) -> [InjectionError.Problem] {
        var problems: [InjectionError.Problem] = []
        var reported: Set<AnyKey> = []
        for (key, location) in input.recorded.entryPoints
        where input.graph.index[key] == nil && reported.insert(key).inserted {
            problems.append(MissingBindingRule.problem(
                for: key, neededBy: nil, path: [key], location: location, bindings: input.bindings))
        }
        return problems
    }
}
