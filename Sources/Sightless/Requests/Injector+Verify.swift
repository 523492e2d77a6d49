extension Injector {
    /// Checks an app's whole graph, and builds nothing: the graph of `modules`, every entry point
    /// they declare, and every child template `templates` declares from it. The first test
    /// every app writes.
    ///
    /// ```swift
    /// @Test("the app's graph is valid") func graph() throws {
    ///     try Injector.verify(modules: [AppModule()], templates: [
    ///         { app in try app.childTemplate(providing: User.self, modules: [RequestModule()]) },
    ///     ])
    /// }
    /// ```
    ///
    /// In an XCTest test case, the same call in one line:
    ///
    /// ```swift
    /// func testTheAppsGraphIsValid() {
    ///     XCTAssertNoThrow(try Injector.verify(modules: [AppModule()]))
    /// }
    /// ```
    ///
    /// It throws what ``init(modules:overrides:)`` and `childTemplate(…)` throw, the same
    /// problems in the same words (each with its path, the file and line to change, and the
    /// fix), all of them in one ``InjectionError``: the graph's problems, then each template's,
    /// in the order of `templates`. A template is declared from the app's injector, so it is
    /// checked only when that graph has no problem.
    ///
    /// Give each template a closure of its own: a closure stops at the first template that
    /// fails, and the next closure is checked all the same. The closure declares the template as
    /// the app does, best by calling the app's own function, so that the check cannot drift from
    /// the app; what it returns is dropped, and the template makes no child.
    ///
    /// ```swift
    /// // The app:   requests = try Server.requests(of: injector)
    /// // Its test:  try Injector.verify(modules: [ServerModule()], templates: [Server.requests(of:)])
    /// ```
    ///
    /// Nothing is built: not the values of eager scopes (``Scope/eagerSingleton``), which
    /// ``init(modules:overrides:)`` builds at once, nor anything a module or a template binds.
    /// The modules are configured, as for any injector, so a module that does work in
    /// ``Module/configure(_:)`` does it here too. Declare every type the app requests at run time
    /// as an entry point (``Binder/entryPoint(_:fileID:line:)-(Value.Type,_,_)``): a type
    /// requested only later is compiled, and checked, on its first request.
    ///
    /// Call it where the app builds its injector: an app whose types are isolated to the main
    /// actor (``MainActorInjectable``) verifies its graph on the main actor, in a `@MainActor`
    /// test, as its start-up builds it there; off the main actor, such a type is a problem of
    /// kind ``InjectionError/Kind/offActor``.
    ///
    /// - Parameters:
    ///   - modules: the app's modules, as it builds its injector with them.
    ///   - overrides: the overrides the app builds its injector with, if any.
    ///   - awaitingEagerValues: `true` for an app that builds its injector with
    ///     ``start(modules:overrides:)``, whose eager singletons may need `await`; `false`, the
    ///     default, checks the graph as ``init(modules:overrides:)`` builds it, which reports an
    ///     eager singleton that needs `await` (``InjectionError/Kind/needsAwait``).
    ///   - templates: closures that each declare a child template from the app's injector, given
    ///     to them.
    /// - Throws: an ``InjectionError`` listing every problem found; an error of another type
    ///   that a closure of `templates` throws is one of them, of kind
    ///   ``InjectionError/Kind/initializerFailed``, naming the closure by its place
    ///   (`Injector(named: "templates[1]")`).
    public static func verify(
        modules: [any Module], overrides: [any Module] = [], awaitingEagerValues: Bool = false,
        templates: [(Injector) throws -> Any] = []
    ) throws(InjectionError) {
        // Compiled as an injector is built, without its eager values: `build` compiles,
        // validates and links; only `buildEagerValues` builds.
        let (nodes, compilation) = try GraphCompilation.build(
            modules: modules, overrides: overrides, awaitsEagerValues: awaitingEagerValues)
        let app = Injector(nodes: nodes, compilation: compilation)
        var problems: [InjectionError.Problem] = []
        for (index, template) in templates.enumerated() {
            do {
                _ = try template(app)
            } catch let error as InjectionError {
                problems += error.problems
            } catch {
                // Named by its place in `templates`: the closure is all the check knows of it.
                let key = AnyKey(type: Injector.self, name: "templates[\(index)]")
                problems += InjectionError(.initializerFailed(key: key, error: String(describing: error)), path: [key]).problems
            }
        }
        if let error = InjectionError(problems: problems) { throw error }
    }
}
