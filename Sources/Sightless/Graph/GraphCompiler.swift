/// Turns recorded bindings into a validated, linked graph.
///
/// 1. **Discover**: starting from the roots, find the node of every key needed, from its
///    binding, from a node compiled earlier, or just in time from an ``Injectable`` type.
/// 2. **Validate**: run every ``GraphRule`` and gather all their problems.
/// 3. **Link**: create the nodes in dependency order, each one's plan calling its
///    dependencies' plans directly.
struct GraphCompiler {
    private(set) var graph = BindingGraph()
    private let bindings: [AnyKey: Recipe]
    private let existing: (AnyKey) -> AnyNode?
    /// Whether an existing node is a parent injector's.
    private let inherited: (AnyNode) -> Bool
    private var pending: [Int] = []
    /// The identity of the graph this compiler links nodes into.
    let owner: CompilationOwner
    /// For a child template, each node's scope made per child (`PerChildScope`).
    private let perChild: Bool
    /// The decorators of each decorated key, applied when its node is linked.
    var decorators: [AnyKey: [Decorator]] = [:]
    /// The injector's observers, wrapped around every node that builds values.
    var observers: InstanceObservers?
    /// For each consumer, the keys of its dependencies that a contextual binding serves, and
    /// the key of that binding.
    var contextual: [AnyKey: [AnyKey: AnyKey]] = [:]
    /// What the injector's modules and overrides recorded, which the rules check; empty for a
    /// key compiled on its first request.
    var recorded = RecordedElements()
    /// The problems of the contributions of `recorded`, when `Composition` gathered them
    /// already (`RuleInput.contributionProblems`).
    var contributionProblems: [InjectionError.Problem]?
    /// For a child injector, its parent, which the rules check the child's bindings against.
    var parent: GraphCompilation.Parent?
    /// Whether the graph is a child injector's (or a template's), also when a key is compiled
    /// on its first request, which checks nothing against the parent's bindings.
    var isChild = false
    /// How many keys the modules' bindings bind (`RuleInput.moduleKeyCount`).
    var moduleKeyCount: Int?
    /// For a key compiled on its first request, the injector's compilation (`RuleInput.family`).
    var family: GraphCompilation?

    /// - Parameters:
    ///   - bindings: the recorded bindings, one per key.
    ///   - existing: nodes the injector compiled before, which are linked and validated already.
    init(
        bindings: [AnyKey: Recipe], owner: CompilationOwner = CompilationOwner(), perChild: Bool = false,
        existing: @escaping (AnyKey) -> AnyNode? = { _ in nil },
        inherited: @escaping (AnyNode) -> Bool = { _ in false }
    ) {
        self.owner = owner
        self.perChild = perChild
        self.inherited = inherited
        self.bindings = bindings
        self.existing = existing
    }

    /// Makes room for `count` nodes: every binding is a root when an injector is built.
    mutating func reserveCapacity(_ count: Int) {
        graph.reserveCapacity(count)
    }

    /// Adds a key and everything it needs; `nil` when nothing can build the key. A requested
    /// `T?`, `Lazy<T>` or `Factory<T, …>` that is not bound is built from `T`, as it would be
    /// for an initializer's argument.
    @discardableResult
    mutating func addRoot(_ key: AnyKey) -> Int? {
        let node = nodeOrWrapper(for: key, parent: nil, anyWrapper: true)
        if let node { graph.markRoot(node) }
        discover()
        return node
    }

    /// Decides the meaning of every node (`Meaning`), which the rules check and the linker
    /// gives each node. Call once discovery is done, before `validate` and `link`.
    mutating func decide() {
        graph.settleDynamicOrigins()
        graph.setMeanings(graph.decideMeanings(perChild: perChild))
    }

    /// Every rule, in the order they run: what the modules recorded first, then the graph
    /// discovered from it. The problems of all of them are reported together, in this order.
    static let rules: [any GraphRule] = [
        InstallCycleRule(),
        DuplicateBindingRule(),
        BoundByParentRule(),
        DuplicateContributionRule(),
        AmbiguousCandidateRule(),
        UnmatchedOverrideRule(),
        UnboundDecoratorRule(),
        EntryPointRule(),
        RecipeProblemsRule(),
        MissingBindingRule(),
        CycleRule(),
        DynamicDependencyRule(),
        ScopeRule(),
        TypeMismatchRule(),
        CaptiveDependencyRule(),
        DeclaredScopeRule(),
        AwaitRule(),
        UnusedContextualBindingRule(),
    ]

    /// Runs every rule of `rules`, in order; the problems in a stable order.
    /// `awaitsEagerValues` is `true` for an injector that awaits its eager values
    /// (`Injector.start`), which may then need `await`.
    mutating func validate(awaitsEagerValues: Bool = false) -> [InjectionError.Problem] {
        decide()
        let input = RuleInput(graph: graph, recorded: recorded, bindings: bindings, moduleKeyCount: moduleKeyCount,
                              parent: parent, isChild: isChild || parent != nil,
                              awaitsEagerValues: awaitsEagerValues, family: family,
                              contributionProblems: contributionProblems)
        return Self.rules.flatMap { $0.check(input) }
    }

    /// Links every new node, dependencies first. Call only on a graph that validated.
    /// - Returns: the nodes by key, and in the order they were linked.
    func link() throws(InjectionError) -> (nodes: [AnyKey: AnyNode], order: [AnyNode]) {
        let linked = try linkAll()
        var nodes: [AnyKey: AnyNode] = [:]
        for (key, node) in zip(linked.keys, linked.nodes) { nodes[key] = node }
        return (nodes, linked.order)
    }

    /// Links every new node, dependencies first. Call only on a graph that validated.
    /// - Returns: the key of every node linked with the node at the same position, and the
    ///   nodes in the order they were linked.
    func linkAll() throws(InjectionError) -> (keys: [AnyKey], nodes: [AnyNode], order: [AnyNode]) {
        let meanings = graph.meanings.count == graph.nodes.count ? graph.meanings : graph.decideMeanings(perChild: perChild)
        let linked = LinkedNodes(existing: existing, planned: graph.index, decorators: decorators,
                                 observers: observers, contextual: contextual)
        linked.byNode = [AnyNode?](repeating: nil, count: graph.nodes.count)
        linked.order.reserveCapacity(graph.nodes.count)
        let successors = DirectSuccessors(graph)
        // The keys from a value built on an actor for what it holds to the value isolated
        // there, for its error off that actor; found once, and only when there is one.
        let held = meanings.contains(where: \.isolatedForBuild) ? graph.neededIsolation(meanings) : .none
        let heldKeys = held.isEmpty ? [] : graph.nodes.map(\.key)
        var state = [UInt8](repeating: 0, count: graph.nodes.count)   // 0 new, 1 open, 2 linked
        var stack: [(node: Int, edge: Int)] = []
        for start in graph.nodes.indices where state[start] == 0 {
            state[start] = 1
            stack.append((start, 0))
            while let (node, edge) = stack.last {
                let next = successors.offsets[node] + edge
                if next < successors.offsets[node + 1] {
                    stack[stack.count - 1].edge += 1
                    let target = successors.targets[next]
                    if state[target] == 0 {
                        state[target] = 1
                        stack.append((target, 0))
                    }
                    continue
                }
                stack.removeLast()
                state[node] = 2
                guard let recipe = graph.nodes[node].recipe else { continue }
                let meaning = meanings[node]
                let linker = Linker(key: recipe.key, location: recipe.buildLocation, nodes: linked, owner: owner,
                                    meaning: meaning, closer: recipe.closer, edges: graph.nodes[node].edges,
                                    dependencies: recipe.dependencies)
                if meaning.isolatedForBuild { linker.heldIsolated = held.held(from: node, keys: heldKeys) }
                do {
                    let scope = meaning.owner == .eachChild ? PerChildScope.wrapping(recipe.scope, owner: owner, closer: recipe.closer) : nil
                    let made = try recipe.link(linker, scope: scope)
                    made.meaning = meaning
                    linked.byNode[node] = made
                    linked.order.append(made)
                } catch {
                    throw InjectionError.request(error, key: recipe.key)
                }
            }
        }
        var keys: [AnyKey] = []
        var nodes: [AnyNode] = []
        keys.reserveCapacity(linked.order.count)
        nodes.reserveCapacity(linked.order.count)
        for (index, made) in linked.byNode.enumerated() {
            guard let made else { continue }
            keys.append(graph.nodes[index].key)
            nodes.append(made)
        }
        return (keys, nodes, linked.order)
    }

    // MARK: - Discovery

    private mutating func node(for key: AnyKey, parent: Int?) -> Int? {
        if let node = graph.index[key] { return node }
        // A node compiled earlier wins over its recipe: linking the recipe again would give a
        // singleton a second instance.
        if let node = existing(key) {
            let dynamic = node.signature?.slots.map { slot in
                Dependency(role: slot.role, key: slot.key, isDynamic: true, location: slot.location)
            }
            let index = graph.add(key, recipe: nil, parent: parent, linkedDynamicDependencies: dynamic ?? [],
                                  fromParent: inherited(node))
            graph.setLinkedMeaning(node.meaning, of: index)
            return index
        }
        if let recipe = bindings[key] { return add(recipe, parent: parent) }
        // Asked once per type for the life of the process, `Injectable` first (see
        // `JustInTimeTypes`): an optional, a `Lazy` or a `Factory` declares nothing.
        guard key.name == nil, let recipe = JustInTimeRecipes.recipe(of: key.type) else { return nil }
        return add(recipe, parent: parent)
    }

    /// The node of `key`; or, when nothing builds it, the wrapper that builds it from what it
    /// wraps, as a request of it would: for an optional `T?` (`nil` when nothing builds `T`),
    /// and with `anyWrapper`, for a `Lazy` or `Factory` too. The one rule for a requested
    /// wrapper, an optional argument, and the target of a `Lazy` or `Factory`.
    private mutating func nodeOrWrapper(for key: AnyKey, parent: Int?, anyWrapper: Bool) -> Int? {
        if let found = node(for: key, parent: parent) { return found }
        guard anyWrapper ? DependencyTraits.isWrapper(key.type) : DependencyTraits.optionalWrapped(key.type) != nil,
              let wrapper = key.type as? any RequestedWrapper.Type else { return nil }
        return add(wrapper.requestRecipe(name: key.name), parent: parent)
    }

    /// The node of the target of a `Lazy` or `Factory`: what builds `key`, or the wrapper that
    /// builds it from what it wraps (`T?`, or an inner `Lazy` or `Factory`). For an optional
    /// `Lazy` or `Factory` (`Lazy<Lazy<T>>?`), `nil` when nothing builds the innermost `T`, as it is
    /// for a `Lazy<T>?`: its wrappers are made only when that one can be built.
    private mutating func deferredTarget(_ key: AnyKey, parent: Int, optional: Bool) -> Int? {
        if optional, self.node(for: key, parent: parent) == nil,
           let inner = DependencyTraits.of(key.type).deferredTarget,
           deferredTarget(AnyKey(type: inner, name: key.name), parent: parent, optional: true) == nil {
            return nil
        }
        return nodeOrWrapper(for: key, parent: parent, anyWrapper: true)
    }

    private mutating func add(_ recipe: Recipe, parent: Int?) -> Int {
        let node = graph.add(recipe.key, recipe: recipe, parent: parent)
        pending.append(node)
        return node
    }

    private mutating func discover() {
        while let node = pending.popLast() {
            guard let recipe = graph.nodes[node].recipe else { continue }
            let dependencies = recipe.dependencies
            var edges: [BindingGraph.Edge] = []
            edges.reserveCapacity(dependencies.count)
            let served = contextual.isEmpty ? nil : contextual[recipe.key]
            let isWrapper = recipe.source == .wrapper
            for position in dependencies.indices where !dependencies[position].isDynamic {
                let dependency = dependencies[position]
                // A requested wrapper's one dependency is its own key: go to what it wraps.
                let key = served?[dependency.key] ?? dependency.key
                let direct = isWrapper ? nil : self.node(for: key, parent: node)
                if let target = direct {
                    edges.append(.init(dependencyIndex: position, target: target, throughWrapped: false))
                } else if let deferred = dependency.deferredKey {
                    // A `Lazy<T?>` or `Factory<T?>` builds `T?` as a request of it would, and a
                    // `Lazy<Lazy<T>>` or `Lazy<Factory<T, …>>` its inner wrapper, from `T`.
                    edges.append(.init(dependencyIndex: position,
                                       target: deferredTarget(deferred, parent: node, optional: dependency.isOptional),
                                       throughWrapped: false, isDeferred: true))
                } else if let wrapped = dependency.wrappedKey.map({ served?[$0] ?? $0 }) {
                    // A `T??` unwraps one level at a time, requested or as an argument alike:
                    // `T?` is a wrapper too (`nil` when nothing builds `T`).
                    edges.append(.init(dependencyIndex: position,
                                       target: nodeOrWrapper(for: wrapped, parent: node, anyWrapper: isWrapper),
                                       throughWrapped: true))
                } else {
                    edges.append(.init(dependencyIndex: position, target: nil, throughWrapped: false))
                }
            }
            graph.setEdges(edges, of: node)
        }
    }
}

/// The nodes linked so far in one compilation, and those compiled before it.
final class LinkedNodes {
    /// The node linked for each node of the graph (by its index there), once it is linked.
    var byNode: [AnyNode?] = []
    var order: [AnyNode] = []
    let existing: (AnyKey) -> AnyNode?
    /// Every key of the graph being linked, linked yet or not (with its node's index).
    let planned: KeyIndex
    /// The decorators of each decorated key, in the order they apply.
    let decorators: [AnyKey: [Decorator]]
    let observers: InstanceObservers?
    /// For each consumer, the keys its contextual bindings serve, and the keys serving them.
    let contextual: [AnyKey: [AnyKey: AnyKey]]

    init(
        existing: @escaping (AnyKey) -> AnyNode?, planned: KeyIndex,
        decorators: [AnyKey: [Decorator]] = [:], observers: InstanceObservers? = nil,
        contextual: [AnyKey: [AnyKey: AnyKey]] = [:]
    ) {
        self.existing = existing
        self.planned = planned
        self.decorators = decorators
        self.observers = observers
        self.contextual = contextual
    }

    func node(for key: AnyKey) -> AnyNode? {
        if let index = planned[key], let node = byNode[index] { return node }
        return existing(key)
    }

    /// Whether `key` has a node once this compilation is linked.
    func willExist(_ key: AnyKey) -> Bool {
        planned[key] != nil || existing(key) != nil
    }
}
