/// Reports every contextual binding that serves no edge: its consumer does not depend on the
/// key (a wrong consumer, or a key of another name or type), so the binding changes nothing.
struct UnusedContextualBindingRule: GraphRule {
    func check(_ input: RuleInput) -> [InjectionError.Problem] {
        let graph = input.graph
        return input.recorded.contextualBindings.compactMap { binding in
            if let consumer = graph.index[binding.consumer], let serving = graph.index[binding.serving],
               graph.nodes[consumer].edges.contains(where: { $0.target == serving }) {
                return nil
            }
            return InjectionError.Problem(
                .unusedContextualBinding(key: binding.key, consumer: binding.consumer, location: binding.location),
                path: [binding.consumer, binding.key], location: binding.location)
        }
    }
}
