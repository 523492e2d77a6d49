/// Writes a graph in Graphviz DOT. Nodes are identified by their keys, so that adding a
/// binding changes only the lines that concern it.
struct DotExporter {
    func export(_ graph: ExportedGraph) -> String {
        let ids = graph.identifiers { quote($0.description) }
        var lines = [
            "digraph Sightless {",
            "  rankdir=LR;",
            "  node [shape=box, fontname=\"Helvetica\"];",
            "  edge [fontname=\"Helvetica\", fontsize=10];",
        ]
        for (position, node) in graph.nodes.enumerated() {
            let style = node.scope?.strategy.sharesValues == true ? ", style=bold" : ""
            lines.append("  \(ids[position]) [label=\(quote(node.key.description + "\n" + node.summary))\(style)];")
        }
        for (position, node) in graph.nodes.enumerated() {
            for edge in node.edges {
                guard let target = edge.target else { continue }
                let style = edge.isDashed ? ", style=dashed" : ""
                lines.append("  \(ids[position]) -> \(ids[target]) [label=\(quote(edge.label))\(style)];")
            }
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A DOT string: backslashes and quotes escaped, line breaks as `\n`.
    private func quote(_ text: String) -> String {
        "\"" + text.escaping(["\\": "\\\\", "\"": "\\\"", "\n": "\\n"]) + "\""
    }
}
