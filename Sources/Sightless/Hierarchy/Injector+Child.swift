extension Injector {
    /// A child injector: it sees this injector's bindings and shares its singletons, adds the
    /// bindings of its own modules, and keeps its own singletons, which live and die with it.
    ///
    /// ```swift
    /// // One child per HTTP request, with the request's user bound in it.
    /// let requestInjector = try injector.child { $0.bind(User.self).to(instance: user) }
    /// let handler = try requestInjector.getInstance(NotesHandler.self)
    /// ```
    ///
    /// The child is validated when it is made, its parent's keys included: a child's type that
    /// needs a key neither binds is reported now, with its path. A child's module may not bind a
    /// key its parent binds (an error naming both); pass such a binding in `overrides` to replace
    /// the parent's in this child. What the parent has already compiled (its singletons, and
    /// the types they need) stays the parent's: a parent's binding never sees a child's.
    ///
    /// A type injecting ``Injector`` gets the injector that built it: built for the child, the
    /// child. A value a scope keeps is built for the injector whose binding it comes from: a
    /// parent's singleton first requested through a child gets the parent. The child keeps its
    /// parent alive; the parent does not keep its children. Dropping a child releases its values
    /// without closing them: shut it down, or make it with `withChild(modules:overrides:_:)`,
    /// which shuts it down when its closure returns or throws.
    ///
    /// For a child made per request or per screen, declare a ``ChildTemplate`` once with
    /// ``childTemplate(providing:fileID:line:_:)`` instead: making a child from it compiles
    /// nothing.
    ///
    /// - Throws: an ``InjectionError`` listing every problem of the child's graph.
    public func child(modules: [any Module] = [], overrides: [any Module] = []) throws(InjectionError) -> Injector {
        try child(modules: modules, overrides: overrides, recording: { _ in })
    }

    /// A child injector with the bindings of `modules`, then those `recording` records in place.
    func child(
        modules: [any Module], overrides: [any Module], recording: (Binder) -> Void,
        recordingOverrides: (Binder) -> Void = { _ in }
    ) throws(InjectionError) -> Injector {
        guard let compilation = graphCompilation else { return self }
        // Marked as a parent before it is checked, so that a shutdown racing it counts it as one.
        lifecycle.markParent()
        if isShutDownInFamily { throw shutDownError(AnyKey(type: Injector.self, name: nil)) }
        let (nodes, childCompilation) = try GraphCompilation.build(
            modules: modules, overrides: overrides, parent: .init(nodes: self.nodes, compilation: compilation),
            recording: recording, recordingOverrides: recordingOverrides)
        let child = Injector(nodes: nodes, compilation: childCompilation, parent: self)
        // Registered with this injector's lifecycle, so that a shutdown of this injector closes
        // the child's values first.
        _ = child.lifecycle
        try child.buildEagerValues()
        return child
    }

    /// A child injector whose bindings are recorded in place: the short form of
    /// ``child(modules:overrides:)`` for the values of one request or session.
    ///
    /// ```swift
    /// let session = try injector.child { $0.bind(User.self).to(instance: user) }
    /// ```
    public func child(_ bindings: (Binder) -> Void) throws(InjectionError) -> Injector {
        try child(modules: [], overrides: [], recording: bindings)
    }
}
