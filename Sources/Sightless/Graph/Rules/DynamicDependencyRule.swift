/// Checks that creation-time (`Slot.dynamic`) arguments can always be filled:
///
/// - a type with dynamic slots injected as a plain dependency (or through `Lazy`) is an error,
///   since nothing there could fill them; a `Factory<T, A…>` can, and an alias may point at such
///   a type, since a request for the alias brings the arguments along;
/// - a `Factory<T, A…>` must pass exactly the types of `T`'s dynamic slots, in order.
struct DynamicDependencyRule: GraphRule {
    func check(_ graph: BindingGraph) -> [InjectionError.Problem] {
        var problems: [InjectionError.Problem] = []
        for (index, node) in graph.nodes.enumerated() {
            for edge in node.edges where edge.dependency.role != .target {
                guard let target = edge.target else { continue }
                let dynamic = graph.dynamicDependencies(of: target)
                let isFactory = edge.isDeferred && edge.dependency.factoryArguments != nil
                guard isFactory || !dynamic.isEmpty else { continue }
                // Only now, with a problem likely: a path costs the depth of the graph.
                let targetKey = graph.nodes[target].key
                let path = graph.path(to: index) + [targetKey]
                let slots = dynamic.map { "\($0.role): \($0.key.typeName)" }.joined(separator: ", ")
                let types = dynamic.map(\.key.typeName).joined(separator: ", ")

                if edge.isDeferred, let passed = edge.dependency.factoryArguments {
                    let expected = dynamic.map { ObjectIdentifier($0.key.type) }
                    guard passed.map(ObjectIdentifier.init) != expected else { continue }
                    let passedNames = passed.map(AnyKey.name(of:)).joined(separator: ", ")
                    problems.append(InjectionError.Problem(
                        .argumentType, key: targetKey, path: path,
                        message: "\(edge.dependency.key) in \(node.key) (\(edge.dependency.role)) makes \(targetKey) from (\(passedNames)), but \(targetKey) takes \(dynamic.isEmpty ? "no creation-time arguments" : "(\(slots))").",
                        fix: dynamic.isEmpty
                            ? "Inject Factory<\(targetKey.typeName)> with no argument types."
                            : "Inject Factory<\(targetKey.typeName), \(types)>: one argument type per dynamic slot, in order.",
                        location: edge.dependency.location))
                    continue
                }
                guard !dynamic.isEmpty else { continue }
                problems.append(InjectionError.Problem(
                    .dynamicDependency, key: targetKey, path: path,
                    message: "\(targetKey) takes creation-time arguments (\(slots)), so it cannot be injected into \(node.key) (\(edge.dependency.role)): nothing there could fill them.",
                    fix: "Inject Factory<\(targetKey.typeName), \(types)> into \(node.key) and call make(…) where the values are known, or resolve it with getInstance(\(targetKey.typeName).self, arguments: …).",
                    location: edge.dependency.location))
            }
        }
        return problems
    }
}
