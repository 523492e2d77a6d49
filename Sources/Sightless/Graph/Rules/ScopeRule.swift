/// Reports scopes that cannot hold their binding: a scope that shares values (a singleton, say)
/// whose initializer takes dynamic arguments would keep the values of whichever request came
/// first; a binding that closes its value at shutdown (`onShutdown`) in a scope that keeps no
/// value until then would never close anything; and so would a ``Closable`` (or
/// ``AsyncClosable``) type the injector builds in such a scope and injects at once into another
/// value it builds: nothing closes it then. A value requested (`getInstance`) or made through a
/// `Lazy` or `Factory` is the caller's to close.
struct ScopeRule: GraphRule {
    func check(_ input: RuleInput) -> [InjectionError.Problem] {
        let graph = input.graph
        var problems: [InjectionError.Problem] = []
        // Whether a value is `Closable` changes the outcome only for a node injected at once:
        // each node is told that first, from one pass over the edges, so that the runtime's
        // conformance lookups (a first one scans every conformance record of the process) are
        // asked only of the types that answer can refuse.
        let injectedAtOnce = Self.injectedAtOnce(in: graph)
        for index in graph.nodes.indices {
            guard let recipe = graph.nodes[index].recipe else {
                if injectedAtOnce[index], let scope = Self.unkeptClosableScope(ofParentNode: index, in: input) {
                    problems.append(InjectionError.Problem(
                        .closableNotKept(key: graph.nodes[index].key, scope: scope), path: graph.path(to: index)))
                }
                continue
            }
            if recipe.scope.strategy.sharesValues, graph.hasDynamicDependencies(index) {
                let dynamic = graph.dynamicDependencies(of: index)
                problems.append(InjectionError.Problem(
                    .scopedWithArguments(key: graph.nodes[index].key, scope: recipe.scope.name,
                                         slots: dynamic.map { .init(role: $0.role, key: $0.key) }),
                    path: graph.path(to: index), location: recipe.location))
            }
            if recipe.closer != nil, recipe.scope.strategy.lifetime < .injector {
                problems.append(InjectionError.Problem(
                    .closerNotKept(key: graph.nodes[index].key, scope: recipe.scope.name),
                    path: graph.path(to: index), location: recipe.location))
            } else if injectedAtOnce[index], Self.buildsUnkeptClosable(recipe) {
                problems.append(InjectionError.Problem(
                    .closableNotKept(key: graph.nodes[index].key, scope: recipe.scope.name),
                    path: graph.path(to: index), location: recipe.location ?? recipe.buildLocation))
            }
        }
        return problems
    }

    /// For a node a parent compiled, which a child's graph holds without its recipe: the name of
    /// its scope when it builds a ``Closable`` or ``AsyncClosable`` value that scope does not
    /// keep until shutdown; `nil` otherwise. A key the parent binds is read from the parent's
    /// binding; any other is a just-in-time type the parent compiled for the family, built
    /// from its type in the scope it declares.
    static func unkeptClosableScope(ofParentNode node: Int, in input: RuleInput) -> String? {
        let vertex = input.graph.nodes[node]
        guard vertex.fromParent, vertex.linkedDynamicDependencies.isEmpty else { return nil }
        if let recipe = input.parent?.recipe(for: vertex.key) {
            return buildsUnkeptClosable(recipe) ? recipe.scope.name : nil
        }
        let type = vertex.key.type
        guard vertex.key.name == nil, isClosable(type),
              let declared = (type as? any Injectable.Type)?.scope, declared.strategy.lifetime < .injector else { return nil }
        return declared.name
    }

    /// For each node, whether a value the injector builds takes its value at once: an edge to
    /// it that is not a `Lazy` or `Factory`. An alias builds no value: what takes the alias at
    /// once takes the value, unless the alias keeps it until shutdown, which closes it. One pass
    /// over the edges, then the aliases that pass on what they take, each once.
    static func injectedAtOnce(in graph: BindingGraph) -> [Bool] {
        var marked = [Bool](repeating: false, count: graph.nodes.count)
        var passing: [Int] = []
        func mark(_ target: Int) {
            guard !marked[target] else { return }
            marked[target] = true
            if let recipe = graph.nodes[target].recipe, case .alias = recipe.source,
               recipe.scope.strategy.lifetime < .injector {
                passing.append(target)
            }
        }
        for vertex in graph.nodes {
            if let recipe = vertex.recipe, case .alias = recipe.source { continue }
            for edge in vertex.edges where !edge.isDeferred {
                if let target = edge.target { mark(target) }
            }
        }
        while let alias = passing.popLast() {
            for edge in graph.nodes[alias].edges where !edge.isDeferred {
                if let target = edge.target { mark(target) }
            }
        }
        return marked
    }

    /// Whether the recipe builds, from a type or an initializer, a ``Closable`` or
    /// ``AsyncClosable`` value that its scope does not keep until shutdown.
    static func buildsUnkeptClosable(_ recipe: Recipe) -> Bool {
        switch recipe.source {
        case .type, .initializer: break
        default: return false
        }
        guard recipe.scope.strategy.lifetime < .injector, let type = recipe.concreteType else { return false }
        return isClosable(type)
    }

    /// Whether `type` is ``Closable`` or ``AsyncClosable``. Both are class-bound: a type that is
    /// not a class is neither, told without a conformance lookup.
    static func isClosable(_ type: Any.Type) -> Bool {
        type is AnyObject.Type && (type is any Closable.Type || type is any AsyncClosable.Type)
    }
}
