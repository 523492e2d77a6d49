/// Writes the tree of what building one key takes, depth first, in declaration order.
///
/// ```
/// FeedScreen — unscoped, just-in-time type, dynamic: String
/// ├─ argument 1 → Api — singleton, alias
/// │  └─ bound to → HttpApi — unscoped, just-in-time type
/// └─ property \FeedScreen.logger (optional) → Logger — singleton, type, kept by this injector
/// ```
///
/// A node reached a second time is not expanded again: the tree stays as small as the graph.
struct ExplainExporter {
    func explain(_ root: Int, in graph: ExportedGraph) -> String {
        var lines = [line(for: root, in: graph)]
        var expanded: Set<Int> = [root]
        // Each frame: the node's edges still to write, and the prefix of their lines.
        var stack: [(edges: ArraySlice<ExportedGraph.Edge>, prefix: String)] = [(graph.nodes[root].edges[...], "")]
        while let (edges, prefix) = stack.last {
            guard let edge = edges.first else {
                stack.removeLast()
                continue
            }
            stack[stack.count - 1].edges = edges.dropFirst()
            let isLast = edges.count == 1
            let branch = prefix + (isLast ? "└─ " : "├─ ")
            guard let target = edge.target else {
                lines.append(branch + "\(edge.label) → \(TextExporter.target(of: edge, in: graph))")
                continue
            }
            let node = graph.nodes[target]
            if expanded.insert(target).inserted || node.edges.isEmpty {
                lines.append(branch + "\(edge.label) → \(line(for: target, in: graph))")
                stack.append((node.edges[...], prefix + (isLast ? "   " : "│  ")))
            } else {
                lines.append(branch + "\(edge.label) → \(node.key) (see above)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func line(for node: Int, in graph: ExportedGraph) -> String {
        "\(graph.nodes[node].key) — \(graph.nodes[node].summary)"
    }
}
