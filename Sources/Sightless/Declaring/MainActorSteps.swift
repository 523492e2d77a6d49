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
