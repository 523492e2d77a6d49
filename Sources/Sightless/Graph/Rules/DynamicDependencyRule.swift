/// Reports every type with creation-time (`Slot.dynamic`) arguments that is injected as a
/// dependency: nothing could fill those arguments there. An alias may point at such a type,
/// since a request for the alias brings the arguments along.
struct DynamicDependencyRule: GraphRule {
    func check(_ graph: BindingGraph) -> [InjectionError.Problem] {
        var problems: [InjectionError.Problem] = []
        for (index, node) in graph.nodes.enumerated() {
            for edge in node.edges where edge.dependency.role != .target {
                guard let target = edge.target else { continue }
                let dynamic = graph.dynamicDependencies(of: target)
                guard !dynamic.isEmpty else { continue }
                let targetKey = graph.nodes[target].key
                let slots = dynamic.map { "\($0.role): \($0.key.typeName)" }.joined(separator: ", ")
                problems.append(InjectionError.Problem(
                    .dynamicDependency, key: targetKey, path: graph.path(to: index) + [targetKey],
                    message: "\(targetKey) takes creation-time arguments (\(slots)), so it cannot be injected into \(node.key) (\(edge.dependency.role)): nothing there could fill them.",
                    fix: "Inject the Injector into \(node.key) and call getInstance(\(targetKey.typeName).self, arguments: …) where the values are known, or make those arguments injected slots.",
                    location: edge.dependency.location))
            }
        }
        return problems
    }
}
