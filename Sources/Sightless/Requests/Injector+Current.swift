extension Injector {
    /// The injector that dependencies read where they stand (``Injected``, ``Injection``)
    /// resolve from here: the innermost one a build, a `withChild`, `withOverrides` or
    /// `withCurrent(_:)` body made current for this task, else the one chosen
    /// for the process, else `nil`.
    ///
    /// ```swift
    /// try injector.withCurrent {
    ///     print(Injector.current === injector)   // true
    /// }
    /// ```
    public static var current: Injector? { CurrentInjection.found?.injector }

    /// Runs `body` with this injector current: the dependencies read where they stand by values
    /// made inside it resolve from this injector.
    ///
    /// ```swift
    /// let model = injector.withCurrent { FeedModel() }   // its @Injected properties read injector
    /// ```
    ///
    /// Making an injector current costs one task-local binding, for `body`'s duration; nothing
    /// is compiled or built until a value is read.
    public func withCurrent<Result>(_ body: () throws -> Result) rethrows -> Result {
        try CurrentInjection(injector: self).bound(body)
    }

    /// Awaits `body` with this injector current, where the caller runs.
    ///
    /// ```swift
    /// let page = try await injector.withCurrent { try await FeedModel().load() }
    /// ```
    nonisolated(nonsending)
    public func withCurrent<Result>(_ body: nonisolated(nonsending) () async throws -> Result) async rethrows -> Result {
        try await CurrentInjection(injector: self).bound(body)
    }

    /// Chooses this injector for the code of the process that no injector builds and no scope
    /// reaches — a view the UI framework makes, a legacy singleton — explicitly and once, at
    /// launch. Inside a build or a `withChild`, `withOverrides` or `withCurrent` body, that
    /// scope's injector is read instead.
    ///
    /// ```swift
    /// let injector = try Injector(modules: [AppModule()])
    /// try injector.chooseForProcess()
    /// ```
    ///
    /// No injector is ever chosen implicitly: until one is, a read outside every scope throws
    /// ``InjectionError/Kind/noInjector`` (an ``Injected`` property uses its default and reports
    /// it).
    ///
    /// - Throws: ``InjectionError/Kind/processInjectorChosen`` when an injector was chosen
    ///   already, naming where.
    public func chooseForProcess(fileID: String = #fileID, line: Int = #line) throws(InjectionError) {
        try ProcessInjector.choose(self, at: SourceLocation(fileID: fileID, line: line))
    }
}
