/// Reports every dependency that nothing can fill: no binding, no node compiled before, and no
/// ``Injectable`` type to build just in time. An optional dependency is never missing; it is
/// `nil` instead.
struct MissingBindingRule: GraphRule {
    let bindings: [AnyKey: Recipe]

    func check(_ graph: BindingGraph) -> [InjectionError.Problem] {
        var problems: [InjectionError.Problem] = []
        for (index, node) in graph.nodes.enumerated() {
            for edge in node.edges where edge.target == nil && !edge.dependency.isOptional {
                let dependency = edge.dependency
                let missing = dependency.deferredKey ?? dependency.key
                problems.append(Self.problem(
                    for: missing, neededBy: "\(node.key) (\(dependency.role))",
                    path: graph.path(to: index) + [missing], location: dependency.location,
                    bindings: bindings))
            }
        }
        return problems
    }

    /// The problem for a key nothing provides, with the bindings it may have been meant to be.
    static func problem(
        for key: AnyKey, neededBy consumer: String?, path: [AnyKey], location: SourceLocation?,
        bindings: [AnyKey: Recipe]
    ) -> InjectionError.Problem {
        let nearMisses = bindings.keys
            .filter { ObjectIdentifier($0.type) == ObjectIdentifier(key.type) && $0.name != key.name }
            .map(\.description)
            .sorted()
        var message = "Nothing provides \(key)"
        message += consumer.map { ", needed by \($0)." } ?? "."
        if !nearMisses.isEmpty {
            message += " Bound with the same type: \(nearMisses.joined(separator: ", "))."
        }
        let bindCall = key.name == nil
            ? "binder.bind(\(key.typeName).self).to(…)"
            : "binder.bind(Key<\(key.typeName)>(named: \"\(key.name ?? "")\")).to(…)"
        var fix = "Bind it in a module: \(bindCall)"
        if key.name == nil, !(key.type is any Injectable.Type) {
            fix += ", or make \(key.typeName) conform to Injectable"
        }
        if !nearMisses.isEmpty { fix += ", or ask for one of the keys that are bound" }
        return InjectionError.Problem(.missingBinding, key: key, path: path, message: message, fix: fix + ".",
                                      location: location)
    }
}
