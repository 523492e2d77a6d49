extension Injector {
    /// The graph the injector compiled when it was built, written in a format.
    ///
    /// Each node shows its key, its scope and how it is built (`instance`, `closure`,
    /// `provider`, `alias`, `initializer`, `type`, `just-in-time type`); each edge, the argument
    /// or property it fills. Nodes are sorted by key and edges keep declaration order, so the
    /// same modules always give the same text.
    ///
    /// ```swift
    /// let injector = try Injector(modules: [AppModule()])
    /// try injector.exportGraph(as: .dot).write(to: "graph.dot")   // then: dot -Tsvg graph.dot
    /// print(injector.exportGraph(as: .text))
    /// // Api — singleton, alias, kept by this injector
    /// //   bound to → HttpApi
    /// // HttpApi — unscoped, just-in-time type
    /// //   argument 1 → String(named: "endpoint")
    /// // String(named: "endpoint") — unscoped, instance
    /// ```
    ///
    /// The export holds every bound key and every type they reach, as compiled when the
    /// injector was built. Types compiled later, on their first request, are left out, so the
    /// export does not depend on what has been requested so far; bind a type (`binder.bind(
    /// Screen.self)`) to draw it, or ask ``explain(_:)-(AnyKey)`` about it. Closure and provider
    /// bindings have no edges: what they resolve is only known when they run.
    ///
    /// Two distinct types of the graph that would read alike (an `API.PackageController` and a
    /// web `PackageController`) are both written with their module and namespace.
    public func exportGraph(as format: GraphFormat) -> String {
        let graph = graphCompilation?.graph ?? BindingGraph()
        return AnyKey.naming(graph.nodes.map(\.key)) {
            let exported = ExportedGraph(graph, decorators: graphCompilation?.composition.decorators ?? [:],
                                         autoWired: graphCompilation?.composition.autoWired ?? [])
            switch format {
            case .dot: return DotExporter().export(exported)
            case .mermaid: return MermaidExporter().export(exported)
            case .text: return TextExporter().export(exported)
            }
        }
    }

    /// The keys of the compiled graph, in the order the exports list them.
    ///
    /// ```swift
    /// let key = injector.graphKeys.first { $0.typeName == "FeedScreen" }
    /// ```
    public var graphKeys: [AnyKey] {
        ExportedGraph(graphCompilation?.graph ?? BindingGraph(), decorators: graphCompilation?.composition.decorators ?? [:],
                                     autoWired: graphCompilation?.composition.autoWired ?? []).nodes.map(\.key)
    }

    /// What building a type takes, as an indented tree: its binding, then each argument and
    /// property with the binding that fills it, down to the leaves. Two distinct types that
    /// would read alike are written with their module and namespace, as in ``exportGraph(as:)``.
    ///
    /// ```swift
    /// print(try injector.explain(FeedScreen.self))
    /// // FeedScreen — unscoped, just-in-time type, dynamic: String
    /// // ├─ argument 1 → Api — singleton, alias, kept by this injector
    /// // │  └─ bound to → HttpApi — unscoped, just-in-time type
    /// // │     └─ argument 1 → String(named: "endpoint") — unscoped, instance
    /// // └─ property \FeedScreen.logger (optional) → Logger — singleton, type, kept by this injector
    /// ```
    ///
    /// - Throws: ``InjectionError/Kind/missingBinding`` when nothing can build the type.
    public func explain<Value>(_ type: Value.Type) throws(InjectionError) -> String {
        try explain(Key<Value>().erased)
    }

    /// What building the value of a key takes, as an indented tree.
    ///
    /// ```swift
    /// print(try injector.explain(Key<String>(named: "endpoint")))
    /// // String(named: "endpoint") — unscoped, instance
    /// ```
    public func explain<Value>(_ key: Key<Value>) throws(InjectionError) -> String {
        try explain(key.erased)
    }

    /// What building the value of a key takes, as an indented tree; for a key found in
    /// ``graphKeys``.
    ///
    /// A key outside the compiled graph, such as an ``Injectable`` type never bound, is
    /// discovered for the explanation without building or compiling anything, and a
    /// dependency that nothing fills is shown as `missing`.
    ///
    /// ```swift
    /// if let key = injector.graphKeys.first(where: { $0.typeName == "FeedScreen" }) {
    ///     print(try injector.explain(key))
    /// }
    /// ```
    public func explain(_ key: AnyKey) throws(InjectionError) -> String {
        let graph = graphCompilation?.graph ?? BindingGraph()
        let explained = AnyKey.naming(graph.nodes.map(\.key)) {
            Result { () throws(InjectionError) -> String in try explanation(of: key, in: graph) }
        }
        return try explained.get()
    }

    /// The explanation of `key`, from the compiled `graph`, or from what it reaches beyond it.
    /// In a child, a key its parent provides — one the parent binds, or a just-in-time type
    /// that needs nothing of the child's own, which the family shares — is explained by the
    /// parent, and marked as the parent's.
    private func explanation(of key: AnyKey, in graph: BindingGraph) throws(InjectionError) -> String {
        let compilation = graphCompilation
        let decorators = compilation?.composition.decorators ?? [:]
        let autoWired = compilation?.composition.autoWired ?? []
        let base = ExportedGraph(graph, decorators: decorators, autoWired: autoWired)
        if let root = base.index[key] {
            if base.nodes[root].isParents, let parent { return try parent.explainedForChild(key) }
            return ExplainExporter().explain(root, in: base)
        }
        var bindings: [AnyKey: Recipe] = [:]
        for node in graph.nodes {
            if let recipe = node.recipe, case .type(justInTime: true) = recipe.source { continue }
            if let recipe = node.recipe { bindings[node.key] = recipe }
        }
        let injector = Recipe.injector()
        bindings[injector.key] = bindings[injector.key] ?? injector
        // A key the parent binds is found there, as a child's compile finds it.
        var compiler = GraphCompiler(bindings: bindings, perChild: compilation?.isTemplate ?? false,
                                     existing: { key in compilation?.inherited(key) }, inherited: { _ in true })
        compiler.contextual = compilation?.composition.contextual ?? [:]
        guard let rootIndex = compiler.addRoot(key) else {
            throw InjectionError(MissingBindingRule.problem(
                for: key, neededBy: nil, path: [key], location: nil, bindings: bindings,
                templates: compilation?.templatesInFamily ?? []))
        }
        compiler.decide()
        var discoveredGraph = compiler.graph
        if let compilation, compilation.parent != nil {
            for shared in discoveredGraph.justInTimeKeysNotReaching(bindings, isOwn: compilation.isOwn) {
                if let index = discoveredGraph.index[shared] { discoveredGraph.markFromParent(index) }
            }
        }
        if discoveredGraph.nodes[rootIndex].fromParent, let parent { return try parent.explainedForChild(key) }
        return try AnyKey.naming(discoveredGraph.nodes.map(\.key)) {
            Result { () throws(InjectionError) -> String in
                let discovered = ExportedGraph(discoveredGraph, decorators: decorators, autoWired: autoWired)
                guard let root = discovered.index[key] else {
                    throw InjectionError(.internalInconsistency(.notLinked(key: key)), path: [key])
                }
                return ExplainExporter().explain(root, in: discovered)
            }
        }.get()
    }

    /// This injector's explanation of `key`, which a child takes from it, its first line marked
    /// as the parent's: `Store — parent's (singleton, just-in-time type, kept by this injector)`.
    /// Marked once, however many injectors up the key is found, as the export marks every
    /// ancestor's key `parent's`.
    private func explainedForChild(_ key: AnyKey) throws(InjectionError) -> String {
        let text = try explain(key)
        let firstLine = text.prefix { $0 != "\n" }
        let rest = text.dropFirst(firstLine.count)
        guard let separator = firstLine.firstRange(of: " — ") else { return text }
        let name = firstLine[..<separator.upperBound], summary = firstLine[separator.upperBound...]
        if summary.hasPrefix("parent's (") { return text }
        return String(name) + "parent's (" + String(summary) + ")" + String(rest)
    }
}
