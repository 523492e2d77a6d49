/// What an injector runs and where it sits in its family: the compiled nodes, the compilation
/// that compiles keys on their first request, the parent, and what the family shares.
///
/// An injector holds its one `InjectorGraph` and nothing else that it shares. Every child a
/// ``ChildTemplate`` makes shares the template's, so making a child retains one object rather
/// than each part of it, and releasing the child releases that one.
@usableFromInline
final class InjectorGraph: Sendable {
    /// The compiled nodes, by key.
    @usableFromInline let nodes: NodeTable
    /// Compiles keys on their first request.
    let compilation: any Compilation
    /// The identity of the compiled graph (`compilation.owner`).
    @usableFromInline let owner: CompilationOwner
    /// The injector a child was made from, kept alive by the child through this graph.
    @usableFromInline let parent: Injector?
    /// What the injectors of the family share: made by the root, handed to each child.
    @usableFromInline let family: InjectorFamily
    /// For a template's children, where their values lie: held here for as long as a child is.
    let layout: ProvidedLayout?

    init(nodes: NodeTable, compilation: any Compilation, parent: Injector?, layout: ProvidedLayout? = nil) {
        self.nodes = nodes
        self.layout = layout
        self.compilation = compilation
        owner = compilation.owner
        self.parent = parent
        family = parent?.family ?? InjectorFamily()
    }
}
