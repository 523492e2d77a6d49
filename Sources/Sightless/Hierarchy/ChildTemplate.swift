/// A child injector declared once and made many times, each time with values of its own: the
/// cheap way to give every HTTP request, screen or session an injector of its own.
///
/// Declare the template when the app starts, naming the values each child is made with. The
/// template is compiled and validated then, with its parent: a handler that needs a key neither
/// binds is reported at start-up, not on the first request.
///
/// ```swift
/// let requests = try app.childTemplate(providing: User.self, Request.self) { binder in
///     binder.entryPoint(NotesHandler.self)
/// }
/// ```
///
/// Then make a child per request with only its values. Making one compiles nothing: it costs one
/// allocation whatever the size of the app's graph, with the values held in the child itself
/// when they fit (48 bytes: six references, or three strings), and one more when they do not.
/// The child keeps a copy of the values, laid out as one tuple of the template's types: for a
/// class or a string, a copy is one retain, released with the child.
///
/// ```swift
/// let child = try requests.child(user, request)
/// let handler = try child.getInstance(NotesHandler.self)
/// ```
///
/// A child made from a template is like any child injector: it sees its parent's bindings and
/// shares its singletons, and keeps its own singletons (the template's bindings in
/// ``Scope/singleton``), which live and die with it. Dropping a child releases them without
/// closing them: make the child with `withChild(_:body:)`, which shuts it down when the
/// request's code returns or throws, to close its ``Closable`` values.
///
/// ```swift
/// let notes = try await requests.withChild(user, request) { child in
///     try await child.instance(NotesHandler.self).list()
/// }
/// ```
public final class ChildTemplate<each Value: Sendable>: Sendable {
    /// What every child runs, shared by all of them.
    let graph: InjectorGraph
    let parent: Injector
    let compilation: GraphCompilation
    /// Where the values of each child lie.
    @usableFromInline let layout: ProvidedLayout

    init(parent: Injector, nodes: NodeTable, compilation: GraphCompilation, layout: ProvidedLayout) {
        graph = InjectorGraph(nodes: nodes, compilation: compilation, parent: parent, layout: layout)
        self.parent = parent
        self.compilation = compilation
        self.layout = layout
    }

    /// A new child injector, given `values` for the keys the template provides, in order.
    ///
    /// ```swift
    /// let child = try requests.child(user, request)
    /// let handler = try child.getInstance(NotesHandler.self)
    /// ```
    ///
    /// Dropping the child releases its values without closing them; shut it down with
    /// ``Injector/shutDown()``, or make it with `withChild(_:body:)`, which does.
    ///
    /// - Throws: an ``InjectionError`` when a value of an eager singleton the template binds
    ///   fails to build, or when the parent was shut down.
    @inlinable
    public func child(_ values: repeat each Value) throws(InjectionError) -> Injector {
        var provided = ChildValues(layout: layout)
        provided.place((repeat each values))
        return try child(provided)
    }

    @usableFromInline
    func child(_ provided: consuming ChildValues) throws(InjectionError) -> Injector {
        if graph.family.parentShutdowns.load(ordering: .relaxed) != 0, parent.isShutDownInFamily {
            throw parent.shutDownError(AnyKey(type: ChildTemplate<repeat each Value>.self, name: nil))
        }
        let child = Injector(graph: graph, provided: provided)
        if !compilation.eager.isEmpty { try child.buildEagerValues() }
        return child
    }

    /// The template's graph, as ``Injector/exportGraph(as:)`` draws a child's: the keys it takes
    /// from its parent marked as the parent's, the values it provides as `provided`.
    ///
    /// ```swift
    /// print(requests.exportGraph(as: .text))
    /// ```
    public func exportGraph(as format: GraphFormat) -> String {
        Injector(graph: graph).exportGraph(as: format)
    }
}

extension Injector {
    /// Declares a child injector made once per request, session or screen with values of its
    /// own: the keys of `keys`, in order, plus the bindings of `modules`.
    ///
    /// ```swift
    /// let requests = try app.childTemplate(providing: Key<String>(named: "requestID"), Key<User>(),
    ///                                      modules: [RequestModule()])
    /// let child = try requests.child("7f3a", user)
    /// ```
    ///
    /// The template is compiled and validated now, with this injector's keys: what its modules
    /// bind and declare as entry points, and what those need. A key it provides may not be one
    /// this injector binds (an error naming both), nor be bound by its modules.
    ///
    /// - Throws: an ``InjectionError`` listing every problem of the template's graph.
    @inlinable
    public func childTemplate<each Value: Sendable>(
        providing keys: repeat Key<each Value>, modules: [any Module] = [], overrides: [any Module] = [],
        fileID: String = #fileID, line: Int = #line
    ) throws(InjectionError) -> ChildTemplate<repeat each Value> {
        let provided = ProvidedValues(as: (repeat each Value).self)
        repeat provided.add(each keys)
        return try childTemplate(
            provided, modules: modules, overrides: overrides, recording: { _ in },
            location: SourceLocation(fileID: fileID, line: line))
    }

    /// Declares a child injector made once per request, session or screen with no values of its
    /// own: the bindings of `modules`, compiled and validated once, now, and each child's
    /// singletons its own.
    ///
    /// ```swift
    /// let screens: ChildTemplate<> = try app.childTemplate(modules: [ScreenModule()])
    /// let screen = try screens.child()
    /// ```
    ///
    /// Unlike ``child(modules:overrides:)``, which compiles the child's graph each time, making a
    /// child from the template compiles nothing.
    ///
    /// - Throws: an ``InjectionError`` listing every problem of the template's graph.
    @inlinable
    public func childTemplate(
        modules: [any Module] = [], overrides: [any Module] = [], fileID: String = #fileID, line: Int = #line
    ) throws(InjectionError) -> ChildTemplate<> {
        try childTemplate(
            ProvidedValues(as: Void.self), modules: modules, overrides: overrides, recording: { _ in },
            location: SourceLocation(fileID: fileID, line: line))
    }

    /// Compiles and validates a template's graph, with this injector's as its parent's: the
    /// bindings of `modules`, then those `recording` records in place.
    @usableFromInline
    func childTemplate<each Value: Sendable>(
        _ provided: ProvidedValues, modules: [any Module], overrides: [any Module],
        recording: (Binder) -> Void, location: SourceLocation
    ) throws(InjectionError) -> ChildTemplate<repeat each Value> {
        guard let compilation = graphCompilation else {
            throw InjectionError(.internalInconsistency(.notLinked(key: Recipe.injectorKey)))
        }
        // Marked as a parent before it is checked, so that a shutdown racing it counts it as one.
        lifecycle.markParent()
        if isShutDownInFamily { throw shutDownError(AnyKey(type: ChildTemplate<repeat each Value>.self, name: nil)) }
        let (nodes, templateCompilation) = try GraphCompilation.build(
            modules: modules, overrides: overrides, parent: .init(nodes: self.nodes, compilation: compilation),
            provided: { binder in
                for (index, key) in provided.keys.enumerated() { key.record(binder, index, location) }
            },
            recording: recording, isTemplate: true)
        let providedKeys = templateCompilation.bindings.values.filter { $0.source == .provided }.map(\.key)
        compilation.templates.record(.init(location: location, provided: Set(providedKeys),
                                           bound: Set(templateCompilation.bindings.keys).subtracting(providedKeys)))
        return ChildTemplate(parent: self, nodes: nodes, compilation: templateCompilation, layout: provided.layout.layout(as: provided.tuple))
    }

    /// Declares a child injector made once per request, session or screen with values of its
    /// own, of the types `types` (each the key with no name), plus the bindings of `modules`.
    ///
    /// ```swift
    /// let requests = try app.childTemplate(providing: User.self, Request.self, modules: [RequestModule()])
    /// let child = try requests.child(user, request)
    /// ```
    @inlinable
    public func childTemplate<each Value: Sendable>(
        providing types: repeat (each Value).Type, modules: [any Module] = [], overrides: [any Module] = [],
        fileID: String = #fileID, line: Int = #line
    ) throws(InjectionError) -> ChildTemplate<repeat each Value> {
        try childTemplate(providing: repeat Key<each Value>(), modules: modules, overrides: overrides,
                          fileID: fileID, line: line)
    }

    /// Declares a child injector made once per request, session or screen with values of the
    /// types `types`, and the bindings `bindings` records in place.
    ///
    /// ```swift
    /// let requests = try app.childTemplate(providing: User.self, Request.self) { binder in
    ///     binder.bind(UnitOfWork.self).in(.singleton)     // one per child
    ///     binder.entryPoint(NotesHandler.self)            // validated now
    /// }
    /// ```
    @inlinable
    public func childTemplate<each Value: Sendable>(
        providing types: repeat (each Value).Type, fileID: String = #fileID, line: Int = #line,
        _ bindings: (Binder) -> Void
    ) throws(InjectionError) -> ChildTemplate<repeat each Value> {
        let provided = ProvidedValues(as: (repeat each Value).self)
        repeat provided.add(Key<each Value>())
        return try childTemplate(
            provided, modules: [], overrides: [], recording: bindings, location: SourceLocation(fileID: fileID, line: line))
    }
}
