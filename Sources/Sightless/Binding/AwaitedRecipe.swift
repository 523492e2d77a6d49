// The recipes whose own build is `async`, and how any recipe becomes a node that needs `await`
// when what it builds at once does (see `AsyncPlan`).

extension Recipe {
    /// A recipe whose own build is `async`.
    init<Value>(
        awaiting key: Key<Value>, source: Source, scope: Scope = .unscoped, location: SourceLocation?,
        dependencies: [Dependency] = [], problems: [InjectionError.Problem] = [], concreteType: Any.Type? = nil,
        buildLocation: SourceLocation? = nil, handsOutResolver: Bool = false,
        awaitedBuild: @escaping @Sendable (any Linking) throws -> Plan<AsyncBuild>
    ) {
        let erased = key.erased
        self.init(key, source: source, scope: scope, location: location, dependencies: dependencies, problems: problems,
                  concreteType: concreteType, buildLocation: buildLocation) { _ in
            { _ in throw InjectionError(.needsAwait(key: erased, awaited: erased), path: [erased]) }
        }
        self.isAsync = true
        let reported = source.buildsValues
        self.makeNode = { linker, scope in
            // The build runs in a section that awaited every leaf of its dependencies.
            linker.guardsAwaited = true
            return try Recipe.linkedNode(erased, linker, scope, build: LinkedBuild<Value>.awaited(try awaitedBuild(linker)),
                                         reported: reported, handsOutResolver: handsOutResolver)
        }
    }

    /// The node of a linked recipe: an ordinary one when neither its build nor what it builds
    /// at once needs `await`; otherwise one with an async plan, in its scope.
    static func node<Value>(
        _ key: AnyKey, _ linker: any Linking & LinkingNode, _ scope: Scope, build: LinkedBuild<Value>,
        handsOutResolver: Bool = false
    ) throws -> AnyNode {
        // Nearly every node: linked with a small frame, since a key compiled on its first
        // request may be linked deep in a request's stack.
        if case .synchronous(let plan) = build, linker.awaitedDependencies.isEmpty {
            return Node<Value>(linker.closing(scope.scope(Provision(key: key, plan: plan, storage: nil))),
                               signature: linker.dynamicSignature)
        }
        return try awaitingNode(key, linker, scope, build: build, handsOutResolver: handsOutResolver)
    }

    /// The node of a linked recipe that needs `await`, made step by step: why it needs
    /// `await`, the closures that build its value with `await`, the leaves a consumer's section
    /// awaits for it, its synchronous plan, and the node its scope makes of them. Each step
    /// makes closures once, when the node is linked; what a request runs is in those closures.
    @inline(never)
    private static func awaitingNode<Value>(
        _ key: AnyKey, _ linker: any Linking & LinkingNode, _ scope: Scope, build: LinkedBuild<Value>,
        handsOutResolver: Bool
    ) throws -> AnyNode {
        let awaited = AwaitedDependencies(nodes: linker.awaitedDependencies,
                                          observing: linker.observers == nil ? nil : key)
        if case .synchronous(let plan) = build, awaited.nodes.isEmpty {
            return Node<Value>(linker.closing(scope.scope(Provision(key: key, plan: plan, storage: nil))),
                               signature: linker.dynamicSignature)
        }
        let (reason, offActor) = awaitedReason(key, build: build, awaited: awaited)
        let rethrow = linker.rethrow
        let builds = awaitedBuilds(key, build: build, awaited: awaited, reentry: linker.meaning.reentry,
                                   rethrow: rethrow, handsOutResolver: handsOutResolver)
        let scoping = scope.strategy.awaitedScoping
        let leaves = sectionLeaves(build: build, awaited: awaited, scoping: scoping, meaning: linker.meaning)
        // Synchronously, a value that awaits in place is the one awaited for the section it is
        // read in; a node built in a section (its leaves awaited for it) is built there, and
        // elsewhere once everything it awaits is stored (singletons awaited before, or at
        // start-up). A kept value built synchronously is built so too, by its scope's one build
        // (its storage's), once what it awaits is stored; until then its one build is an awaited
        // request's. A kept value whose own build is `async` is built by an awaited request only.
        let kept = scoping == .keepsOne ? KeptStorage(key, linker, perChild: linker.meaning.owner == .eachChild) : nil
        var ready: (@Sendable (Injector) -> Bool)?
        var builtWhenReady: Plan<Value>?
        if case .synchronous(let plan) = build {
            if scoping == .rebuilds {
                ready = { injector in awaited.areReady(in: injector) }
            } else if let kept, linker.meaning.isolation == nil {
                // Not while an awaited request builds it: a request then awaits that build.
                if case .one(let storage) = kept {
                    ready = { injector in awaited.areReady(in: injector) && !storage.isBuildingAwaited }
                } else {
                    ready = { injector in awaited.areReady(in: injector) }
                }
                builtWhenReady = plan
            }
        }
        let synchronous = synchronousPlan(key, build: build, awaited: awaited, leaves: leaves,
                                          isReadyChecked: ready != nil && kept == nil, reason: reason, offActor: offActor,
                                          keptIn: kept.map { ($0, scope.name, builtWhenReady) })
        // Built in a consumer's section from its leaves: a consumer that checks them first runs
        // the plan itself.
        var covered: Plan<Value>?
        if case .synchronous(let plan) = build, !leaves.isEmpty { covered = plan }
        // Ready with the one storage it awaits, when there is one: a consumer checks that storage.
        let readiness: AnyNode.Readiness? = builtWhenReady == nil ? nil : awaited.onlyStorage.map { .stored($0) } ?? .asked
        // The scope says what it does with a value built with `await`; a template's binding
        // kept per child is kept by the child running the request (`Meaning.Owner.eachChild`).
        switch (scoping, kept) {
        case (.rebuilds, _):
            // An awaited request builds it synchronously once every kept value it needs is
            // stored, not merely ready to be built (`AnyNode.isReady`).
            let settled: AnyNode.Settled = ready != nil && awaited.settlesApart
                ? .asked({ injector in awaited.areSettled(in: injector) }) : .asReady
            return Node(Provision(key: key, plan: synchronous, storage: nil), signature: linker.dynamicSignature,
                        asyncPlan: builds.unscoped, leafBuild: builds.leafBuild, awaited: reason, actor: offActor, ready: ready,
                        settled: settled, leaves: leaves, rethrow: rethrow, coveredPlan: covered)
        case (.keepsOne, let kept?):
            return keptAwaitingNode(key, linker, kept, synchronous: synchronous, recorded: builds.recorded, reason: reason,
                                    actor: offActor, ready: ready, readiness: readiness,
                                    settled: builtWhenReady == nil ? .asReady : .whenStored)
        case (.unsupported, _), (.keepsOne, nil):
            throw InjectionError(.awaitedInScope(key: key, scope: scope.name, awaited: reason), path: [key])
        }
    }

    /// The key whose build makes the node need `await` (its own, for an `async` build; else its
    /// first dependency's that needs it), and, when its dependencies need `await` only for values
    /// of one actor (`AnyNode.awaitedActor`), that actor: a synchronous request off that actor is told
    /// so (`offActor`), not to await an `async` build.
    @inline(__always)
    private static func awaitedReason<Value>(
        _ key: AnyKey, build: LinkedBuild<Value>, awaited: AwaitedDependencies
    ) -> (reason: AnyKey, offActor: ActorIsolation?) {
        switch build {
        case .synchronous:
            guard let first = awaited.nodes.first else { return (key, nil) }
            let reason = first.awaited ?? first.key
            if let actor = first.awaitedActor, awaited.nodes.allSatisfy({ $0.awaitedActor == actor }) { return (reason, actor) }
            return (reason, nil)
        case .awaited:
            return (key, nil)
        }
    }

    /// The closures that build the node's value with `await`, one per kind of build, chosen here
    /// so that the plan does not look at the kind again: `unscoped` builds it, `recorded` builds
    /// it recorded in the task's chain of builds (what a kept value's one build runs), and
    /// `leafBuild` is the same build as a consumer's section awaits it (`AnyNode.leafBuild`).
    @inline(__always)
    private static func awaitedBuilds<Value>(
        _ key: AnyKey, build: LinkedBuild<Value>, awaited: AwaitedDependencies, reentry: Meaning.Reentry,
        rethrow: @escaping @Sendable (any Error) -> InjectionError, handsOutResolver: Bool
    ) -> (unscoped: AsyncPlan<Value>, recorded: AsyncPlan<Value>, leafBuild: LeafBuild?) {
        let buildValue: AsyncPlan<Value>
        let recorded: AsyncPlan<Value>
        var leafBuild: LeafBuild?
        switch build {
        case .synchronous(let plan):
            buildValue = { request in
                let prefetched = try await awaited.values(request, rethrow: rethrow)
                return try AsyncSection(request: request, prefetched: prefetched).run { resolution in try plan(&resolution) }
            }
            recorded = { request in try await AwaitedReentry.enter(key, reentry) { try await buildValue(request) } }
        case .awaited(let plan):
            // Recorded in the task's chain only where it can be asked for again (`AwaitedStep`).
            let own = AwaitedStep(plan: plan, handsOutResolver: handsOutResolver) { body in
                try await AwaitedReentry.enter(key, reentry) { try await body() }
            }
            @Sendable @inline(__always) nonisolated(nonsending)
            func awaitBuild(_ request: AsyncRequest) async throws -> Any {
                // Most `async` builds await nothing before their own: no frame for that.
                let prefetched = awaited.isEmpty ? nil : try await awaited.values(request, rethrow: rethrow)
                return try await own.value(in: AsyncSection(request: request, prefetched: prefetched))
            }
            buildValue = { request in try Prefetched.cast(try await awaitBuild(request), key, as: Value.self) }
            leafBuild = awaited.isEmpty ? .inPlace(own) : .plan { request in try await awaitBuild(request) }
            // A kept value's build is recorded whatever it holds: another request of the key,
            // from anything its dependencies were handed, awaits that build.
            recorded = { request in
                try await AwaitedReentry.enter(key, reentry) {
                    let prefetched = try await awaited.values(request, rethrow: rethrow)
                    let section = AsyncSection(request: request, prefetched: prefetched)
                    let step = try section.run { resolution in try plan(&resolution) }
                    return try Prefetched.cast(try await step.awaited(in: section), key, as: Value.self)
                }
            }
        }
        return (buildValue, recorded, leafBuild)
    }

    /// The leaves a consumer's section awaits for the node: a synchronous build kept by nobody,
    /// on no actor, awaits nothing itself, and a consumer's section awaits its leaves and builds
    /// it there (`AwaitedLeaf`). None for any other node.
    @inline(__always)
    private static func sectionLeaves<Value>(
        build: LinkedBuild<Value>, awaited: AwaitedDependencies, scoping: AwaitedScoping, meaning: Meaning
    ) -> [AwaitedLeaf] {
        if case .synchronous = build, scoping == .rebuilds, meaning.owner == .none, meaning.isolation == nil {
            return awaited.leaves
        }
        return []
    }

    /// The node's synchronous plan: the value awaited for the section it is read in, else, for
    /// a synchronous build whose leaves are awaited (or whose readiness is checked), the build
    /// once they are; for a kept value built synchronously, its scope's one build once they are
    /// stored; else the error that tells the request to await.
    @inline(__always)
    private static func synchronousPlan<Value>(
        _ key: AnyKey, build: LinkedBuild<Value>, awaited: AwaitedDependencies, leaves: [AwaitedLeaf],
        isReadyChecked: Bool, reason: AnyKey, offActor: ActorIsolation?,
        keptIn kept: (storage: KeptStorage, scope: String, builtWhenReady: Plan<Value>?)?
    ) -> Plan<Value> {
        let notNow: @Sendable (Injector) -> InjectionError = { injector in
            // What it awaits was stored when the request began, and a shutdown racing the
            // request took it away: the request is told so.
            if injector.isShutDownInFamily { return injector.shutDownError(key) }
            if let offActor { return InjectionError(.offActor(key: reason, actor: offActor.name), path: [key, reason]) }
            // Told from what is not ready now: an awaited singleton stored already (`start`) is
            // no reason, and a value of an actor's, off that actor, is told as such.
            let blocking = awaited.nodes.first { !$0.canBuildSynchronously(in: injector) }
            if let blocking, let actor = blocking.awaitedActor {
                let isolated = blocking.awaited ?? blocking.key
                return InjectionError(.offActor(key: isolated, actor: actor.name),
                                      path: isolated == blocking.key ? [key, isolated] : [key, blocking.key, isolated])
            }
            let cause = blocking.map { $0.awaited ?? $0.key } ?? reason
            // A kept value not stored yet: its one build is an awaited request's.
            if let kept {
                return InjectionError(.keptNotBuilt(key: key, scope: kept.scope, awaited: cause,
                                                    awaitedIsBuilt: cause != key && awaited.areReady(in: injector)), path: [key])
            }
            return InjectionError(.needsAwait(key: key, awaited: cause), path: [key])
        }
        // Most often one singleton is all that must be stored: its storage is read in place.
        let onlyStorage = awaited.onlyStorage
        if let kept, let plan = kept.builtWhenReady {
            // Built by the storage's one build, unless an awaited request is building it.
            // A value stored is returned whatever is ready: the storage (a child's, looked up) is
            // found once.
            let storage = kept.storage
            if let onlyStorage {
                return { resolution in
                    if let value = resolution.prefetched?.take(key) { return try Prefetched.cast(value, key, as: Value.self) }
                    let kept = try storage.of(resolution.injector)
                    if let value = kept.existing(as: Value.self) { return value }
                    let injector = resolution.injector
                    if onlyStorage.isFilled { return try kept.instance(&resolution, build: plan, whileAwaited: { notNow(injector) }) }
                    throw kept.unlessShutDown(notNow(injector))
                }
            }
            return { resolution in
                if let value = resolution.prefetched?.take(key) { return try Prefetched.cast(value, key, as: Value.self) }
                let kept = try storage.of(resolution.injector)
                if let value = kept.existing(as: Value.self) { return value }
                let injector = resolution.injector
                if awaited.areReady(in: injector) {
                    return try kept.instance(&resolution, build: plan, whileAwaited: { notNow(injector) })
                }
                throw kept.unlessShutDown(notNow(injector))
            }
        }
        switch build {
        case .synchronous(let plan) where !leaves.isEmpty:
            if let onlyStorage {
                return { resolution in
                    if onlyStorage.isFilled || resolution.prefetchedReference != nil { return try plan(&resolution) }
                    throw notNow(resolution.injector)
                }
            }
            return { resolution in
                if resolution.prefetchedReference != nil || awaited.areReady(in: resolution.injector) { return try plan(&resolution) }
                throw notNow(resolution.injector)
            }
        case .synchronous(let plan) where isReadyChecked:
            if let onlyStorage {
                return { resolution in
                    if let value = resolution.prefetched?.take(key) { return try Prefetched.cast(value, key, as: Value.self) }
                    if onlyStorage.isFilled { return try plan(&resolution) }
                    throw notNow(resolution.injector)
                }
            }
            return { resolution in
                if let value = resolution.prefetched?.take(key) { return try Prefetched.cast(value, key, as: Value.self) }
                if awaited.areReady(in: resolution.injector) { return try plan(&resolution) }
                throw notNow(resolution.injector)
            }
        default:
            return { resolution in
                if let value = resolution.prefetched?.take(key) { return try Prefetched.cast(value, key, as: Value.self) }
                throw notNow(resolution.injector)
            }
        }
    }

    /// The node of a value built with `await` that its scope keeps once (per child, for a
    /// template's binding: `Meaning.Owner.eachChild`): its one build, by `recorded`, is awaited
    /// by every request that finds nothing stored yet; a synchronous build whose awaited
    /// dependencies are stored is built as a synchronous request builds it (`ready`), awaited
    /// or not, by the storage's one build.
    @inline(__always)
    private static func keptAwaitingNode<Value>(
        _ key: AnyKey, _ linker: any Linking & LinkingNode, _ kept: KeptStorage, synchronous: @escaping Plan<Value>,
        recorded: @escaping AsyncPlan<Value>, reason: AnyKey, actor: ActorIsolation?, ready: (@Sendable (Injector) -> Bool)?,
        readiness: AnyNode.Readiness?, settled: AnyNode.Settled
    ) -> AnyNode {
        let owner = linker.owner
        let stored: Plan<Value>
        let build: AsyncPlan<Value>
        switch kept {
        case .one(let storage):
            stored = { resolution in try storedValue(storage, synchronous: synchronous, &resolution) }
            build = { request in
                // Awaiting the build this task is running would await for ever.
                try AwaitedReentry.check(key, through: .singleton)
                // An awaited request that began building it after `ready` was asked makes the
                // synchronous build fail with `needsAwait`: that build is awaited instead. A
                // thread's build of it is awaited holding no thread, then read.
                if let ready, ready(request.injector) {
                    await storage.awaitThreadBuild()
                    if let value = try synchronouslyUnlessAwaited(request, stored) { return value }
                }
                // Built for the injector that owns the binding, as a synchronous singleton is.
                let dependency = request.withoutArguments.kept(by: request.injector.owner(owner), weakly: true)
                return try await storage.awaitInstance {
                    unsafe Transfer(try await recorded(dependency))
                }
            }
            return Node(Provision(key: key, plan: stored, storage: storage), signature: linker.dynamicSignature,
                        asyncPlan: build, awaited: reason, actor: actor, ready: ready, readiness: readiness, settled: settled)
        case .perChild:
            // A synchronous build (`ready`) reads the child's storage itself, before anything else.
            if ready != nil {
                stored = synchronous
            } else {
                stored = { resolution in try storedValue(kept.of(resolution.injector), synchronous: synchronous, &resolution) }
            }
            build = { request in
                try AwaitedReentry.check(key, through: .singleton)
                if let ready, ready(request.injector), let value = try synchronouslyUnlessAwaited(request, stored) { return value }
                let child = try request.injector.templateChild(of: owner, building: key)
                let dependency = request.withoutArguments.kept(by: child, weakly: true)
                return try await kept.of(request.injector).awaitInstance {
                    unsafe Transfer(try await recorded(dependency))
                }
            }
            // A consumer asks the child running its request whether it holds the value.
            let childHolds: @Sendable (Injector) -> Bool = { injector in
                guard let storage = try? kept.of(injector) else { return false }
                return storage.isFilled
            }
            return Node(Provision(key: key, plan: stored, storage: nil), signature: linker.dynamicSignature,
                        asyncPlan: build, awaited: reason, actor: actor, ready: ready, readiness: readiness,
                        settled: settled, childHolds: childHolds)
        }
    }

    /// The value `storage` holds, else the one its synchronous plan builds; a plan that says the
    /// value needs `await` because a shutdown took the stored one away says the injector is shut
    /// down.
    @inline(__always)
    private static func storedValue<Value>(
        _ storage: InstanceStorage, synchronous: Plan<Value>, _ resolution: inout Resolution
    ) throws -> Value {
        if let value = storage.existing(as: Value.self) { return value }
        do {
            return try synchronous(&resolution)
        } catch let error as InjectionError where error.kind == .needsAwait {
            throw storage.unlessShutDown(error)
        }
    }

    /// A kept value built by its synchronous plan `stored` for an awaited request, or `nil` when
    /// that plan fails with `needsAwait` (an awaited request is building it, or something it
    /// needs, now): the caller awaits the build instead.
    @inline(__always)
    private static func synchronouslyUnlessAwaited<Value>(
        _ request: AsyncRequest, _ stored: Plan<Value>
    ) throws -> Value? {
        do {
            return try AsyncSection(request: request.withoutArguments, prefetched: nil).run { resolution in
                try stored(&resolution)
            }
        } catch let error as InjectionError where error.kind == .needsAwait {
            return nil
        }
    }

    /// A closure binding that awaits.
    static func awaitedClosure<Value>(
        _ key: Key<Value>, location: SourceLocation, source: Source = .closure,
        make: @escaping @Sendable (Resolver) async throws -> Value
    ) -> Recipe {
        Recipe(awaiting: key, source: source, location: location, handsOutResolver: true, awaitedBuild: { linker in
            let rethrow = linker.rethrow
            return { _ in
                AsyncBuild { section, _ in
                    let resolver = Resolver(injector: section.request.handedInjector)
                    do {
                        return try await make(resolver)
                    } catch {
                        throw rethrow(error)
                    }
                }
            }
        })
    }

    /// The recipe of an ``Injectable`` type whose initializer is `async`: the initializer is
    /// awaited, then its properties are set and `awakeFromInjection()` is called.
    static func awaitedInjectable<T: Injectable>(
        _ key: Key<T>, initializer: Initializer<T>,
        asyncLink: @escaping @Sendable (any Linking, (any Linking) throws -> AsyncFinish<T>?) throws -> Plan<AsyncBuild>,
        properties: Properties<T>, source: Source, scope: Scope, location: SourceLocation, problems: [InjectionError.Problem]
    ) -> Recipe {
        Recipe(awaiting: key, source: source, scope: scope, location: location,
               dependencies: initializer.dependencies + properties.dependencies, problems: problems,
               concreteType: T.self, buildLocation: initializer.location, awaitedBuild: { linker in
            // The properties are set and the instance awoken in the initializer's own step.
            try asyncLink(linker) { linker in
                guard let setProperties = try properties.link(linker) else {
                    return { instance, _ in instance.awakeFromInjection() }
                }
                return { instance, section in
                    try section.run { resolution in try setProperties(&instance, &resolution) }
                    instance.awakeFromInjection()
                }
            }
        })
    }
}

/// Where a value built with `await` that its scope keeps once lies: one storage for the
/// injector that owns the binding, or one per child of a template, found in the child running
/// the request.
enum KeptStorage: Sendable {
    case one(InstanceStorage)
    /// The slot is the node's index among the template's scoped nodes.
    case perChild(slot: ScopeSlot, owner: CompilationOwner, key: AnyKey, closer: ValueCloser?)

    init(_ key: AnyKey, _ linker: any Linking & LinkingNode, perChild: Bool) {
        if perChild {
            self = .perChild(slot: ScopeSlot(linker.owner), owner: linker.owner, key: key, closer: linker.closer)
        } else {
            let storage = InstanceStorage(key)
            storage.closer = linker.closer
            self = .one(storage)
        }
    }

    /// The storage for a request of `injector`.
    @inline(__always)
    func of(_ injector: Injector) throws -> InstanceStorage {
        switch self {
        case .one(let storage):
            return storage
        case .perChild(let slot, let owner, let key, let closer):
            return try injector.templateChild(of: owner, building: key)
                .storage(for: slot, key: key, closer: closer)
        }
    }
}
