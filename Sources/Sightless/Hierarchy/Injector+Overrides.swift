extension Injector {
    /// Runs `operation` with a child of this injector in which the bindings `overrides` records
    /// replace this injector's, current for `operation`, and shuts the child down when
    /// `operation` returns or throws: a test's patch of one dependency, in one line.
    ///
    /// ```swift
    /// let stamp = try injector.withOverrides({ $0.bind(Clock.self).to(instance: FixedClock()) }) { child in
    ///     try child.getInstance(Stamper.self).stamp()
    /// }
    /// ```
    ///
    /// What `operation` builds through the child, and what it makes that reads dependencies where
    /// they stand (``Injected``, ``Injection``), gets the overriding bindings. A value this
    /// injector keeps (a singleton) and has built, or builds later, stays this injector's, with
    /// its own bindings: override the singleton itself, or build the test's injector with
    /// `Injector(modules:overrides:)`, to replace what a singleton holds.
    ///
    /// A dependency read where it stands that falls back to its default inside `operation` is
    /// reported: when `operation` returns, those failures are thrown together, so a test sees
    /// them. The child's values are closed as `withChild(modules:overrides:_:)` closes them; its
    /// ``AsyncClosable`` values need the `async` form.
    ///
    /// - Throws: an ``InjectionError`` listing the problems of the child's graph (an override
    ///   that replaces nothing among them), the reads that fell back to their default, or the
    ///   child's failures to close; or the error `operation` threw.
    public func withOverrides<Result>(
        _ overrides: (Binder) -> Void, operation: (Injector) throws -> Result
    ) throws -> Result {
        let reported = ReportedReads()
        let result = try Injector.closing(
            try child(modules: [], overrides: [], recording: { _ in }, recordingOverrides: overrides),
            reporting: reported, after: operation)
        if let error = reported.thrown { throw error }
        return result
    }

    /// Awaits `operation` with a child of this injector in which the bindings `overrides`
    /// records replace this injector's, current for `operation`, and shuts the child down,
    /// awaiting what closes with `await`, when `operation` returns, throws or is cancelled.
    ///
    /// ```swift
    /// let page = try await injector.withOverrides({ $0.bind(Api.self).to(instance: FakeApi()) }) { child in
    ///     try await child.instance(FeedScreen.self, arguments: "Inbox").load()
    /// }
    /// ```
    ///
    /// The `async` form of `withOverrides(_:operation:)`, with the same meaning.
    nonisolated(nonsending)
    public func withOverrides<Result>(
        _ overrides: (Binder) -> Void,
        operation: nonisolated(nonsending) (Injector) async throws -> Result
    ) async throws -> Result {
        let reported = ReportedReads()
        let child = try child(modules: [], overrides: [], recording: { _ in }, recordingOverrides: overrides)
        let result = try await Injector.closing(child, reporting: reported, after: operation)
        if let error = reported.thrown { throw error }
        return result
    }

    /// Awaits a synchronous `operation` with a child of this injector patched by `overrides`,
    /// and shuts the child down awaiting what closes with `await`: what `async` code gets when
    /// its operation does not await.
    ///
    /// ```swift
    /// let stamp = try await injector.withOverrides({ $0.bind(Clock.self).to(instance: FixedClock()) }) { child in
    ///     try child.getInstance(Stamper.self).stamp()
    /// }
    /// ```
    nonisolated(nonsending)
    public func withOverrides<Result>(
        _ overrides: (Binder) -> Void, operation: (Injector) throws -> Result
    ) async throws -> Result {
        try await withOverrides(overrides) { child async throws in try operation(child) }
    }
}
