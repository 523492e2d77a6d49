/// Reports the cycles of keys that need each other to be built, `A → B → C → A`: for each key
/// on a cycle, in the order the graph reached them, the shortest cycle through it, unless a
/// cycle reported already goes through it; each distinct cycle once, however many of its keys
/// reach it. So every key that needs itself is on a reported cycle, two cycles that share a key
/// are two problems, and a set of keys with a great many cycles gives at most one per key
/// rather than all of them. Cycles that go through one dependency (an edge `X → A`) are one
/// problem, that dependency with the cycles it closes, since removing it breaks them all: one
/// wrong edge is reported once, not once per cycle it closes. A cycle of its own starts at a key
/// an override module binds, when it goes through one (the override is what made it), and
/// otherwise at the first key the graph reached. Iterative throughout, so a graph of any depth
/// is checked without exhausting the stack.
struct CycleRule: GraphRule {
    func check(_ input: RuleInput) -> [InjectionError.Problem] {
        let graph = input.graph
        let successors = DirectSuccessors(graph)
        let components = Self.cycles(successors)
        guard !components.isEmpty else { return [] }
        let overridden = Set(input.recorded.recipes(overrides: true).map(\.key))
        var problems: [InjectionError.Problem] = []
        // A type built just in time is declared where its initializer is.
        func location(of node: Int) -> SourceLocation? {
            let recipe = graph.nodes[node].recipe
            return recipe?.location ?? recipe?.buildLocation
        }
        func keys(_ cycle: [Int]) -> [AnyKey] { (cycle + [cycle[0]]).map { graph.nodes[$0].key } }
        for component in components {
            let members = Set(component)
            var covered: Set<Int> = []
            var reported: Set<[Int]> = []
            var cycles: [[Int]] = []
            for start in component.sorted() where !covered.contains(start) {
                guard let cycle = Self.shortestCycle(from: start, within: members, successors: successors) else { continue }
                covered.formUnion(cycle)
                // The same cycle is the same list of nodes once rotated to its first node.
                guard let first = cycle.indices.min(by: { cycle[$0] < cycle[$1] }),
                      reported.insert(Array(cycle[first...] + cycle[..<first])).inserted else { continue }
                let head = cycle.indices.first { overridden.contains(graph.nodes[cycle[$0]].key) } ?? first
                cycles.append(Array(cycle[head...] + cycle[..<head]))
            }
            for group in Self.groupedByDependency(cycles) {
                if let edge = group.edge {
                    // Each cycle written from the dependency's consumer, through the dependency.
                    let written = group.cycles.map { cycle in
                        let start = cycle.indices.first { cycle[$0] == edge.from && cycle[(($0 + 1) % cycle.count)] == edge.to } ?? 0
                        return keys(Array(cycle[start...] + cycle[..<start]))
                    }
                    let detail = InjectionError.Problem.Detail.cyclesThrough(
                        consumer: graph.nodes[edge.from].key, dependency: graph.nodes[edge.to].key, cycles: written)
                    problems.append(InjectionError.Problem(detail, path: written[0], location: location(of: edge.from)))
                } else if let cycle = group.cycles.first {
                    let path = keys(cycle)
                    problems.append(InjectionError.Problem(.cycle(path), path: path, location: location(of: cycle[0])))
                }
            }
        }
        return problems
    }

    /// A dependency, from the node that needs it to the node it needs.
    struct Edge: Hashable {
        let from: Int
        let to: Int
    }

    /// The cycles of one component in groups: the cycles that go through the dependency most of
    /// them share, with that dependency, as long as two or more share one; then each other
    /// cycle alone. Groups come in the order of their first cycle's discovery.
    static func groupedByDependency(_ cycles: [[Int]]) -> [(edge: Edge?, cycles: [[Int]])] {
        func edges(_ cycle: [Int]) -> Set<Edge> {
            Set(cycle.indices.map { Edge(from: cycle[$0], to: cycle[($0 + 1) % cycle.count]) })
        }
        var remaining = cycles.indices.map { (index: $0, edges: edges(cycles[$0])) }
        var groups: [(first: Int, edge: Edge?, cycles: [[Int]])] = []
        while remaining.count > 1 {
            var counts: [Edge: Int] = [:]
            var best: (edge: Edge, count: Int)?
            for cycle in remaining {
                // Edges counted in the order of the cycle, so that a tie goes to the first.
                for position in cycles[cycle.index].indices {
                    let nodes = cycles[cycle.index]
                    let edge = Edge(from: nodes[position], to: nodes[(position + 1) % nodes.count])
                    counts[edge, default: 0] += 1
                    if let count = counts[edge], count > (best?.count ?? 1) { best = (edge, count) }
                }
            }
            guard let shared = best else { break }
            let members = remaining.filter { $0.edges.contains(shared.edge) }
            groups.append((members[0].index, shared.edge, members.map { cycles[$0.index] }))
            remaining.removeAll { $0.edges.contains(shared.edge) }
        }
        groups += remaining.map { ($0.index, nil, [cycles[$0.index]]) }
        return groups.sorted { $0.first < $1.first }.map { ($0.edge, $0.cycles) }
    }

    /// The strongly connected components that hold a cycle (two or more nodes, or one node
    /// that needs itself), in the order Tarjan's algorithm finds them.
    static func cycles(_ successors: DirectSuccessors) -> [[Int]] {
        var cycles: [[Int]] = []
        stronglyConnectedComponents(successors) { component in
            let first = component[component.startIndex]
            if component.count > 1 || successors[first].contains(first) {
                cycles.append(Array(component))
            }
        }
        return cycles
    }

    /// Tarjan's algorithm with an explicit stack, over flat arrays: `found` is called with each
    /// component as it is completed (its nodes in the order they were reached; a view of the
    /// algorithm's stack, so that a component of one node costs no array of its own).
    static func stronglyConnectedComponents(_ successors: DirectSuccessors, _ found: (ArraySlice<Int>) -> Void) {
        let count = successors.count
        var index = [Int](repeating: -1, count: count)
        var lowLink = [Int](repeating: 0, count: count)
        var onStack = [Bool](repeating: false, count: count)
        var stack: [Int] = []
        var nextIndex = 0
        var work: [(node: Int, edge: Int)] = []

        for root in 0..<count where index[root] < 0 {
            work.append((root, 0))
            while let (node, edge) = work.last {
                if edge == 0 && index[node] < 0 {
                    index[node] = nextIndex
                    lowLink[node] = nextIndex
                    nextIndex += 1
                    stack.append(node)
                    onStack[node] = true
                }
                let first = successors.offsets[node]
                if first + edge < successors.offsets[node + 1] {
                    work[work.count - 1].edge += 1
                    let next = successors.targets[first + edge]
                    if index[next] < 0 {
                        work.append((next, 0))
                    } else if onStack[next] {
                        lowLink[node] = min(lowLink[node], index[next])
                    }
                    continue
                }
                work.removeLast()
                if let parent = work.last?.node {
                    lowLink[parent] = min(lowLink[parent], lowLink[node])
                }
                if lowLink[node] == index[node] {
                    // The component is the top of the stack down to `node`.
                    var bottom = stack.count - 1
                    while stack[bottom] != node { bottom -= 1 }
                    for member in stack[bottom...] { onStack[member] = false }
                    found(stack[bottom...])
                    stack.removeSubrange(bottom...)
                }
            }
        }
    }

    /// The nodes of the shortest cycle through `start`, by breadth-first search.
    static func shortestCycle(from start: Int, within members: Set<Int>, successors: DirectSuccessors) -> [Int]? {
        var previous: [Int: Int] = [:]
        var queue = [start]
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            for next in successors[node] where members.contains(next) {
                if next == start {
                    var cycle = [node]
                    var current = node
                    while current != start, let before = previous[current] {
                        cycle.append(before)
                        current = before
                    }
                    return cycle.reversed()
                }
                if previous[next] == nil && next != start {
                    previous[next] = node
                    queue.append(next)
                }
            }
        }
        return nil
    }
}
