// What flows against the edges of a graph: a node needs `await` when a value it builds at once
// does, and an actor when one it builds at once is isolated there; a type reaches an injector's
// own key when a value it needs does. Each is found in one pass from the nodes that have it,
// however long the chains that carry it and whatever cycles the graph holds.

extension BindingGraph {
    /// For every node, what the nearest node with a seed that it reaches passes it, or `nil`
    /// when it reaches none: `seeds[node]` for a seed; for another node, `spread(next, value)`,
    /// where `next` is the node after it on a shortest path to a seed (along its direct edges
    /// only, unless `deferredEdges`) and `value` what `next` has.
    ///
    /// A breadth-first search against the edges from every seed at once, in their order: each
    /// node and each edge is visited once. Among paths of one length, the one through the node
    /// found first wins, so that a graph gives the same answer every time.
    func spreadBackward<Value>(
        _ seeds: [Value?], deferredEdges: Bool, _ spread: (_ next: Int, _ value: Value) -> Value
    ) -> [Value?] {
        var values = seeds
        var queue: [Int] = []
        queue.reserveCapacity(nodes.count)
        for node in nodes.indices where values[node] != nil { queue.append(node) }
        guard !queue.isEmpty else { return values }
        let predecessors = predecessors(deferredEdges: deferredEdges)
        var head = 0
        while head < queue.count {
            let target = queue[head]
            head += 1
            guard let value = values[target] else { continue }
            for node in predecessors[target] where values[node] == nil {
                values[node] = spread(target, value)
                queue.append(node)
            }
        }
        return values
    }

    /// The nodes with an edge to each node (direct edges only, unless `deferredEdges`), in the
    /// order of the nodes, as offsets into one array.
    private func predecessors(deferredEdges: Bool) -> Predecessors {
        var counts = [Int](repeating: 0, count: nodes.count + 1)
        for node in nodes.indices {
            for edge in nodes[node].edges where deferredEdges || !edge.isDeferred {
                if let target = edge.target { counts[target + 1] += 1 }
            }
        }
        for index in nodes.indices { counts[index + 1] += counts[index] }
        var fill = counts
        var sources = [Int](repeating: 0, count: counts[nodes.count])
        for node in nodes.indices {
            for edge in nodes[node].edges where deferredEdges || !edge.isDeferred {
                guard let target = edge.target else { continue }
                sources[fill[target]] = node
                fill[target] += 1
            }
        }
        return Predecessors(offsets: counts, sources: sources)
    }
}

/// The nodes with an edge to each node, as `BindingGraph.spreadBackward` walks them.
private struct Predecessors {
    let offsets: [Int]
    let sources: [Int]

    subscript(node: Int) -> ArraySlice<Int> { sources[offsets[node]..<offsets[node + 1]] }
}

/// For every node of a graph, the actor its value needs to be built, and the way to the value
/// isolated there (`BindingGraph.neededIsolation`).
struct NeededIsolation {
    /// The actor each node needs; `nil` for a node that needs none.
    private let actors: [ActorIsolation?]
    /// The next node on each node's way to the isolated value (`nil` for the isolated value
    /// itself, and for a node that needs none): one table every `HeldIsolation` shares.
    private let next: [Int?]

    init(_ needs: [(actor: ActorIsolation, next: Int?)?]) {
        actors = needs.map { $0?.actor }
        next = needs.map { $0?.next }
    }

    /// No node needs an actor.
    static let none = NeededIsolation([])

    /// Whether no node needs an actor.
    var isEmpty: Bool { !actors.contains { $0 != nil } }

    /// The actor `node` needs, if any.
    func actor(of node: Int) -> ActorIsolation? {
        node < actors.count ? actors[node] : nil
    }

    /// The way from `node` down to the value isolated to its actor, along one shortest path;
    /// `nil` when it needs none. `keys` is the key of every node of the graph, by index.
    func held(from node: Int, keys: [AnyKey]) -> HeldIsolation? {
        guard actor(of: node) != nil else { return nil }
        return HeldIsolation(keys: keys, next: next, node: node)
    }
}

extension BindingGraph {
    /// For every node, the actor its value needs to be built and the way to the isolated value:
    /// its own actor, or the one a dependency it builds at once needs. A kept value needs it for
    /// its first build only; what it holds afterwards is shared, as Swift shares a `Sendable`
    /// value. A value built on an actor only for what it holds needs it through its edges.
    func neededIsolation(_ meanings: [Meaning]) -> NeededIsolation {
        let seeds: [(actor: ActorIsolation, next: Int?)?] = nodes.indices.map { index in
            meanings[index].isolatedForBuild ? nil : meanings[index].isolation.map { (actor: $0, next: nil) }
        }
        return NeededIsolation(spreadBackward(seeds, deferredEdges: false) { next, value in
            (actor: value.actor, next: next)
        })
    }
}
