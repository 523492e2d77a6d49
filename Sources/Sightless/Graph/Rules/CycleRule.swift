/// Reports every set of keys that need each other to be built, each as its shortest cycle:
/// `A → B → C → A`. Iterative throughout, so a graph of any depth is checked without
/// exhausting the stack.
struct CycleRule: GraphRule {
    func check(_ graph: BindingGraph) -> [InjectionError.Problem] {
        let successors = graph.nodes.map { node in node.edges.filter { !$0.isDeferred }.compactMap(\.target) }
        return Self.stronglyConnectedComponents(successors).compactMap { component in
            guard let start = component.min() else { return nil }
            let members = Set(component)
            guard component.count > 1 || successors[start].contains(start) else { return nil }
            guard let cycle = Self.shortestCycle(from: start, within: members, successors: successors) else { return nil }
            let path = cycle.map { graph.nodes[$0].key } + [graph.nodes[start].key]
            return InjectionError.Problem(.cycle(path), path: path, location: graph.nodes[start].recipe?.location)
        }
    }

    /// Tarjan's algorithm with an explicit stack.
    static func stronglyConnectedComponents(_ successors: [[Int]]) -> [[Int]] {
        let count = successors.count
        var index = [Int](repeating: -1, count: count)
        var lowLink = [Int](repeating: 0, count: count)
        var onStack = [Bool](repeating: false, count: count)
        var stack: [Int] = []
        var components: [[Int]] = []
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
                if edge < successors[node].count {
                    work[work.count - 1].edge += 1
                    let next = successors[node][edge]
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
                    var component: [Int] = []
                    while let member = stack.popLast() {
                        onStack[member] = false
                        component.append(member)
                        if member == node { break }
                    }
                    components.append(component)
                }
            }
        }
        return components
    }

    /// The nodes of the shortest cycle through `start`, by breadth-first search.
    static func shortestCycle(from start: Int, within members: Set<Int>, successors: [[Int]]) -> [Int]? {
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
