// The recipes of values isolated to the main actor: a `MainActorInjectable` type, or an
// `Injectable` one whose initializer is a `@MainActor` function. Such a node is built on the
// main actor, and only there:
//
// - its synchronous plan runs when the request runs on the main actor, and throws `offActor`
//   otherwise;
// - its async plan awaits what needs `await`, then hops to the main actor and runs the
//   synchronous plan there, so a task anywhere can await it. A singleton's storage is only ever
//   filled on the main actor, one build at a time, so it is built once however many tasks await it.
//
// The node counts as needing `await` for consumers that are not on the main actor (its
// `awaited` key is its own), so a nonisolated consumer awaits it the way it awaits an `async`
// dependency; a consumer on the main actor finds it ready and builds it synchronously.

extension Recipe {
    /// The recipe of a type isolated to the main actor: its descriptors are read there, now, or
    /// the recipe reports `descriptorsOffActor` (an awaited request or `Injector.start` then
    /// compiles again on the main actor).
    static func mainActorType(
        _ type: any MainActorInjectable.Type, name: String?, location: SourceLocation?, justInTime: Bool
    ) -> Recipe {
        mainActorInjectable(type, name: name, location: location, justInTime: justInTime)
    }

    private static func mainActorInjectable<T: MainActorInjectable>(
        _ type: T.Type, name: String?, location: SourceLocation?, justInTime: Bool
    ) -> Recipe {
        let key = Key<T>(named: name)
        let erased = key.erased
        let source = Source.type(justInTime: justInTime)
        guard let (initializer, properties, scope) = try? onMainActor(building: erased, {
            (T.initializer, T.properties, T.scope)
        }) else {
            let problem = InjectionError.Problem(
                .descriptorsOffActor(key: erased, actor: ActorIsolation.mainActor.name), path: [erased], location: location)
            var recipe = Recipe(key, source: source, location: location, problems: [problem]) { _ in
                { _ in throw InjectionError(problem) }
            }
            recipe.isolation = .mainActor
            return recipe
        }
        let location = location ?? initializer.location
        let dependencies = initializer.dependencies + properties.dependencies
        guard let initializer = initializer as? Initializer<T>, let properties = properties as? Properties<T> else {
            let problem = InjectionError.Problem(
                .initializerOfOtherType(key: erased, builds: AnyKey(type: T.Instance.self, name: nil)), location: initializer.location)
            return Recipe(key, source: source, scope: scope, location: location, dependencies: dependencies,
                          problems: [problem], concreteType: T.self) { _ in
                { _ in throw InjectionError(problem) }
            }
        }
        let awake: @MainActor @Sendable (T) -> Void = { instance in instance.awakeFromInjection() }
        if let asyncLink = initializer.asyncLink {
            return awaitedMainActorInjectable(key, initializer: initializer, asyncLink: asyncLink, properties: properties,
                                              awake: awake, source: source, scope: scope, location: location)
        }
        return isolated(key, initializer: initializer, properties: properties, awake: awake, source: source, scope: scope,
                        location: location, dependencies: dependencies)
    }

    /// The recipe of a type whose initializer (and, for a `MainActorInjectable` type, whose
    /// `awakeFromInjection()`) is isolated to the main actor, built there: the initializer's
    /// plan reads its arguments, builds, sets the properties and calls `awake` (`nil`: nothing
    /// to call) in one main-actor region.
    static func isolated<T>(
        _ key: Key<T>, initializer: Initializer<T>, properties: Properties<T>,
        awake: (@MainActor @Sendable (T) -> Void)?,
        source: Source, scope: Scope, location: SourceLocation, dependencies: [Dependency],
        problems: [InjectionError.Problem] = []
    ) -> Recipe {
        // The recipe is an ordinary one marked with its actor: the graph decides the node's
        // isolation from that mark, and linking makes an isolated node of it (`isolatedNode`).
        var recipe = Recipe(key, source: source, scope: scope, location: location, dependencies: dependencies,
                            problems: problems, concreteType: T.self, buildLocation: initializer.location) { linker in
            if let linkIsolated = initializer.linkIsolated {
                let linked = try linkIsolated(linker) { MainActorSteps(properties: try properties.link(linker), awake: awake) }
                linker.mainActorBody = linked.body   // the whole build, as the node may run it from a consumer's region
                return linked.plan
            }
            let make = try initializer.link(linker)
            let setProperties = try properties.link(linker)
            let erased = key.erased
            return { resolution in
                var instance = try make(&resolution)
                try setProperties?(&instance, &resolution)
                if let awake {
                    let built = unsafe Transfer(instance)   // built on the main actor, where it awakes
                    try onMainActor(building: erased) { awake(built.value) }
                }
                return instance
            }
        }
        recipe.isolation = .mainActor
        return recipe
    }

    /// The node of a value the graph decided is built on the main actor (its own type's
    /// isolation, for an alias its target's, or for a kept nonisolated value its first build's,
    /// which needs a main-actor value at once): its unscoped `plan` is run on the main actor,
    /// synchronously there, awaited from anywhere else. A kept value already built is ready
    /// anywhere: reading it builds nothing.
    ///
    /// Given `body`, what the main-actor region of its initializer runs, when the initializer's
    /// plan is the node's whole build (unscoped, undecorated, unobserved), the node also has a
    /// main-actor plan (`Node.mainActorPlan`): a main-actor consumer's region runs `body` from
    /// there, with no check and no region of its own, or the node's plan when a section's
    /// prefetched values or reads where it stands (`presence`) need what that plan does.
    static func isolatedNode<Value>(
        _ key: AnyKey, plan isolatedPlan: @escaping Plan<Value>, _ linker: any Linking & LinkingNode, _ scope: Scope,
        body: MainActorPlan<Value>? = nil, presence: StandingReadsPresence? = nil
    ) -> AnyNode {
        // Checked before any argument is built: off the main actor, nothing is. A kept holder
        // names the isolated value it holds, with the path to it.
        let held = linker.heldIsolated
        // A request found on the main actor once is not looked at again below: what its plan
        // builds synchronously runs on the same thread (`Resolution.provenOnMainActor`).
        let plan: Plan<Value> = { resolution in
            if resolution.provenOnMainActor { return try isolatedPlan(&resolution) }
            guard ActorIsolation.mainActor.isCurrent else {
                throw InjectionError(.offActor(key: held?.isolated ?? key, actor: ActorIsolation.mainActor.name),
                                     path: held?.path ?? [key])
            }
            resolution.provenOnMainActor = true
            defer { resolution.provenOnMainActor = false }
            return try isolatedPlan(&resolution)
        }
        // Dependencies isolated to the main actor and needing nothing else are built in this
        // node's section, on the main actor: awaiting them apart would hop there twice.
        let awaited = AwaitedDependencies(nodes: linker.awaitedDependencies.filter { dependency in
            !(dependency.isolation == .mainActor && dependency.awaited == dependency.key)
        }, observing: linker.observers == nil ? nil : key)
        let reason = awaited.nodes.first?.awaited ?? key
        let unscoped: Plan<Value> = { resolution in
            if let value = resolution.prefetched?.take(key) { return try Prefetched.cast(value, key, as: Value.self) }
            return try plan(&resolution)
        }
        let provision = linker.closing(scope.scope(Provision(key: key, plan: unscoped, storage: nil)))
        let stored = provision.plan
        let storage = provision.storage
        let rethrow = linker.rethrow
        let asyncPlan: AsyncPlan<Value> = { request in
            if let value = storage?.existing(as: Value.self) { return value }
            let prefetched = try await awaited.values(request, rethrow: rethrow)
            let section = AsyncSection(request: request, prefetched: prefetched)
            return try await MainActor.run {
                unsafe Transfer(try section.run { resolution in try stored(&resolution) })
            }.value
        }
        // An awaited request builds it synchronously once every kept value it needs is stored,
        // not merely ready to be built (`AnyNode.isReady`).
        let settled: AnyNode.Settled = awaited.settlesApart ? .asked({ injector in
            storage?.isFilled == true || (ActorIsolation.mainActor.isCurrent && awaited.areSettled(in: injector))
        }) : .asReady
        let node = Node(provision, signature: linker.dynamicSignature, asyncPlan: asyncPlan, awaited: reason, ready: { injector in
            storage?.isFilled == true || (ActorIsolation.mainActor.isCurrent && awaited.areReady(in: injector))
        }, settled: settled)
        if let body, held == nil, storage == nil {
            let whole = node.plan
            node.mainActorPlan = { resolution in
                if resolution.prefetchedReference != nil || presence?.mayRead == true { return try whole(&resolution) }
                return try body(&resolution)
            }
        }
        return node
    }

    /// A `MainActorInjectable` type whose initializer is `async`: awaited like any `async`
    /// initializer (a `@MainActor` one runs on the main actor by itself), then its properties
    /// are set and it is awoken on the main actor.
    private static func awaitedMainActorInjectable<T: MainActorInjectable>(
        _ key: Key<T>, initializer: Initializer<T>,
        asyncLink: @escaping @Sendable (any Linking, (any Linking) throws -> AsyncFinish<T>?) throws -> Plan<AsyncBuild>,
        properties: Properties<T>,
        awake: @escaping @MainActor @Sendable (T) -> Void, source: Source, scope: Scope, location: SourceLocation
    ) -> Recipe {
        Recipe(awaiting: key, source: source, scope: scope, location: location,
               dependencies: initializer.dependencies + properties.dependencies,
               concreteType: T.self, buildLocation: initializer.location, awaitedBuild: { linker in
            let make = try asyncLink(linker) { _ in nil }
            let setProperties = try properties.link(linker)
            // Made once: each build hands it the build of the initializer, awaited first.
            let step: AsyncStep = { section, initializer in
                let initializer = try AsyncBuild.arguments(initializer, as: AsyncBuild.self)
                let built: T = try Prefetched.cast(try await initializer.awaited(in: section), key.erased, as: T.self)
                let instance = unsafe Transfer(built)
                // Unlike `awaitedInjectable`: set and awoken on the main actor.
                let awoken: Transfer<T> = try await MainActor.run {
                    var built = instance.value
                    if let setProperties {
                        try section.run { resolution in try setProperties(&built, &resolution) }
                    }
                    awake(built)
                    return unsafe Transfer(built)
                }
                return awoken.value
            }
            return { resolution in AsyncBuild(step, arguments: try make(&resolution)) }
        })
    }
}
