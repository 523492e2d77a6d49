/// Writes a graph as plain text: each node with its scope and source, then its edges.
///
/// ```
/// Api — singleton, alias, kept by this injector
///   bound to → HttpApi
/// HttpApi — unscoped, just-in-time type
/// ```
struct TextExporter {
    func export(_ graph: ExportedGraph) -> String {
        var lines: [String] = []
        for node in graph.nodes {
            lines.append("\(node.key) — \(node.summary)")
            for edge in node.edges {
                lines.append("  \(edge.label) → \(Self.target(of: edge, in: graph))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The key an edge leads to, or what happens when nothing fills it.
    static func target(of edge: ExportedGraph.Edge, in graph: ExportedGraph) -> String {
        guard let target = edge.target else {
            return edge.dependency.isOptional
                ? "\(edge.dependency.key): nil (nothing bound)"
                : "\(edge.dependency.key): missing (nothing bound)"
        }
        return graph.nodes[target].key.description
    }
}
