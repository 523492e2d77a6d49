/// Checks that dynamic (`Slot.dynamic`) arguments can always be filled:
///
/// - a type with dynamic slots injected as a plain dependency (or through `Lazy`) is an error,
///   since nothing there could fill them; a `Factory<T, A…>` can, and an alias may point at such
///   a type, since a request for the alias brings the arguments along;
/// - a `Factory<T, A…>` must pass exactly the types of `T`'s dynamic slots, in order.
struct DynamicDependencyRule: GraphRule {
    func check(_ input: RuleInput) -> [InjectionError.Problem] {
        let graph = input.graph
        var problems: [InjectionError.Problem] = []
        for index in graph.nodes.indices {
            let edges = graph.nodes[index].edges
            let dependencies = graph.nodes[index].dependencies
            for edge in edges {
                // An alias passes a request's arguments on; a deferred edge (a Factory) is checked.
                guard let target = edge.target,
                      !dependencies[edge.dependencyIndex].isTarget || edge.isDeferred else { continue }
                let isFactory = edge.isDeferred && dependencies[edge.dependencyIndex].factoryArguments != nil
                // Most edges lead to a node without dynamic arguments: told without listing them.
                guard isFactory || graph.hasDynamicDependencies(target) else { continue }
                let dependency = dependencies[edge.dependencyIndex]
                let dynamic = graph.dynamicDependencies(of: target)
                let targetKey = graph.nodes[target].key
                // Only for a problem: a path costs a pass over the graph.
                let path = { graph.path(to: index) + [targetKey] }
                let slots = dynamic.map { InjectionError.Problem.Slot(role: $0.role, key: $0.key) }
                let consumer = InjectionError.Problem.Consumer(key: graph.nodes[index].key, role: dependency.role)

                if edge.isDeferred, let passed = dependency.factoryArguments {
                    let expected = dynamic.map { ObjectIdentifier($0.key.type) }
                    guard passed.map(ObjectIdentifier.init) != expected else { continue }
                    problems.append(InjectionError.Problem(
                        .factoryArguments(factory: dependency.key, consumer: consumer, target: targetKey,
                                          passed: passed.map { AnyKey(type: $0, name: nil) }, slots: slots),
                        path: path(), location: dependency.declaredAt))
                    continue
                }
                guard !dynamic.isEmpty else { continue }
                problems.append(InjectionError.Problem(
                    .creationTimeArgumentsInjected(target: targetKey, consumer: consumer, slots: slots),
                    path: path(), location: dependency.declaredAt))
            }
        }
        return problems
    }
}
