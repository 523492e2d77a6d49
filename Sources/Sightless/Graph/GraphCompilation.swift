/// The recorded bindings of an injector and the graph compiled from them when it was built:
/// what compiles keys first requested later, and what the exporters draw.
final class GraphCompilation: Compilation {
    let bindings: [AnyKey: Recipe]
    let graph: BindingGraph
    /// The nodes of eager scopes, dependencies first: built when the injector is.
    let eager: [AnyNode]

    private init(bindings: [AnyKey: Recipe], graph: BindingGraph, eager: [AnyNode]) {
        self.bindings = bindings
        self.graph = graph
        self.eager = eager
    }

    /// Records the modules' bindings, merges them with the overrides, then compiles, validates
    /// and links the whole graph; every problem is reported together.
    static func build(modules: [any Module], overrides: [any Module]) throws(InjectionError) -> (NodeTable, GraphCompilation) {
        let moduleBinder = Binder()
        for module in modules { module.configure(moduleBinder) }
        let overrideBinder = Binder()
        for module in overrides { module.configure(overrideBinder) }

        let merged = DuplicateBindingRule().merge(
            modules: moduleBinder.recipes, overrides: overrideBinder.recipes, builtIn: [.injector()])
        var compiler = GraphCompiler(bindings: merged.bindings)
        for key in merged.order { compiler.addRoot(key) }
        var unbuildable: [InjectionError.Problem] = []
        var reported: Set<AnyKey> = []
        for (key, location) in moduleBinder.entryPointKeys + overrideBinder.entryPointKeys
        where compiler.addRoot(key) == nil && reported.insert(key).inserted {
            unbuildable.append(MissingBindingRule.problem(
                for: key, neededBy: nil, path: [key], location: location, bindings: merged.bindings))
        }
        if let error = InjectionError(problems: merged.problems + unbuildable + compiler.validate()) {
            throw error
        }
        let linked = try compiler.link()
        let nodes = NodeTable(base: linked.nodes, linkOrder: linked.order)
        let eagerKeys = Set(compiler.graph.nodes.compactMap { node in
            node.recipe?.scope.strategy.isEager == true ? node.key : nil
        })
        let eager = linked.order.filter { eagerKeys.contains($0.key) }
        return (nodes, GraphCompilation(bindings: merged.bindings, graph: compiler.graph, eager: eager))
    }

    func compile(_ key: AnyKey, into nodes: NodeTable) throws(InjectionError) -> AnyNode {
        let bindings = bindings
        return try nodes.compileOnce { (lookup) throws(InjectionError) -> (AnyNode, [AnyKey: AnyNode]) in
            if let node = lookup(key) { return (node, [:]) }
            var compiler = GraphCompiler(bindings: bindings, existing: lookup)
            if compiler.addRoot(key) == nil {
                throw InjectionError(MissingBindingRule.problem(
                    for: key, neededBy: nil, path: [key], location: nil, bindings: bindings))
            }
            if let error = InjectionError(problems: compiler.validate()) { throw error }
            let added = try compiler.link().nodes
            guard let node = added[key] ?? lookup(key) else {
                throw InjectionError(.internalInconsistency(.notLinked(key: key)), path: [key])
            }
            return (node, added)
        }
    }
}

extension Injector {
    /// The bindings and graph this injector was built from.
    var graphCompilation: GraphCompilation? { compilation as? GraphCompilation }
}
