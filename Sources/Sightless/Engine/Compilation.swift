/// What the injector asks of the graph compiler after it is built: to compile a key on its first
/// request. Implemented by the graph layer, which knows the recorded bindings.
protocol Compilation: AnyObject, Sendable {
    /// The identity of the compiled graph, which the plans of kept values look for.
    var owner: CompilationOwner { get }
    /// Compiles, validates and links `key` and everything it needs that is not compiled yet,
    /// adding the new nodes to `nodes`; returns the node of `key`.
    func compile(_ key: AnyKey, into nodes: NodeTable) throws(InjectionError) -> AnyNode
}
