/// Writes a graph as a Mermaid flowchart, which GitHub renders in a `mermaid` code block.
struct MermaidExporter {
    func export(_ graph: ExportedGraph) -> String {
        let ids = graph.identifiers(identifier).map { $0.replacingSpaces() }
        var lines = ["flowchart LR"]
        for (position, node) in graph.nodes.enumerated() {
            lines.append("  \(ids[position])[\"\(escape(node.key.description))<br/>\(escape(node.summary))\"]")
        }
        for (position, node) in graph.nodes.enumerated() {
            for edge in node.edges {
                guard let target = edge.target else { continue }
                let arrow = edge.isDashed ? "-.->" : "-->"
                lines.append("  \(ids[position]) \(arrow)|\"\(escape(edge.label))\"| \(ids[target])")
            }
        }
        let singletons = graph.nodes.indices.filter { graph.nodes[$0].scope?.strategy.sharesValues == true }.map { ids[$0] }
        if !singletons.isEmpty {
            lines.append("  classDef singleton stroke-width:3px")
            lines.append("  class \(singletons.joined(separator: ",")) singleton")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Mermaid identifiers allow letters, digits and underscores.
    private func identifier(_ key: AnyKey) -> String {
        String(key.description.map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }

    /// Mermaid reads `"`, `<` and `>` in a label as its own syntax or as HTML.
    private func escape(_ text: String) -> String {
        text.escaping(["\"": "#quot;", "<": "#lt;", ">": "#gt;"])
    }
}

private extension String {
    /// The ` #2` suffix of a repeated identifier, made valid for Mermaid.
    func replacingSpaces() -> String {
        String(map { $0 == " " || $0 == "#" ? "_" : $0 })
    }
}
