/// Reports the cycles of keys that need each other to be built, `A → B → C → A`: for each key
/// on a cycle, in the order the graph reached them, the shortest cycle through it, unless a
/// cycle reported already goes through it; each distinct cycle once, however many of its keys
/// reach it. So every key that needs itself is on a reported cycle, two cycles that share a key
/// are two problems, and a set of keys with a great many cycles gives at most one per key
/// rather than all of them. A cycle starts at a key an override module binds, when it goes
/// through one (the override is what made it), and otherwise at the first key the graph reached.
/// Iterative throughout, so a graph of any depth is checked without exhausting the stack.
struct CycleRule: GraphRule {
    func check(_ input: RuleInput) -> [InjectionError.Problem] {
        let graph = input.graph
        let successors = DirectSuccessors(graph)
        let components = Self.cycles(successors)
        guard !components.isEmpty else { return [] }
        let overridden = Set(input.recorded.recipes(overrides: true).map(\.key))
        var problems: [InjectionError.Problem] = []
        for component in components {
            let members = Set(component)
            var covered: Set<Int> = []
            var reported: Set<[Int]> = []
            for start in component.sorted() where !covered.contains(start) {
                guard let cycle = Self.shortestCycle(from: start, within: members, successors: successors) else { continue }
                covered.formUnion(cycle)
                // The same cycle is the same list of nodes once rotated to its first node.
                guard let first = cycle.indices.min(by: { cycle[$0] < cycle[$1] }),
                      reported.insert(Array(cycle[first...] + cycle[..<first])).inserted else { continue }
                let head = cycle.indices.first { overridden.contains(graph.nodes[cycle[$0]].key) } ?? first
                let ordered = Array(cycle[head...] + cycle[..<head])
                let path = (ordered + [ordered[0]]).map { graph.nodes[$0].key }
                // A type built just in time is declared where its initializer is.
                let recipe = graph.nodes[ordered[0]].recipe
                problems.append(InjectionError.Problem(.cycle(path), path: path,
                                                       location: recipe?.location ?? recipe?.buildLocation))
            }
        }
        return problems
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
