extension Initializer {
    /// Describes an initializer or static factory isolated to the main actor, whose arguments
    /// are all filled from the bindings of their types: how a `@MainActor` type (see
    /// ``MainActorInjectable``) states its initializer.
    ///
    /// ```swift
    /// @MainActor
    /// final class FeedModel: MainActorInjectable {
    ///     init(feed: FeedService) { … }
    ///     static let initializer = Initializer(FeedModel.init(feed:))
    /// }
    /// ```
    ///
    /// The initializer is called on the main actor: synchronously when the request runs there,
    /// after awaiting it in ``Injector/instance(_:)-(Value.Type)``. `isolation` only tells this
    /// form apart from the nonisolated one; it is never written.
    public init<each Argument>(
        _ make: @escaping @MainActor @Sendable (repeat each Argument) throws -> Instance,
        fileID: String = #fileID, line: Int = #line, isolation: MainActor.Type = MainActor.self
    ) {
        self.init(make, repeat Slot<each Argument>.inject, fileID: fileID, line: line, isolation: isolation)
    }

    /// Describes an initializer or static factory isolated to the main actor, with one ``Slot``
    /// per argument: `.inject`, `.named(_:)`, `.key(_:)` or `.dynamic`.
    ///
    /// ```swift
    /// static let initializer = Initializer(DetailModel.init(feed:title:), .inject, .dynamic)
    /// let detail = try injector.getInstance(DetailModel.self, arguments: "Inbox")   // on the main actor
    /// ```
    public init<each Argument>(
        _ make: @escaping @MainActor @Sendable (repeat each Argument) throws -> Instance,
        _ slots: repeat Slot<each Argument>,
        fileID: String = #fileID, line: Int = #line, isolation: MainActor.Type = MainActor.self
    ) {
        // The plain form's plan, calling on the main actor; sharing it costs a call per build.
        let location = SourceLocation(fileID: fileID, line: line)
        let dependencies = Self.dependencies(of: repeat each slots, location: location)
        let built = AnyKey(type: Instance.self, name: nil)
        self.init(dependencies: dependencies, location: location, linkIsolated: { linker, completing in
            let plans = try linkArguments(dependencies, linker, as: repeat (each Argument).self)
            let steps = try completing()
            let rethrow = linker.rethrow
            // Read, built, filled and awoken in one main-actor region: one check, one entry.
            let body: MainActorPlan<Instance> = { resolution in
                var instance: Instance
                do {
                    try resolution.enterLevel()
                    defer { resolution.leaveLevel() }
                    var cursor = PlanCursor(plans)
                    instance = try make(repeat try cursor.next(&resolution, as: (each Argument).self))
                } catch {
                    throw rethrow(error)
                }
                try steps.complete(&instance, &resolution)
                return instance
            }
            return IsolatedPlan(plan: { resolution in
                try onMainActor(building: built, &resolution, rethrow: rethrow, body)
            }, body: body)
        })
    }
}
