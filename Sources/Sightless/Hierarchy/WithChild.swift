// The scoped forms of a child: made, handed to a body, and shut down when the body ends, however
// it ends. Dropping a child releases its values without closing them; these forms close them.

extension ChildTemplate {
    /// Makes a child with `values`, runs `body` with it, and shuts the child down when `body`
    /// returns or throws: the request scope that always closes what the child kept.
    ///
    /// ```swift
    /// let page = try requests.withChild(user, request) { child in
    ///     try child.getInstance(NotesHandler.self).render()
    /// }   // the child's Closable values are closed here, even if render() threw
    /// ```
    ///
    /// The child's ``Closable`` values are closed as ``Injector/shutDown()`` closes them: newest
    /// first, each once, the failures reported together as ``InjectionError/Kind/closeFailed``
    /// after `body` returned. When `body` throws, its error is rethrown as it is, and a failure
    /// to close is not reported over it. This form cannot await: a child that keeps
    /// ``AsyncClosable`` values, or values whose binding closes them with `await`, is closed
    /// by the `async` `withChild(_:body:)` instead.
    ///
    /// The child is current for `body` (``Injector/current``): a value made inside it that
    /// reads dependencies where they stand (``Injection``, ``Injected``) reads the child.
    ///
    /// The child is the body's for the body's duration only. Kept beyond it (stored, or
    /// returned), it is an injector shut down: its requests throw
    /// ``InjectionError/Kind/injectorShutDown``. A value the body got from it stays with whoever
    /// holds it, closed if it was one of the child's kept values.
    ///
    /// A draining shutdown of the template's parent, or of one of its parents
    /// (``Injector/awaitShutDown(draining:)``), waits for the body to return before it closes
    /// their values, and refuses a `withChild` that starts while it waits.
    ///
    /// - Throws: an ``InjectionError`` when the child cannot be made (see ``child(_:)``) or its
    ///   values fail to close, ``InjectionError/Kind/injectorShutDown`` when a draining shutdown
    ///   refuses it, or the error `body` threw.
    ///
    /// Unavailable from `async` code, where `try await template.withChild(values) { child in … }`
    /// picks the `async` form even for a synchronous body, and closes everything.
    @available(*, noasync, message: "in async code, the async withChild closes AsyncClosable values and awaiting closers: write try await")
    public func withChild<Result>(_ values: repeat each Value, body: (Injector) throws -> Result) throws -> Result {
        let counted = try parent.enterBody(AnyKey(type: ChildTemplate<repeat each Value>.self, name: nil))
        defer { parent.leaveBody(counted) }
        return try Injector.closing(try child(repeat each values), after: body)
    }

    /// Makes a child with `values`, awaits `body` with it, and shuts the child down, awaiting
    /// the values that close with `await`, when `body` returns, throws or is cancelled: the
    /// request scope of an `async` handler.
    ///
    /// ```swift
    /// let notes = try await requests.withChild(user, request) { child in
    ///     try await child.instance(NotesHandler.self).list()
    /// }   // the child's Closable and AsyncClosable values are closed here
    /// ```
    ///
    /// The child's values are closed as ``Injector/awaitShutDown()`` closes them, ``Closable``
    /// and ``AsyncClosable`` alike: newest first, each once, the failures reported together as
    /// ``InjectionError/Kind/closeFailed`` after `body` returned. When `body` throws, its error
    /// is rethrown as it is, and a failure to close is not reported over it. A task cancelled
    /// while `body` runs still closes the child: cancelling ends `body` the way `body` reacts to
    /// it (a `CancellationError`, say), and the shutdown that follows runs every close; a
    /// close that checks `Task.isCancelled` sees the cancellation.
    ///
    /// `body` runs on the caller's actor, with the child current (``Injector/current``), across
    /// its suspensions. The child is the body's for the body's duration only:
    /// kept beyond it, it is an injector shut down, whose requests throw
    /// ``InjectionError/Kind/injectorShutDown``.
    ///
    /// A draining shutdown of the template's parent, or of one of its parents
    /// (``Injector/awaitShutDown(draining:)``), waits for the body to return before it closes
    /// their values, and refuses a `withChild` that starts while it waits.
    ///
    /// - Throws: an ``InjectionError`` when the child cannot be made (see ``child(_:)``) or its
    ///   values fail to close, ``InjectionError/Kind/injectorShutDown`` when a draining shutdown
    ///   refuses it, or the error `body` threw.
    nonisolated(nonsending)
    public func withChild<Result>(
        _ values: repeat each Value, body: nonisolated(nonsending) (Injector) async throws -> Result
    ) async throws -> Result {
        let counted = try parent.enterBody(AnyKey(type: ChildTemplate<repeat each Value>.self, name: nil))
        defer { parent.leaveBody(counted) }
        let child = try child(repeat each values)
        return try await Injector.closing(child, after: body)
    }

    /// Makes a child with `values`, runs the synchronous `body` with it, and shuts the child
    /// down, awaiting the values that close with `await`: what `async` code gets when its body
    /// does not await.
    ///
    /// ```swift
    /// let title = try await requests.withChild(user, request) { child in
    ///     try child.getInstance(NotesHandler.self).title
    /// }   // the child's Closable and AsyncClosable values are closed here
    /// ```
    ///
    /// Closes as the `async` `withChild(_:body:)` does; Swift prefers it to the synchronous
    /// form in `async` code, where that form is unavailable.
    nonisolated(nonsending)
    public func withChild<Result>(_ values: repeat each Value, body: (Injector) throws -> Result) async throws -> Result {
        // Counted by a draining shutdown as the async form's body is.
        let counted = try parent.enterBody(AnyKey(type: ChildTemplate<repeat each Value>.self, name: nil))
        defer { parent.leaveBody(counted) }
        let child = try child(repeat each values)
        return try await Injector.closing(child) { child async throws in try body(child) }
    }
}

extension Injector {
    /// Makes a child with the bindings of `modules` and `overrides`, runs `body` with it, and
    /// shuts the child down when `body` returns or throws.
    ///
    /// ```swift
    /// let report = try injector.withChild(modules: [ReportModule(month: 11)]) { child in
    ///     try child.getInstance(ReportBuilder.self).build()
    /// }   // the child's Closable values are closed here
    /// ```
    ///
    /// The child is made as ``child(modules:overrides:)`` makes it, current for `body`, and
    /// closed as ``ChildTemplate``'s `withChild(_:body:)` closes a template's child: `body`'s
    /// error wins over a failure to close, ``AsyncClosable`` values need the `async` form, and a
    /// child kept beyond `body` is shut down.
    ///
    /// - Throws: an ``InjectionError`` listing the problems of the child's graph, or reporting
    ///   its values' failures to close, ``InjectionError/Kind/injectorShutDown`` when a draining
    ///   shutdown (``awaitShutDown(draining:)``) refuses it; or the error `body` threw.
    ///
    /// Unavailable from `async` code, where `try await injector.withChild(modules: …) { child in … }`
    /// picks the `async` form even for a synchronous body, and closes everything.
    @available(*, noasync, message: "in async code, the async withChild closes AsyncClosable values and awaiting closers: write try await")
    public func withChild<Result>(
        modules: [any Module] = [], overrides: [any Module] = [], _ body: (Injector) throws -> Result
    ) throws -> Result {
        let counted = try enterBody(AnyKey(type: Injector.self, name: nil))
        defer { leaveBody(counted) }
        return try Injector.closing(try child(modules: modules, overrides: overrides), after: body)
    }

    /// Makes a child with the bindings of `modules` and `overrides`, awaits `body` with it, and
    /// shuts the child down, awaiting what closes with `await`, when `body` returns, throws or
    /// is cancelled.
    ///
    /// ```swift
    /// let report = try await injector.withChild(modules: [ReportModule(month: 11)]) { child in
    ///     try await child.instance(ReportBuilder.self).build()
    /// }
    /// ```
    ///
    /// The async form of `withChild(modules:overrides:_:)`, closing as
    /// ``ChildTemplate``'s `async` `withChild(_:body:)` does.
    ///
    /// - Throws: an ``InjectionError`` listing the problems of the child's graph, or reporting
    ///   its values' failures to close, ``InjectionError/Kind/injectorShutDown`` when a draining
    ///   shutdown (``awaitShutDown(draining:)``) refuses it; or the error `body` threw.
    nonisolated(nonsending)
    public func withChild<Result>(
        modules: [any Module] = [], overrides: [any Module] = [],
        _ body: nonisolated(nonsending) (Injector) async throws -> Result
    ) async throws -> Result {
        let counted = try enterBody(AnyKey(type: Injector.self, name: nil))
        defer { leaveBody(counted) }
        let child = try child(modules: modules, overrides: overrides)
        return try await Injector.closing(child, after: body)
    }

    /// Makes a child with the bindings of `modules` and `overrides`, runs the synchronous `body`
    /// with it, and shuts the child down, awaiting what closes with `await`: what `async` code
    /// gets when its body does not await.
    ///
    /// ```swift
    /// let total = try await injector.withChild(modules: [ReportModule(month: 11)]) { child in
    ///     try child.getInstance(ReportBuilder.self).total
    /// }   // the child's Closable and AsyncClosable values are closed here
    /// ```
    ///
    /// Closes as the `async` `withChild(modules:overrides:_:)` does; Swift prefers it to the
    /// synchronous form in `async` code, where that form is unavailable.
    nonisolated(nonsending)
    public func withChild<Result>(
        modules: [any Module] = [], overrides: [any Module] = [], _ body: (Injector) throws -> Result
    ) async throws -> Result {
        // Counted by a draining shutdown as the async form's body is.
        let counted = try enterBody(AnyKey(type: Injector.self, name: nil))
        defer { leaveBody(counted) }
        let child = try child(modules: modules, overrides: overrides)
        return try await Injector.closing(child) { child async throws in try body(child) }
    }

    /// Runs `body` with `child`, current for it, then shuts `child` down, whether `body`
    /// returned or threw: `body`'s error wins over a failure to close.
    static func closing<Result>(
        _ child: Injector, reporting reported: ReportedReads? = nil, after body: (Injector) throws -> Result
    ) throws -> Result {
        let result: Result
        do {
            // The child is current for the body: what it makes reads its dependencies there.
            result = try CurrentInjection(injector: child, reported: reported).bound { try body(child) }
        } catch {
            try? child.shutDown()
            throw error
        }
        try child.shutDown()
        return result
    }

    /// Awaits `body` with `child`, current for it, then shuts `child` down, whether `body`
    /// returned or threw: `body`'s error wins over a failure to close.
    nonisolated(nonsending)
    static func closing<Result>(
        _ child: Injector, reporting reported: ReportedReads? = nil,
        after body: nonisolated(nonsending) (Injector) async throws -> Result
    ) async throws -> Result {
        let result: Result
        do {
            result = try await CurrentInjection(injector: child, reported: reported).bound { try await body(child) }
        } catch {
            try? await child.awaitShutDown()
            throw error
        }
        try await child.awaitShutDown()
        return result
    }
}
