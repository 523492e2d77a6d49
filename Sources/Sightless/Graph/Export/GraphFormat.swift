/// A way to write down an injector's compiled graph: ``Injector/exportGraph(as:)``.
///
/// ```swift
/// let dot = injector.exportGraph(as: .dot)          // dot -Tsvg graph.dot > graph.svg
/// let mermaid = injector.exportGraph(as: .mermaid)  // paste into a ```mermaid block
/// print(injector.exportGraph(as: .text))            // read it in a terminal
/// ```
///
/// Every format lists the same nodes in the same order, sorted by key, and each node's edges in
/// declaration order, so an export can be committed, diffed and compared in a test.
///
/// ```swift
/// print(GraphFormat.mermaid)   // mermaid
/// ```
public enum GraphFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Graphviz DOT: render with `dot -Tsvg`.
    case dot
    /// A Mermaid flowchart, which GitHub renders in a `mermaid` code block.
    case mermaid
    /// Plain text: one line per node, then one indented line per edge.
    case text

    /// The format's name, as the sample's `--format` option takes it.
    ///
    /// ```swift
    /// print(GraphFormat.mermaid)   // mermaid
    /// ```
    public var description: String { rawValue }
}
