/// Checks that dynamic (`Slot.dynamic`) arguments can always be filled:
///
/// - a type with dynamic slots injected as a plain dependency (or through `Lazy`) is an error,
///   since nothing there could fill them; a `Factory<T, A…>` can, and an alias may point at such
///   a type, since a request for the alias brings the arguments along;
/// - a `Factory<T, A…>` must pass exactly the types of `T`'s dynamic slots, in order.
struct DynamicDependencyRule: GraphRule {
    func check(_ graph: BindingGraph) -> [InjectionError.Problem] {
        var problems: [InjectionError.Problem] = []
        for index in graph.nodes.indices {
            let edges = graph.nodes[index].edges
            // An alias passes a request's arguments on; a deferred edge (a Factory) is checked.
            for edge in edges.indices where edges[edge].dependency.role != .target || edges[edge].isDeferred {
                guard let target = edges[edge].target else { continue }
                let isFactory = edges[edge].isDeferred && edges[edge].dependency.factoryArguments != nil
                // Most edges lead to a node without dynamic arguments: told without listing them.
                guard isFactory || graph.hasDynamicDependencies(target) else { continue }
                let edge = edges[edge]
                let node = graph.nodes[index]
                let dynamic = graph.dynamicDependencies(of: target)
                // Only now, with a problem likely: a path costs the depth of the graph.
                let targetKey = graph.nodes[target].key
                let path = graph.path(to: index) + [targetKey]
                let slots = dynamic.map { InjectionError.Problem.Slot(role: $0.role, key: $0.key) }
                let consumer = InjectionError.Problem.Consumer(key: node.key, role: edge.dependency.role)

                if edge.isDeferred, let passed = edge.dependency.factoryArguments {
                    let expected = dynamic.map { ObjectIdentifier($0.key.type) }
                    guard passed.map(ObjectIdentifier.init) != expected else { continue }
                    problems.append(InjectionError.Problem(
                        .factoryArguments(factory: edge.dependency.key, consumer: consumer, target: targetKey,
                                          passed: passed.map(AnyKey.name(of:)), slots: slots),
                        path: path, location: edge.dependency.declaredAt))
                    continue
                }
                guard !dynamic.isEmpty else { continue }
                problems.append(InjectionError.Problem(
                    .creationTimeArgumentsInjected(target: targetKey, consumer: consumer, slots: slots),
                    path: path, location: edge.dependency.declaredAt))
            }
        }
        return problems
    }
}
