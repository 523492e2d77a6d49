/// The node table of an injector's graph, held by the injector without reference counting: a
/// child made from a template retains and releases only its graph.
///
/// Invariant: an injector holds its `graph` for its whole life, and the graph holds this table
/// (`InjectorGraph.nodes`); only that injector reads it, during a call on it.
@usableFromInline
@safe struct GraphNodes: Sendable {
    @usableFromInline let unmanaged: Unmanaged<NodeTable>

    @inlinable @inline(__always)
    init(_ graph: InjectorGraph) { unsafe unmanaged = .passUnretained(graph.nodes) }

    /// The table, retained by the caller from here on.
    @inlinable @inline(__always)
    var table: NodeTable { unsafe unmanaged.takeUnretainedValue() }

    /// Runs `body` with the table, retaining nothing.
    @inlinable @inline(__always)
    func reading<Result>(_ body: (NodeTable) -> Result) -> Result {
        unsafe unmanaged.borrowing(body)
    }
}
