/// The recorded bindings of an injector and the graph compiled from them when it was built:
/// what compiles keys first requested later, and what the exporters draw.
final class GraphCompilation: Compilation {
    let bindings: [AnyKey: Recipe]
    let graph: BindingGraph
    /// The nodes of eager scopes, in the order they are bound (then the types that declare the
    /// scope, in the order they were found): built when the injector is, each after its
    /// dependencies.
    let eager: [AnyNode]
    /// For a child injector, where its parent's nodes are found.
    let parent: Parent?
    let owner: CompilationOwner
    /// `true` for a child template's graph, whose nodes every child made from it shares.
    let isTemplate: Bool
    /// What the modules recorded beyond bindings: decorators, observers, contextual bindings,
    /// contributions and candidates.
    let composition: Composition
    /// The consumers of the contextual bindings this injector's own modules record.
    let ownConsumers: Set<AnyKey>
    /// The child templates declared from this injector, which its errors name.
    let templates = DeclaredTemplates()

    /// The templates declared from this injector and from each of its parents, nearest first:
    /// where a key missing here may be provided or bound.
    var templatesInFamily: [DeclaredTemplates] {
        [templates] + (parent?.compilation.templatesInFamily ?? [])
    }

    /// A parent injector's compiled nodes, as a child sees them.
    struct Parent: Sendable {
        let nodes: NodeTable
        let compilation: GraphCompilation

        /// The parent's node of `key`, compiled in it or in one of its own parents.
        func node(for key: AnyKey) -> AnyNode? {
            nodes.node(for: key) ?? compilation.parent?.node(for: key)
        }

        /// How many injectors up the root is: 1 for a child of the root.
        var depth: Int { 1 + (compilation.parent?.depth ?? 0) }

        /// Every key the parent (and its parents) bind.
        var boundKeys: [AnyKey] {
            Array(compilation.bindings.keys) + (compilation.parent?.boundKeys ?? [])
        }

        /// The recipe of the parent's (or one of its parents') binding of `key`.
        func recipe(for key: AnyKey) -> Recipe? {
            compilation.bindings[key] ?? compilation.parent?.recipe(for: key)
        }

        /// Whether the parent (or one of its parents) binds `key`.
        func binds(_ key: AnyKey) -> Bool {
            compilation.bindings[key] != nil || compilation.parent?.binds(key) == true
        }

        /// Compiles in the parent the just-in-time types of a child's `graph` that reach
        /// nothing of the child's own (its `bindings`, a key it decorates, a consumer of its
        /// contextual bindings, a value it is made with): such a type means the same in the
        /// whole family, so a singleton it declares is the family's one, whether a plain child,
        /// a template's child or the parent reaches it first; one the parent compiled already
        /// is found there. Returns those compiled, after which the child's graph is discovered
        /// again to find them. A type the parent cannot compile stays the child's, whose graph
        /// then reports its problems with the child's path; and so does one that reaches the
        /// child's own keys, even when the parent compiled it before: the child's decorators and
        /// contextual bindings apply to what it builds, whatever its parent built before.
        func adoptSharedTypes(of graph: BindingGraph, bindings: [AnyKey: Recipe], isOwn: (AnyKey) -> Bool) -> Set<AnyKey> {
            var adopted: Set<AnyKey> = []
            for shared in graph.justInTimeKeysNotReaching(bindings, isOwn: isOwn) {
                if (try? compilation.compile(shared, into: nodes)) != nil { adopted.insert(shared) }
            }
            return adopted
        }
    }

    private init(
        bindings: [AnyKey: Recipe], graph: BindingGraph, eager: [AnyNode], parent: Parent?, owner: CompilationOwner,
        isTemplate: Bool, composition: Composition
    ) {
        // Field by field, as RecipeStorage and LinkedNodes: a class gets no memberwise init.
        self.owner = owner
        self.isTemplate = isTemplate
        self.bindings = bindings
        self.graph = graph
        self.eager = eager
        self.parent = parent
        self.composition = composition
        ownConsumers = Set(composition.contextualBindings.map(\.consumer))
    }

    /// A node this injector does not compile itself: its parent's, when the parent binds the
    /// key and this injector does not (a child's override), or when the key is a just-in-time
    /// type found to be the family's (`shared`). Any other type the parent compiled is
    /// discovered again here, since it may reach what this injector decorates or binds.
    func inherited(_ key: AnyKey, shared: Set<AnyKey> = []) -> AnyNode? {
        guard bindings[key] == nil, let parent, parent.binds(key) || shared.contains(key) || key == Recipe.injectorKey
        else { return nil }
        return parent.node(for: key)
    }

    /// Whether `key` is this injector's own beyond its bindings: a key its modules decorate,
    /// or the consumer of one of its contextual bindings.
    func isOwn(_ key: AnyKey) -> Bool {
        composition.decorators[key] != nil || ownConsumers.contains(key)
    }

    /// Records the modules' bindings, merges them with the overrides, then compiles, validates
    /// and links the whole graph; every problem is reported together. A child's modules may
    /// add keys; binding a key its parent binds is an error unless it is an override.
    ///
    /// A child template also records `provided`, the recipes of the values each of its children
    /// is made with, and makes the scope of every node it compiles per child. `recording` and
    /// `recordingOverrides` record bindings written in place, in a closure (`child { … }`,
    /// `Injector(modules:overriding:)`), after the modules' and the overrides'.
    static func build(
        modules: [any Module], overrides: [any Module], parent: Parent? = nil,
        provided: (Binder) -> Void = { _ in }, recording: (Binder) -> Void = { _ in },
        recordingOverrides: (Binder) -> Void = { _ in },
        isTemplate: Bool = false, awaitsEagerValues: Bool = false
    ) throws(InjectionError) -> (NodeTable, GraphCompilation) {
        let (moduleBinder, overrideBinder) = Composition.binders(parent: parent)
        provided(moduleBinder)
        for module in modules { moduleBinder.configure(with: module) }
        recording(moduleBinder)
        for module in overrides { overrideBinder.configure(with: module) }
        recordingOverrides(overrideBinder)

        let recorded = RecordedElements(modules: moduleBinder, overrides: overrideBinder)
        // The injector's own key is bound by a parent too: a child binds it to itself. What is
        // wrong with the bindings, the rules report with the rest (`GraphCompiler.validate`).
        var merged = DuplicateBindingRule().merge(
            modules: recorded.recipes(overrides: false), overrides: recorded.recipes(overrides: true),
            builtIn: [.injector()])
        let composition = Composition.compose(recorded, merged: &merged, parent: parent)
        let ownBindings = merged.bindings
        // At a child's creation, every node compiled before is its parent's; a root injector
        // has none.
        let owner = CompilationOwner()
        // The parent's nodes a child takes as they are: those of the keys it binds, and the
        // just-in-time types found to be the family's (`shared`); any other type the parent
        // compiled is discovered again, since it may reach what the child decorates or binds.
        func existing(shared: Set<AnyKey>) -> (AnyKey) -> AnyNode? {
            parent.map { parent in
                { key in
                    guard ownBindings[key] == nil, parent.binds(key) || shared.contains(key) || key == Recipe.injectorKey
                    else { return nil }
                    return parent.node(for: key)
                }
            } ?? { _ in nil }
        }
        let ownConsumers = Set(composition.contextualBindings.map(\.consumer))
        let isOwn: (AnyKey) -> Bool = { composition.decorators[$0] != nil || ownConsumers.contains($0) }
        let entryPoints = recorded.entryPoints
        func discover(shared: Set<AnyKey> = []) -> GraphCompiler {
            var compiler = GraphCompiler(bindings: merged.bindings, owner: owner, perChild: isTemplate,
                                         existing: existing(shared: shared), inherited: { _ in true })
            composition.configure(&compiler)
            compiler.recorded = recorded
            compiler.contributionProblems = composition.contributionProblems
            compiler.moduleKeyCount = merged.moduleKeyCount
            compiler.parent = parent
            // Every binding is a root, and an app's graph holds about as many types built just
            // in time, which its bindings lead to: room for both, so that the graph grows
            // without copying its nodes or rehashing its keys.
            compiler.reserveCapacity(merged.bindings.count * 2)
            for key in merged.order { compiler.addRoot(key) }
            // A contextual binding's consumer is compiled now, so that the binding is checked.
            for binding in composition.contextualBindings { compiler.addRoot(binding.consumer) }
            // An entry point nothing builds is reported by `EntryPointRule`.
            for (key, _) in entryPoints { compiler.addRoot(key) }
            return compiler
        }
        var compiler = discover()
        // What a child reaches that is the family's is compiled by the parent, as it is when the
        // child requests it later.
        if let parent {
            let shared = parent.adoptSharedTypes(of: compiler.graph, bindings: merged.bindings, isOwn: isOwn)
            if !shared.isEmpty { compiler = discover(shared: shared) }
        }
        if let error = InjectionError(problems: compiler.validate(awaitsEagerValues: awaitsEagerValues)) {
            throw error
        }
        let linked = try compiler.linkAll()
        let nodes = NodeTable(keys: linked.keys, nodes: linked.nodes, linkOrder: linked.order)
        // Read by index: a vertex is not copied whole for its recipe's scope.
        let graphNodes = compiler.graph.nodes
        // In the order they are bound, then the types reached that declare the scope, in the
        // order they were found; each is built after its dependencies by its own build.
        var eagerKeys: [AnyKey] = merged.order.filter { merged.bindings[$0]?.scope.strategy.isEager == true }
        let bound = Set(eagerKeys)
        for index in graphNodes.indices where graphNodes[index].recipe?.scope.strategy.isEager == true
            && !bound.contains(graphNodes[index].key) {
            eagerKeys.append(graphNodes[index].key)
        }
        var eager: [AnyNode] = []
        if !eagerKeys.isEmpty {
            var linkedByKey: [AnyKey: AnyNode] = [:]
            for node in linked.order { linkedByKey[node.key] = node }
            eager = eagerKeys.compactMap { linkedByKey[$0] }
        }
        return (nodes, GraphCompilation(bindings: merged.bindings, graph: compiler.graph, eager: eager, parent: parent,
                                         owner: owner, isTemplate: isTemplate, composition: composition))
    }

    /// A compiler for a key first requested here: it finds what this injector compiled before,
    /// and what its parent has.
    private func compiler(_ lookup: @escaping (AnyKey) -> AnyNode?, shared: Set<AnyKey> = []) -> GraphCompiler {
        var compiler = GraphCompiler(bindings: bindings, owner: owner, perChild: isTemplate,
                                     existing: { key in lookup(key) ?? self.inherited(key, shared: shared) },
                                     inherited: { node in self.parent?.node(for: node.key) === node })
        composition.configure(&compiler)
        compiler.isChild = parent != nil
        compiler.family = self
        return compiler
    }

    func compile(_ key: AnyKey, into nodes: NodeTable) throws(InjectionError) -> AnyNode {
        let bindings = bindings
        return try nodes.compileOnce(for: key) { (lookup) throws(InjectionError) -> (AnyNode, [AnyKey: AnyNode], Bool) in
            if let node = lookup(key) { return (node, [:], false) }
            // A parent's key: found there, and kept here so the next request finds it at once.
            if let node = inherited(key) { return (node, [key: node], true) }
            var compiler = self.compiler(lookup)
            var root = compiler.addRoot(key)
            // Types first requested through a child that need nothing of the child's are the
            // parent's to compile, so that a singleton one of them declares is the family's one.
            if let parent {
                // A type this child decorates, or that consumes its contextual bindings, is its
                // own to compile, and so is what needs it.
                let shared = parent.adoptSharedTypes(of: compiler.graph, bindings: bindings, isOwn: isOwn)
                if let node = inherited(key, shared: shared) { return (node, [key: node], true) }
                if !shared.isEmpty {
                    compiler = self.compiler(lookup, shared: shared)
                    root = compiler.addRoot(key)
                }
            }
            if root == nil {
                throw InjectionError(MissingBindingRule.problem(
                    for: key, neededBy: nil, path: [key], location: nil, bindings: bindings, templates: templatesInFamily))
            }
            if let error = InjectionError(problems: compiler.validate()) { throw error }
            let added = try compiler.link().nodes
            guard let node = added[key] ?? lookup(key) else {
                throw InjectionError(.internalInconsistency(.notLinked(key: key)), path: [key])
            }
            return (node, added, false)
        }
    }
}

extension Injector {
    /// The bindings and graph this injector was built from.
    var graphCompilation: GraphCompilation? { compilation as? GraphCompilation }
}
