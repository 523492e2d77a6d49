/// What the recipe of a type isolated to the main actor adds to its initializer's plan: its
/// properties and the call to `awakeFromInjection()`, run in the same main-actor region as the
/// initializer, so that a main-actor object is checked and entered once (see `onMainActor`).
@usableFromInline
struct MainActorSteps<Instance>: Sendable {
    @usableFromInline let properties: PropertySetter<Instance>?
    @usableFromInline let awake: (@MainActor @Sendable (Instance) -> Void)?

    @usableFromInline
    init(properties: PropertySetter<Instance>?, awake: (@MainActor @Sendable (Instance) -> Void)?) {
        self.properties = properties
        self.awake = awake
    }

    /// Sets the properties of a new instance, then awakes it, on the main actor.
    @MainActor @inlinable @inline(__always)
    func complete(_ instance: inout Instance, _ resolution: inout Resolution) throws {
        if let properties { try properties(&instance, &resolution) }
        if let awake { awake(instance) }
    }

    /// Nothing more: the initializer alone, as a binding to an ``Initializer`` runs it.
    @inlinable
    static var initializerOnly: MainActorSteps { MainActorSteps(properties: nil, awake: nil) }
}

/// What a main-actor initializer links: the plan that checks the main actor (unless its request
/// was found there) and enters it, and `body`, what that plan runs there, which a main-actor
/// consumer's region runs directly (`Node.mainActorPlan`).
@usableFromInline
struct IsolatedPlan<Instance>: Sendable {
    @usableFromInline let plan: Plan<Instance>
    @usableFromInline let body: MainActorPlan<Instance>

    @inlinable
    init(plan: @escaping Plan<Instance>, body: @escaping MainActorPlan<Instance>) {
        self.plan = plan
        self.body = body
    }
}

/// An argument of a main-actor initializer: read in the initializer's main-actor region, through
/// its node's main-actor plan when it has one (another main-actor object, built in the same
/// region), else as any argument is.
@usableFromInline
struct MainActorArgumentPlan<Value>: Sendable {
    @usableFromInline let argument: ArgumentPlan<Value>
    @usableFromInline let isolated: MainActorPlan<Value>?

    @inlinable
    init(_ dependency: Dependency, _ linker: any Linking) throws {
        argument = try ArgumentPlan<Value>(dependency, linker)
        isolated = dependency.isDynamic ? nil : linker.mainActorPlan(for: dependency, as: Value.self)
    }

    @MainActor @inlinable @inline(__always)
    func value(_ resolution: inout Resolution) throws -> Value {
        if let isolated { return try isolated(&resolution) }
        return try argument.value(&resolution)
    }
}
