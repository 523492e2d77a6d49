/// The compiled graph as the exporters draw it: nodes sorted by key, each with the words that
/// say how it is built, and edges in declaration order. Sorting here, once, is what makes every
/// format stable across runs and module orders.
struct ExportedGraph {
    struct Entry {
        let key: AnyKey
        /// The node's scope; `nil` for a node compiled earlier, whose recipe is gone.
        let scope: Scope?
        /// How the value is built: `instance`, `closure`, `provider`, `alias`, `type`, …, or
        /// `parent's` for a key a child injector takes from its parent.
        let source: String
        /// Where the value comes from, as the words of `source` say it.
        let origin: Origin
        /// The dynamic arguments a request must bring.
        let creationTime: [Dependency]
        let edges: [Edge]
        /// Where the decorators of the key were declared, in the order they apply.
        var decorators: [SourceLocation] = []
        /// What the graph decided for the node: who keeps its value, and its actor.
        var meaning = Meaning.plain
        /// The actor a nonisolated value needs to be built, through a dependency it builds at
        /// once: it is built there when requested there, and awaits it elsewhere.
        var needs: ActorIsolation?
        /// What `await` the node needs (`ExportedGraph.awaiting`), or `nil` for none.
        var awaiting: String?

        /// Whether a child takes the node from its parent.
        var isParents: Bool { origin == .parents }

        /// `singleton, type`, who keeps a kept value (`kept by this injector`, `kept by each
        /// child`), the actor of an isolated one (or the one a nonisolated one needs to be
        /// built) and, when there are any, the dynamic arguments.
        var summary: String {
            // A value a template's child is made with is one per child, whatever the scope
            // of the recipe that stands for it.
            var parts = origin == .provided ? ["provided to each child"] : [scope?.name ?? "", source].filter { !$0.isEmpty }
            if meaning.owner == .injector || meaning.owner == .eachChild { parts.append("kept by \(meaning.owner)") }
            if let isolation = meaning.isolation, !meaning.isolatedForBuild {
                parts.append("isolated to \(isolation)")
            } else if let needs {
                parts.append("needs \(needs) to be built")
            }
            if let awaiting { parts.append(awaiting) }
            if !creationTime.isEmpty {
                parts.append("dynamic: " + creationTime.map(\.key.typeName).joined(separator: ", "))
            }
            if !decorators.isEmpty {
                parts.append("decorated at " + decorators.map(\.description).joined(separator: ", "))
            }
            return parts.joined(separator: ", ")
        }
    }

    /// Where a node's value comes from: the injector's own graph, its parent's (a key a child
    /// takes from its parent), or the values a template's child is made with.
    enum Origin {
        case own, parents, provided
    }

    struct Edge {
        let dependency: Dependency
        /// Position in ``ExportedGraph/nodes``; `nil` when nothing fills the dependency.
        let target: Int?

        /// `argument 1`, `property \Screen.logger`, `bound to`, marked when optional, and naming
        /// the `Lazy` or `Factory` through which a deferred dependency is built.
        var label: String {
            if dependency.isDeferred { return "\(dependency.role) (\(dependency.key.typeName))" }
            return dependency.isOptional ? "\(dependency.role) (optional)" : "\(dependency.role)"
        }

        /// Drawn dashed: a dependency that may be `nil`, or one built only when asked for.
        var isDashed: Bool { dependency.isOptional || dependency.isDeferred }
    }

    let nodes: [Entry]
    /// Position in ``nodes`` of each key.
    let index: [AnyKey: Int]

    init(_ graph: BindingGraph, decorators: [AnyKey: [Decorator]] = [:], autoWired: Set<AnyKey> = []) {
        let order = graph.nodes.indices.sorted { lhs, rhs in
            let left = graph.nodes[lhs].key.description, right = graph.nodes[rhs].key.description
            return left == right ? lhs < rhs : left < right
        }
        let meanings = graph.decidedMeanings
        let needs = graph.neededIsolation(meanings)
        var position = [Int](repeating: 0, count: graph.nodes.count)
        for (sorted, original) in order.enumerated() { position[original] = sorted }
        nodes = order.map { original in
            let node = graph.nodes[original]
            return Entry(
                key: node.key,
                scope: node.fromParent ? nil : node.recipe?.scope,
                source: node.fromParent ? "parent's"
                    : node.recipe != nil && autoWired.contains(node.key) ? "auto-wired" : Self.source(of: node.recipe),
                origin: node.fromParent ? .parents : node.recipe?.source == .provided ? .provided : .own,
                creationTime: graph.dynamicDependencies(of: original),
                edges: node.edges.map { edge in
                    Edge(dependency: graph.dependency(of: edge, from: original), target: edge.target.map { position[$0] })
                },
                decorators: node.recipe == nil ? [] : (decorators[node.key] ?? []).map(\.location),
                meaning: Self.meaning(meanings[original], fromParent: node.fromParent),
                needs: needs.actor(of: original),
                awaiting: Self.awaiting(original, in: graph, meanings: meanings))
        }
        var index: [AnyKey: Int] = [:]
        for (position, node) in nodes.enumerated() where index[node.key] == nil { index[node.key] = position }
        self.index = index
    }

    /// What `await` a node needs, as the export says it: `built with await` (its own build is
    /// `async`); `ready once started (Pool)` when what it awaits is only eager singletons, which
    /// `Injector.start` builds; `ready once Pool is built` when it is only values kept once,
    /// after which a synchronous request builds it; else `needs await (Pool)`. Read from the
    /// graph's decisions: the `async` builds the node reaches through dependencies it builds at
    /// once, and whether a value on the way is isolated to an actor.
    static func awaiting(_ index: Int, in graph: BindingGraph, meanings: [Meaning]) -> String? {
        guard let reason = meanings[index].awaited else { return nil }
        if reason == graph.nodes[index].key { return "built with await" }
        var seen: Set<Int> = [index]
        var stack = [index]
        var allEager = true
        while let current = stack.popLast() {
            let meaning = meanings[current]
            // Built on an actor, or rebuilt by every request from an `async` build: awaited always.
            if meaning.isolation != nil { return "needs await (\(reason))" }
            let vertex = graph.nodes[current]
            if meaning.awaited == vertex.key || vertex.edges.isEmpty {
                if meaning.owner == .none { return "needs await (\(reason))" }
                if vertex.recipe?.scope.strategy.isEager != true { allEager = false }
                continue
            }
            for edge in vertex.edges where !edge.isDeferred {
                if let target = edge.target, meanings[target].awaited != nil, seen.insert(target).inserted {
                    stack.append(target)
                }
            }
        }
        return allEager ? "ready once started (\(reason))" : "ready once \(reason) is built"
    }

    /// The meaning the export shows: a value a child takes from its parent is the parent's to
    /// keep.
    private static func meaning(_ meaning: Meaning, fromParent: Bool) -> Meaning {
        var shown = meaning
        if fromParent && shown.owner != .none { shown.owner = .parent }
        return shown
    }

    private static func source(of recipe: Recipe?) -> String {
        guard let recipe else { return "compiled earlier" }
        switch recipe.source {
        case .instance: return "instance"
        case .closure: return "closure"
        case .provider: return "provider"
        case .alias: return "alias"
        case .initializer: return "initializer"
        case .type(justInTime: false): return "type"
        case .type(justInTime: true): return "just-in-time type"
        case .injector: return "the injector"
        case .incomplete: return "incomplete"
        case .wrapper: return "wrapper"
        case .provided: return "provided"
        case .collection: return "collection"
        }
    }

    /// Identifiers unique within the graph, made by `make` from each key and suffixed with a
    /// number when two keys give the same one (two types of the same name in two modules).
    func identifiers(_ make: (AnyKey) -> String) -> [String] {
        var used: [String: Int] = [:]
        return nodes.map { node in
            let base = make(node.key)
            let count = used[base, default: 0] + 1
            used[base] = count
            return count == 1 ? base : "\(base) #\(count)"
        }
    }
}

extension String {
    /// The text with every character `replacements` lists replaced by its entry: how each
    /// exporter escapes what its format reads as syntax.
    func escaping(_ replacements: [Character: String]) -> String {
        var escaped = ""
        for character in self {
            if let replacement = replacements[character] { escaped += replacement } else { escaped.append(character) }
        }
        return escaped
    }
}
