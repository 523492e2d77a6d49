/// The edges of a binding graph that are built at once (not through a `Lazy` or `Factory`)
/// and lead to a node, as one flat array: the targets of node `n` are
/// `targets[offsets[n]..<offsets[n + 1]]`, in the order of its dependencies. What the cycle
/// rule and the linker walk, with no array per node.
struct DirectSuccessors {
    private(set) var offsets: [Int]
    private(set) var targets: [Int]

    init(_ graph: BindingGraph) {
        offsets = []
        offsets.reserveCapacity(graph.nodes.count + 1)
        targets = []
        targets.reserveCapacity(graph.nodes.count)
        offsets.append(0)
        for node in graph.nodes.indices {
            for edge in graph.nodes[node].edges where !edge.isDeferred {
                if let target = edge.target { targets.append(target) }
            }
            offsets.append(targets.count)
        }
    }

    var count: Int { offsets.count - 1 }

    /// The targets of `node`'s direct edges.
    subscript(node: Int) -> ArraySlice<Int> { targets[offsets[node]..<offsets[node + 1]] }
}
