/// One scoped node of a template, under which each child keeps its provision: the node's
/// index among the template's scoped nodes, where a child finds it without hashing.
///
/// Indices are dense per template (`CompilationOwner.nextScopeSlot()`), so a child's
/// provisions are an array as long as the template has scoped nodes reached so far.
struct ScopeSlot: Sendable {
    let index: Int

    /// The next slot of the template whose graph is `owner`.
    init(_ owner: CompilationOwner) {
        index = owner.nextScopeSlot()
    }
}
