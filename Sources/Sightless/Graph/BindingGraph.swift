/// The graph an injector compiles, as data: every key it can build, how, and the edges to the
/// keys each one needs. The validation rules read it; nothing in it runs.
struct BindingGraph: Sendable {
    struct Vertex: Sendable {
        let key: AnyKey
        /// How the key is built; `nil` for a node compiled earlier by the same injector.
        let recipe: Recipe?
        /// The node that first needed this one, for the dependency path of its problems.
        let parent: Int?
        /// For a node compiled earlier, the dynamic arguments a request for it brings.
        var linkedDynamicDependencies: [Dependency] = []
        /// For a node compiled earlier, whether a parent injector compiled it.
        var fromParent = false
        /// Whether the node is a root: a bound key, or a key requested, which a dependency path
        /// may start from.
        var isRoot = false
        /// For a node compiled earlier, the meaning its graph decided for it.
        var linkedMeaning = Meaning.plain
        var edges: [Edge] = []

        /// The recipe's dependencies, which its edges fill (by `Edge.dependencyIndex`); none
        /// for a node compiled earlier, which has no edges.
        var dependencies: [Dependency] { recipe?.dependencies ?? [] }
    }

    struct Edge: Sendable {
        /// The position of the dependency among the `dependencies` of the recipe of the node
        /// the edge leaves (see `BindingGraph.dependency(of:from:)`): an edge is a few words,
        /// not a copy of the dependency.
        let dependencyIndex: Int
        /// The node that fills the dependency; `nil` when nothing can (an optional one is
        /// then `nil` at run time, any other one is a missing binding).
        let target: Int?
        /// `true` when an optional dependency is filled from the wrapped type's key.
        let throughWrapped: Bool
        /// `true` for a `Lazy` or `Factory` edge: its target is built later, on demand, so the
        /// edge may close a cycle and need not be linked first.
        var isDeferred = false
    }

    private(set) var nodes: [Vertex] = []
    private(set) var index = KeyIndex()

    mutating func add(
        _ key: AnyKey, recipe: Recipe?, parent: Int?, linkedDynamicDependencies: [Dependency] = [], fromParent: Bool = false
    ) -> Int {
        nodes.append(Vertex(key: key, recipe: recipe, parent: parent, linkedDynamicDependencies: linkedDynamicDependencies,
                            fromParent: fromParent))
        index.set(nodes.count - 1, for: key)
        return nodes.count - 1
    }

    /// Makes room for `count` nodes, so that a graph of known size grows without copying.
    mutating func reserveCapacity(_ count: Int) {
        nodes.reserveCapacity(count)
        index.reserveCapacity(count)
    }

    mutating func markRoot(_ node: Int) {
        nodes[node].isRoot = true
    }

    /// Marks a node as its parent's: a just-in-time type a child leaves to its parent, which an
    /// explanation shows as such.
    mutating func markFromParent(_ node: Int) {
        nodes[node].fromParent = true
    }

    mutating func setLinkedMeaning(_ meaning: Meaning, of node: Int) {
        nodes[node].linkedMeaning = meaning
    }

    /// The meaning of each node, by its index, once `GraphCompiler.decide()` has decided them.
    private(set) var meanings: [Meaning] = []

    mutating func setMeanings(_ decided: [Meaning]) {
        meanings = decided
    }

    /// The meaning of every node, by index: those decided, or for a graph not decided
    /// (discovered only, to be explained or checked by one rule), those deciding now gives.
    var decidedMeanings: [Meaning] {
        meanings.count == nodes.count ? meanings : decideMeanings(perChild: false)
    }

    mutating func setEdges(_ edges: [Edge], of node: Int) {
        nodes[node].edges = edges
    }

    /// The just-in-time types of the graph from which no key of an injector's own can be
    /// reached (one of its `bindings`, or a node it compiled before rather than took from a
    /// parent), dependencies first: what a child leaves to its parent to compile.
    ///
    /// The `Injector` key, which every injector binds to itself, is nobody's own: a type that
    /// needs it is given the injector that keeps it.
    ///
    /// A key `isOwn` names (one the injector decorates, say) counts as its own too.
    func justInTimeKeysNotReaching(_ bindings: [AnyKey: Recipe], isOwn: (AnyKey) -> Bool = { _ in false }) -> [AnyKey] {
        let own = nodes.map { vertex in
            guard vertex.key != Recipe.injectorKey else { return false }
            if isOwn(vertex.key) { return true }
            return vertex.recipe == nil ? !vertex.fromParent : bindings[vertex.key] != nil
        }
        // Whether each node reaches an own key, through any edge: spread from the own keys.
        let reaches = spreadBackward(own.map { $0 ? true : nil }, deferredEdges: true) { _, _ in true }
        return nodes.indices.reversed().compactMap { index in
            guard reaches[index] == nil, case .type(justInTime: true)? = nodes[index].recipe?.source else { return nil }
            return nodes[index].key
        }
    }

    /// The dependency an edge of `node` fills.
    func dependency(of edge: Edge, from node: Int) -> Dependency {
        nodes[node].dependencies[edge.dependencyIndex]
    }

    /// The shortest dependency path from a root (a bound key, or a key requested) to `node`,
    /// `node` last: the path that explains a problem of `node` in the fewest steps, starting
    /// at the binding nearest to it. Among paths of one length, the one through the keys the
    /// graph reached first, so that a graph gives the same path every time.
    ///
    /// Found by a breadth-first search from every root at once, when a rule reports a problem
    /// (each costs a pass over the graph, as discovery does; a rule that may report many takes
    /// `shortestPaths()` once instead).
    func path(to node: Int) -> [AnyKey] {
        guard !nodes[node].isRoot, nodes[node].parent != nil else { return [nodes[node].key] }
        return shortestPaths(until: node).path(to: node)
    }

    /// The shortest path from a root to every node, found by one breadth-first search.
    func shortestPaths() -> ShortestPaths {
        shortestPaths(until: nil)
    }

    /// The shortest paths from the roots, searched until `target` is reached (`nil`: every node).
    private func shortestPaths(until target: Int?) -> ShortestPaths {
        var previous = [Int](repeating: -1, count: nodes.count)
        var queue: [Int] = []
        for index in nodes.indices where nodes[index].isRoot || nodes[index].parent == nil {
            previous[index] = index
            queue.append(index)
        }
        var head = 0
        search: while head < queue.count {
            let current = queue[head]
            head += 1
            for edge in nodes[current].edges {
                guard let next = edge.target, previous[next] < 0 else { continue }
                previous[next] = current
                if next == target { break search }
                queue.append(next)
            }
        }
        return ShortestPaths(graph: self, previous: previous)
    }

    /// The shortest path from a root to each node of a graph, as each node's predecessor on it.
    struct ShortestPaths {
        fileprivate let graph: BindingGraph
        /// Each node's predecessor on its path; itself for a root, -1 for a node not reached.
        fileprivate let previous: [Int]

        /// The keys from the nearest root down to `node`; for a node no root reaches (none
        /// in a graph discovered from its roots), the path of its discovery.
        func path(to node: Int) -> [AnyKey] {
            guard previous[node] >= 0 else { return graph.discoveryPath(to: node) }
            var path = [graph.nodes[node].key]
            var current = node
            while previous[current] != current {
                current = previous[current]
                path.append(graph.nodes[current].key)
            }
            return path.reversed()
        }
    }

    /// The keys from the root that first needed `node` down to `node` itself.
    fileprivate func discoveryPath(to node: Int) -> [AnyKey] {
        var path: [AnyKey] = []
        var current: Int? = node
        while let index = current {
            path.append(nodes[index].key)
            current = nodes[index].parent
        }
        return path.reversed()
    }

    /// The dynamic arguments a request for `node` must bring: its own initializer's, or,
    /// for an alias, its target's.
    func dynamicDependencies(of node: Int) -> [Dependency] {
        guard let origin = dynamicOrigin(of: node) else { return [] }
        return nodes[origin].recipe?.dynamicDependencies ?? nodes[origin].linkedDynamicDependencies
    }

    /// Whether a request for `node` must bring dynamic arguments: `dynamicDependencies(of:)`
    /// is not empty, found without making that list.
    func hasDynamicDependencies(_ node: Int) -> Bool {
        guard let origin = dynamicOrigin(of: node) else { return false }
        return nodes[origin].recipe?.hasDynamicDependencies ?? !nodes[origin].linkedDynamicDependencies.isEmpty
    }

    /// The node whose own dynamic arguments a request for `node` brings: `node` itself, or
    /// for an alias (or a wrapper built at once), the node it leads to; `nil` when an alias
    /// leads nowhere or around a cycle. Read from `dynamicOrigins` once the graph is decided;
    /// walked otherwise.
    private func dynamicOrigin(of node: Int) -> Int? {
        if dynamicOrigins.count == nodes.count {
            let origin = dynamicOrigins[node]
            return origin < 0 ? nil : Int(origin)
        }
        var current = node
        // A walk longer than the graph has nodes went around a cycle: counted rather than
        // remembered, so that no walk allocates.
        for _ in 0...nodes.count {
            switch dynamicStep(from: current) {
            case .end(let origin): return origin
            case .next(let target): current = target
            }
        }
        return nil
    }

    /// One step of the walk to a node's dynamic origin.
    private func dynamicStep(from node: Int) -> ChainStep {
        guard let recipe = nodes[node].recipe else { return .end(node) }
        switch recipe.source {
        case .alias: break
        case .wrapper where nodes[node].edges.first?.isDeferred == false: break
        default: return .end(node)
        }
        guard let target = nodes[node].edges.first?.target else { return .end(nil) }
        return .next(target)
    }

    /// The dynamic origin of every node (`dynamicOrigin(of:)`), found for all of them at once
    /// (`chainEnds`): walked one node at a time, a chain of aliases, each bound to the next, is
    /// walked again from each of its aliases, in time quadratic in its length. Set by
    /// `GraphCompiler.decide()`, once discovery is done; `-1` for none.
    private(set) var dynamicOrigins: [Int32] = []

    mutating func settleDynamicOrigins() {
        dynamicOrigins = chainEnds(dynamicStep).map { Int32($0 ?? -1) }
    }

    /// Where a walk goes from a node: it ends (at a node, or nowhere), or goes on to the next.
    enum ChainStep {
        case end(Int?)
        case next(Int)
    }

    /// For every node, where a walk that takes `step` from it ends, found in time linear in the
    /// graph: a walk stops at the first node whose end is known, and every node it went through
    /// takes that end, so that each node is walked once, however long the chains (of aliases,
    /// each bound to the next) that go through it. A walk that comes back to a node it went
    /// through ends nowhere, as a walk around a cycle does.
    func chainEnds(_ step: (Int) -> ChainStep) -> [Int?] {
        // What is known of each node: not walked yet, on the walk under way, or its end.
        enum Known { case unknown, walking, end(Int?) }
        var known = [Known](repeating: .unknown, count: nodes.count)
        var walked: [Int] = []
        for start in nodes.indices {
            guard case .unknown = known[start] else { continue }
            var current = start
            var end: Int?
            walk: while true {
                switch known[current] {
                case .end(let found):
                    end = found
                    break walk
                case .walking:
                    end = nil
                    break walk
                case .unknown:
                    switch step(current) {
                    case .end(let found):
                        known[current] = .end(found)
                        end = found
                        break walk
                    case .next(let target):
                        known[current] = .walking
                        walked.append(current)
                        current = target
                    }
                }
            }
            for node in walked { known[node] = .end(end) }
            walked.removeAll(keepingCapacity: true)
        }
        return known.map { known in
            if case .end(let end) = known { return end }
            return nil
        }
    }
}
