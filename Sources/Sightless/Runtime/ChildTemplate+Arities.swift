// The child templates of one, two and three values, declared with the values' types known: the
// plans reading a child's values and the code destroying them are then specialized for their
// types (the variadic overloads in ChildTemplate.swift run that code generically, which costs a
// few hundred instructions per child). Overload resolution prefers these to the variadic ones;
// the documentation shows the variadic forms only, since the two read the same.

extension Injector {
    /// Declares a child injector made once per request, session or screen with one value of its
    /// own, the keys given, plus the bindings of `modules`.
    ///
    /// ```swift
    /// let requests = try app.childTemplate(providing: Key<User>(), modules: [RequestModule()])
    /// ```
    ///
    /// The same as the variadic form, specialized for one value.
    @inlinable @_documentation(visibility: internal)
    public func childTemplate<A: Sendable>(
        providing a: Key<A>, modules: [any Module] = [], overrides: [any Module] = [],
        fileID: String = #fileID, line: Int = #line
    ) throws(InjectionError) -> ChildTemplate<A> {
        let provided = ProvidedValues()
        provided.add(a)
        return try childTemplate(
            provided, modules: modules, overrides: overrides, location: SourceLocation(fileID: fileID, line: line))
    }

    /// Declares a child injector made once per request, session or screen with one value of the
    /// types given (each the key with no name), plus the bindings of `modules`.
    ///
    /// ```swift
    /// let requests = try app.childTemplate(providing: User.self, modules: [RequestModule()])
    /// ```
    ///
    /// The same as the variadic form, specialized for one value.
    @inlinable @_documentation(visibility: internal)
    public func childTemplate<A: Sendable>(
        providing a: A.Type, modules: [any Module] = [], overrides: [any Module] = [],
        fileID: String = #fileID, line: Int = #line
    ) throws(InjectionError) -> ChildTemplate<A> {
        try childTemplate(providing: Key<A>(), modules: modules, overrides: overrides, fileID: fileID, line: line)
    }

    /// Declares a child injector made once per request, session or screen with one value of the
    /// types given, and the bindings `bindings` records in place.
    ///
    /// ```swift
    /// let requests = try app.childTemplate(providing: User.self) { binder in
    ///     binder.entryPoint(NotesHandler.self)
    /// }
    /// let child = try requests.child(user)
    /// ```
    ///
    /// The same as the variadic form, specialized for one value.
    @inlinable @_documentation(visibility: internal)
    public func childTemplate<A: Sendable>(
        providing a: A.Type, fileID: String = #fileID, line: Int = #line,
        _ bindings: (Binder) -> Void
    ) throws(InjectionError) -> ChildTemplate<A> {
        try withoutActuallyEscaping(bindings) { (bindings) throws(InjectionError) in
            try childTemplate(providing: Key<A>(), modules: [RecordingModule(record: bindings)],
                              fileID: fileID, line: line)
        }
    }

    /// Declares a child injector made once per request, session or screen with two values of its
    /// own, the keys given, plus the bindings of `modules`.
    ///
    /// ```swift
    /// let requests = try app.childTemplate(providing: Key<User>(), Key<Request>(), modules: [RequestModule()])
    /// ```
    ///
    /// The same as the variadic form, specialized for two values.
    @inlinable @_documentation(visibility: internal)
    public func childTemplate<A: Sendable, B: Sendable>(
        providing a: Key<A>, _ b: Key<B>, modules: [any Module] = [], overrides: [any Module] = [],
        fileID: String = #fileID, line: Int = #line
    ) throws(InjectionError) -> ChildTemplate<A, B> {
        let provided = ProvidedValues()
        provided.add(a)
        provided.add(b)
        return try childTemplate(
            provided, modules: modules, overrides: overrides, location: SourceLocation(fileID: fileID, line: line))
    }

    /// Declares a child injector made once per request, session or screen with two values of the
    /// types given (each the key with no name), plus the bindings of `modules`.
    ///
    /// ```swift
    /// let requests = try app.childTemplate(providing: User.self, Request.self, modules: [RequestModule()])
    /// ```
    ///
    /// The same as the variadic form, specialized for two values.
    @inlinable @_documentation(visibility: internal)
    public func childTemplate<A: Sendable, B: Sendable>(
        providing a: A.Type, _ b: B.Type, modules: [any Module] = [], overrides: [any Module] = [],
        fileID: String = #fileID, line: Int = #line
    ) throws(InjectionError) -> ChildTemplate<A, B> {
        try childTemplate(providing: Key<A>(), Key<B>(), modules: modules, overrides: overrides, fileID: fileID, line: line)
    }

    /// Declares a child injector made once per request, session or screen with two values of the
    /// types given, and the bindings `bindings` records in place.
    ///
    /// ```swift
    /// let requests = try app.childTemplate(providing: User.self, Request.self) { binder in
    ///     binder.entryPoint(NotesHandler.self)
    /// }
    /// let child = try requests.child(user, request)
    /// ```
    ///
    /// The same as the variadic form, specialized for two values.
    @inlinable @_documentation(visibility: internal)
    public func childTemplate<A: Sendable, B: Sendable>(
        providing a: A.Type, _ b: B.Type, fileID: String = #fileID, line: Int = #line,
        _ bindings: (Binder) -> Void
    ) throws(InjectionError) -> ChildTemplate<A, B> {
        try withoutActuallyEscaping(bindings) { (bindings) throws(InjectionError) in
            try childTemplate(providing: Key<A>(), Key<B>(), modules: [RecordingModule(record: bindings)],
                              fileID: fileID, line: line)
        }
    }

    /// Declares a child injector made once per request, session or screen with three values of its
    /// own, the keys given, plus the bindings of `modules`.
    ///
    /// ```swift
    /// let requests = try app.childTemplate(providing: Key<User>(), Key<Request>(), Key<String>(named: "requestID"), modules: [RequestModule()])
    /// ```
    ///
    /// The same as the variadic form, specialized for three values.
    @inlinable @_documentation(visibility: internal)
    public func childTemplate<A: Sendable, B: Sendable, C: Sendable>(
        providing a: Key<A>, _ b: Key<B>, _ c: Key<C>, modules: [any Module] = [], overrides: [any Module] = [],
        fileID: String = #fileID, line: Int = #line
    ) throws(InjectionError) -> ChildTemplate<A, B, C> {
        let provided = ProvidedValues()
        provided.add(a)
        provided.add(b)
        provided.add(c)
        return try childTemplate(
            provided, modules: modules, overrides: overrides, location: SourceLocation(fileID: fileID, line: line))
    }

    /// Declares a child injector made once per request, session or screen with three values of the
    /// types given (each the key with no name), plus the bindings of `modules`.
    ///
    /// ```swift
    /// let requests = try app.childTemplate(providing: User.self, Request.self, Session.self, modules: [RequestModule()])
    /// ```
    ///
    /// The same as the variadic form, specialized for three values.
    @inlinable @_documentation(visibility: internal)
    public func childTemplate<A: Sendable, B: Sendable, C: Sendable>(
        providing a: A.Type, _ b: B.Type, _ c: C.Type, modules: [any Module] = [], overrides: [any Module] = [],
        fileID: String = #fileID, line: Int = #line
    ) throws(InjectionError) -> ChildTemplate<A, B, C> {
        try childTemplate(providing: Key<A>(), Key<B>(), Key<C>(), modules: modules, overrides: overrides, fileID: fileID, line: line)
    }

    /// Declares a child injector made once per request, session or screen with three values of the
    /// types given, and the bindings `bindings` records in place.
    ///
    /// ```swift
    /// let requests = try app.childTemplate(providing: User.self, Request.self, Session.self) { binder in
    ///     binder.entryPoint(NotesHandler.self)
    /// }
    /// let child = try requests.child(user, request, session)
    /// ```
    ///
    /// The same as the variadic form, specialized for three values.
    @inlinable @_documentation(visibility: internal)
    public func childTemplate<A: Sendable, B: Sendable, C: Sendable>(
        providing a: A.Type, _ b: B.Type, _ c: C.Type, fileID: String = #fileID, line: Int = #line,
        _ bindings: (Binder) -> Void
    ) throws(InjectionError) -> ChildTemplate<A, B, C> {
        try withoutActuallyEscaping(bindings) { (bindings) throws(InjectionError) in
            try childTemplate(providing: Key<A>(), Key<B>(), Key<C>(), modules: [RecordingModule(record: bindings)],
                              fileID: fileID, line: line)
        }
    }
}
