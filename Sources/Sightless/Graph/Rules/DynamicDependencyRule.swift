/// Checks that dynamic (`Slot.dynamic`) arguments can always be filled:
///
/// - a type with dynamic slots injected as a plain dependency (or through `Lazy`) is an error,
///   since nothing there could fill them; a `Factory<T, A…>` can, and an alias may point at such
///   a type, since a request for the alias brings the arguments along;
/// - a `Factory<T, A…>` must pass exactly the types of `T`'s dynamic slots, in order.
struct DynamicDependencyRule: GraphRule {
    func check(_ graph: BindingGraph) -> [InjectionError.Problem] {
        var problems: [InjectionError.Problem] = []
        for (index, node) in graph.nodes.enumerated() {
            // An alias passes a request's arguments on; a deferred edge (a Factory) is checked.
            for edge in node.edges where edge.dependency.role != .target || edge.isDeferred {
                guard let target = edge.target else { continue }
                let dynamic = graph.dynamicDependencies(of: target)
                let isFactory = edge.isDeferred && edge.dependency.factoryArguments != nil
                guard isFactory || !dynamic.isEmpty else { continue }
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
