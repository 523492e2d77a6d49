/// How the injector builds the value of one key: the element a binding records, and what the
/// graph compiler reads, validates and links. Just-in-time types get one too.
///
/// A recipe is data (its key, source, scope, dependencies and the problems found while it was
/// recorded) plus a typed link step that returns its *unscoped* provision; the scope wraps that
/// afterwards, so a scope, a decorator or a child injector can work on any recipe alike.
struct Recipe: Sendable {
    /// How the value is obtained, as the graph exporters show it.
    enum Source: Sendable, Equatable {
        case instance
        case closure
        case provider
        case alias(AnyKey)
        case initializer
        case type(justInTime: Bool)
        case injector
        case incomplete
        /// A requested `T?`, `Lazy<T>` or `Factory<T, …>` that no binding provides.
        case wrapper
        /// A value each child made from a ``ChildTemplate`` is given when it is made.
        case provided
        /// An array, set or map gathered from the contributions of modules.
        case collection

        /// Whether a node of this source builds its values (rather than hands out a value it
        /// was given, or another key's): what observers are told about.
        var buildsValues: Bool {
            switch self {
            case .closure, .provider, .initializer, .type, .collection: true
            case .instance, .alias, .injector, .incomplete, .wrapper, .provided: false
            }
        }
    }

    /// The recipe's data, stored once: the binder, the merged bindings, the graph and the
    /// compilation all share it, so that passing a recipe from stage to stage copies one
    /// reference rather than a dozen fields (about 250 bytes and ten reference counts).
    private var storage: RecipeStorage

    var key: AnyKey { storage.key }
    var source: Source {
        get { storage.source }
        set { storage = storage.with(source: newValue) }
    }
    var scope: Scope {
        get { storage.scope }
        set { storage = storage.with(scope: newValue) }
    }
    /// Where the binding was declared; for a just-in-time type, its initializer.
    var location: SourceLocation? { storage.location }
    /// Where the code that builds the value was declared: an initializer's declaration, or the
    /// binding of a closure or provider. A failure while building points here.
    var buildLocation: SourceLocation? { storage.buildLocation }
    /// Everything the value needs, dynamic arguments included.
    var dependencies: [Dependency] { storage.dependencies }
    /// Mistakes found while recording (a binding with no target, an initializer of the wrong
    /// type); reported with the rest of the graph's problems.
    var problems: [InjectionError.Problem] { storage.problems }
    /// The concrete type of every value the recipe gives, when it is known before anything is
    /// built: an ``Injectable`` type's own, or an instance's.
    var concreteType: Any.Type? { storage.concreteType }
    /// The value an instance binding hands out: an alias to it checks the value itself.
    var concreteInstance: UncheckedBox<Any>? { storage.concreteInstance }
    /// Whether a value of a type is a value of the key's type, as far as public Swift tells
    /// (`valuesOf(_:instance:areValuesOf:)`): what an alias checks of its target's `concreteType`
    /// (and of its instance, when the target is one) when the injector is built. The key's type
    /// is the recipe's value type: opened here, so that no recipe keeps a closure for a check
    /// only aliases need.
    func accepts(_ type: Any.Type, instance: Any? = nil) -> Bool {
        func check<Value>(_ value: Value.Type) -> Bool { valuesOf(type, instance: instance, areValuesOf: value) }
        return check(key.type)
    }
    /// Links the unscoped plan, wraps it in `scope`, and makes the node.
    var makeNode: @Sendable (any Linking & LinkingNode, Scope) throws -> AnyNode {
        get { storage.makeNode }
        set { storage = storage.with(makeNode: newValue) }
    }
    /// `true` when the recipe's own build is `async` (an `async` initializer, closure or
    /// provider): its node, and every node that builds it at once, needs `await`.
    var isAsync: Bool {
        get { storage.isAsync }
        set { storage = storage.with(isAsync: newValue) }
    }
    /// The actor the recipe's value is built on (a ``MainActorInjectable`` type, or an
    /// initializer isolated to the main actor); `nil` when it is nonisolated.
    var isolation: ActorIsolation? {
        get { storage.isolation }
        set { storage = storage.with(isolation: newValue) }
    }
    /// How an injector's shutdown closes the value the binding's scope kept, when the binding
    /// says (`onShutdown`); `nil` for a value closed by its own `close()`, if any.
    var closer: ValueCloser? {
        get { storage.closer }
        set { if let newValue { storage = storage.with(closer: newValue) } }
    }
    /// Whether the recipe has dynamic (creation-time) arguments; known when it is made, so the
    /// rules need not filter its dependencies for every edge that reaches it.
    var hasDynamicDependencies: Bool { storage.hasDynamicDependencies }

    init<Value>(
        _ key: Key<Value>, source: Source, scope: Scope = .unscoped, location: SourceLocation?,
        dependencies: [Dependency] = [], problems: [InjectionError.Problem] = [], concreteType: Any.Type? = nil,
        concreteInstance: UncheckedBox<Any>? = nil, buildLocation: SourceLocation? = nil,
        build: @escaping @Sendable (any Linking) throws -> Plan<Value>
    ) {
        let erased = key.erased
        let reported = source.buildsValues
        let makeNode: @Sendable (any Linking & LinkingNode, Scope) throws -> AnyNode = { linker, scope in
            // `Recipe.node` checks the leaves of what the plan awaits before it runs the plan; an
            // isolated node checks only its actor.
            linker.guardsAwaited = linker.meaning.isolation != .mainActor
            return try Recipe.linkedNode(erased, linker, scope, build: .synchronous(try build(linker)), reported: reported)
        }
        storage = RecipeStorage(
            key: erased, source: source, scope: scope, location: location, buildLocation: buildLocation ?? location,
            dependencies: dependencies, problems: problems, concreteType: concreteType,
            concreteInstance: concreteInstance, makeNode: makeNode, isAsync: false)
    }

    /// The node of a recipe's linked build, whatever its kind: every build goes through the same
    /// stages, in this order. Decorators and observers work on the unscoped build, so that a
    /// scope keeps the decorated value, and builds (not reads) are observed; without them, the
    /// build is the one linked. Then a value kept beyond its request is built for the injector
    /// that keeps it, a value isolated to the main actor is built there, and the scope wraps
    /// the whole (`Recipe.node`). An `async` build's kept value is built for its keeper, and on
    /// its actor, by the async plan `Recipe.node` makes of it.
    static func linkedNode<Value>(
        _ key: AnyKey, _ linker: any Linking & LinkingNode, _ scope: Scope, build linked: LinkedBuild<Value>,
        reported: Bool, handsOutResolver: Bool = false
    ) throws -> AnyNode {
        // A value that reads dependencies where it stands reads them from the injector it is
        // built for, and its build throws when one fails.
        let presence = reported && !linker.collectsReads ? StandingReadsPresence() : nil
        var build = presence.map { StandingReadsPresence.collecting(linked, key: key, presence: $0) } ?? linked
        // A main-actor initializer's plan that is the whole build may be run from a main-actor
        // consumer's region (`Recipe.isolatedNode`).
        let bare = linker.decorators.isEmpty && !(reported && linker.observers != nil) && scope.strategy is Unscoped
        for decorator in linker.decorators { build = try decorator.decorate(build) }
        if reported, let observers = linker.observers { build = observers.observe(build, key: key, scope: scope) }
        guard case .synchronous(var plan) = build else {
            return try Recipe.node(key, linker, scope, build: build, handsOutResolver: handsOutResolver)
        }
        let lifetime = scope.strategy.lifetime
        if lifetime >= .weak { plan = keptPlan(plan, owner: linker.owner, weakly: lifetime >= .injector) }
        if linker.meaning.isolation == .mainActor {
            let body = bare ? linker.mainActorBody as? MainActorPlan<Value> : nil
            return Recipe.isolatedNode(key, plan: plan, linker, scope, body: body, presence: presence)
        }
        return try Recipe.node(key, linker, scope, build: .synchronous(plan))
    }

    /// Links the recipe into a node of the compiled graph, in `scope` when given (a template's
    /// wrapping of the recipe's own), else in its own.
    func link(_ linker: any Linking & LinkingNode, scope: Scope? = nil) throws -> AnyNode {
        try makeNode(linker, scope ?? self.scope)
    }

    /// The dynamic arguments of the value's own initializer.
    var dynamicDependencies: [Dependency] { dependencies.filter(\.isDynamic) }
}

/// What the linker of one node tells the recipe once its descriptor is linked.
protocol LinkingNode {
    /// For a value built on an actor only for what it holds (`Meaning.isolatedForBuild`), the
    /// way from it to the value isolated there; `nil` otherwise.
    var heldIsolated: HeldIsolation? { get }
    /// The dynamic arguments the node's plans read (or, for an alias, those of its target).
    var dynamicSignature: DynamicSignature? { get }
    /// The dependencies linked so far that need `await`, once per plan handed out.
    var awaitedDependencies: [AnyNode] { get }
    /// The decorators of the node's key, in the order they apply.
    var decorators: [Decorator] { get }
    /// The injector's observers, or `nil` when it has none.
    var observers: InstanceObservers? { get }
    /// What the graph decided for the node: its owner, isolation, whether it needs `await`,
    /// and what re-entering it means.
    var meaning: Meaning { get }
    /// Whether the node's plan runs only once the leaves of every dependency that needs `await`
    /// are stored, or awaited for the section it runs in: set by the recipe before it links its
    /// build, so that the plans of those dependencies need not check their leaves again
    /// (`Node.coveredPlan`).
    var guardsAwaited: Bool { get nonmutating set }
    /// How the binding closes the value its scope keeps, if it says (`onShutdown`).
    var closer: ValueCloser? { get }
}

extension LinkingNode {
    /// `provision`, a scope's, with the binding's closer linked into the storage keeping its
    /// value, if any: the scope stage of the one pipeline, for every binding kind.
    func closing<Value>(_ provision: Provision<Value>) -> Provision<Value> {
        if let closer, let storage = provision.storage { storage.closer = closer }
        return provision
    }
}

// MARK: - The kinds of recipe

extension Recipe {
    static func instance<Value>(_ key: Key<Value>, _ value: Value, location: SourceLocation) -> Recipe {
        let box = UncheckedBox(value)
        return Recipe(key, source: .instance, location: location, concreteType: Swift.type(of: value),
                      concreteInstance: UncheckedBox(value as Any)) { _ in
            { _ in box.value }
        }
    }

    static func closure<Value>(
        _ key: Key<Value>, location: SourceLocation, source: Source = .closure,
        make: @escaping @Sendable (Resolver) throws -> Value
    ) -> Recipe {
        Recipe(key, source: source, location: location) { linker in
            let rethrow = linker.rethrow
            let reentry = ReentryGuard(linker.reentry)
            let erased = key.erased
            return { resolution in
                try reentry.enter(&resolution, key: erased, rethrow: rethrow) { injector in
                    try make(Resolver(injector: injector))
                }
            }
        }
    }

    static func provider<Value, P: Provider>(_ key: Key<Value>, location: SourceLocation, provider: P) -> Recipe
    where P.Value == Value {
        closure(key, location: location, source: .provider) { resolver in try provider.provide(resolver) }
    }

    static func alias<Value, Target>(_ key: Key<Value>, to target: Key<Target>, location: SourceLocation) -> Recipe {
        let dependency = Dependency(role: .target, key: target.erased, isDynamic: false, location: location)
        return Recipe(key, source: .alias(target.erased), location: location, dependencies: [dependency]) { linker in
            let plan = try linker.plan(for: dependency, as: Target.self)
            // Cast only a target of the key's own type: a cast of a closure's type finds the
            // metadata of both function types, which an alias of another type need not pay.
            if Target.self == Value.self, let same = plan as? Plan<Value> { return same }
            let rethrow = linker.rethrow
            return { resolution in
                let value = try plan(&resolution)
                guard let converted = value as? Value else {
                    throw rethrow(InjectionError(
                        .aliasTarget(key: key.erased, target: target.erased, actual: AnyKey(type: Swift.type(of: value), name: nil)),
                        location: location))
                }
                return converted
            }
        }
    }

    static func initializer<Value>(_ key: Key<Value>, _ initializer: Initializer<Value>, location: SourceLocation) -> Recipe {
        if initializer.isolation == .mainActor {
            return isolated(key, initializer: initializer, properties: Properties(), awake: nil, source: .initializer,
                            scope: .unscoped, location: location, dependencies: initializer.dependencies)
        }
        if let asyncLink = initializer.asyncLink {
            return Recipe(awaiting: key, source: .initializer, location: location, dependencies: initializer.dependencies,
                          buildLocation: initializer.location, awaitedBuild: { linker in try asyncLink(linker) { _ in nil } })
        }
        // The closure alone: what a recipe keeps stays small.
        return Recipe(key, source: .initializer, location: location, dependencies: initializer.dependencies,
                      buildLocation: initializer.location, build: initializer.link)
    }

    /// The value at `index` among those each child of a template is made with, read by the
    /// plan `plan` makes.
    static func provided<Value>(
        _ key: Key<Value>, index: Int, location: SourceLocation,
        plan: @escaping @Sendable (Int, CompilationOwner) -> Plan<Value>
    ) -> Recipe {
        Recipe(key, source: .provided, location: location) { linker in plan(index, linker.owner) }
    }

    static let injectorKey = Key<Injector>().erased

    /// The injector itself, for types that depend on `Injector`.
    static func injector() -> Recipe {
        Recipe(Key<Injector>(), source: .injector, location: nil) { _ in
            { resolution in
                // Requests made through it continue the one that is building.
                _ = resolution.publishFrame()
                return resolution.handedInjector
            }
        }
    }

    /// A key bound with no target, by its erased key: the key's type is opened to make the
    /// recipe of `untargeted(_:location:)` for it.
    static func untargeted(_ key: AnyKey, location: SourceLocation) -> Recipe {
        func make<Value>(_ type: Value.Type) -> Recipe { untargeted(Key<Value>(named: key.name), location: location) }
        return make(key.type)
    }

    /// A key bound with no target: built from its type's own descriptors when the type is
    /// ``Injectable``, an error otherwise.
    static func untargeted<Value>(_ key: Key<Value>, location: SourceLocation) -> Recipe {
        if let injectable = Value.self as? any Injectable.Type {
            return typeRecipe(injectable, name: key.name, location: location, justInTime: false)
        }
        if let isolated = Value.self as? any MainActorInjectable.Type {
            return mainActorType(isolated, name: key.name, location: location, justInTime: false)
        }
        let canConform = DependencyTraits.mayDeclareItself(Value.self)
        let problem = InjectionError.Problem(.bindingWithoutTarget(key: key.erased, canConform: canConform), location: location)
        return Recipe(key, source: .incomplete, location: location, problems: [problem]) { _ in
            { _ in throw InjectionError(problem) }
        }
    }

    /// The recipe of an ``Injectable`` type: its initializer, then its properties, then
    /// `awakeFromInjection()`.
    static func typeRecipe(
        _ type: any Injectable.Type, name: String?, location: SourceLocation?, justInTime: Bool
    ) -> Recipe {
        injectable(type, name: name, location: location, justInTime: justInTime)
    }

    /// The recipe of an ``Injectable`` type, by the form of its descriptors: typed for the type
    /// itself (built synchronously, with `await`, or on the main actor), or inherited from a
    /// superclass.
    private static func injectable<T: Injectable>(
        _ type: T.Type, name: String?, location: SourceLocation?, justInTime: Bool
    ) -> Recipe {
        // Mirrored by `mainActorInjectable`: no generic code reads both protocols' requirements.
        let key = Key<T>(named: name)
        let initializer = T.initializer
        let properties = T.properties
        let dependencies = initializer.dependencies + properties.dependencies
        let source = Source.type(justInTime: justInTime)
        let location = location ?? initializer.location
        let scope = T.scope
        let problems = subclassPropertyProblems(key, properties)
        if let initializer = initializer as? Initializer<T>, let properties = properties as? Properties<T> {
            return typedInjectable(key, initializer: initializer, properties: properties, source: source, scope: scope,
                                   location: location, dependencies: dependencies, problems: problems)
        }
        return inheritedInjectable(key, initializer: initializer, properties: properties, source: source, scope: scope,
                                   location: location, dependencies: dependencies, problems: problems)
    }

    /// A property a subclass declares on its superclass: found when the type is recorded.
    @inline(__always)
    private static func subclassPropertyProblems<T: Injectable>(
        _ key: Key<T>, _ properties: Properties<T.Instance>
    ) -> [InjectionError.Problem] {
        var problems: [InjectionError.Problem] = []
        guard !properties.isEmpty else { return problems }
        for entry in properties.entries where !entry.accepts(T.self) {
            problems.append(InjectionError.Problem(
                .subclassProperty(key: key.erased, role: entry.dependency.role), location: entry.dependency.location))
        }
        return problems
    }

    /// The recipe of a type whose descriptors are its own: built on the main actor, with
    /// `await`, or in one synchronous plan that builds, sets the properties and awakes.
    @inline(__always)
    private static func typedInjectable<T: Injectable>(
        _ key: Key<T>, initializer: Initializer<T>, properties: Properties<T>, source: Source, scope: Scope,
        location: SourceLocation, dependencies: [Dependency], problems: [InjectionError.Problem]
    ) -> Recipe {
        if initializer.isolation == .mainActor {
            return isolated(key, initializer: initializer, properties: properties, awake: { $0.awakeFromInjection() },
                            source: source, scope: scope, location: location, dependencies: dependencies,
                            problems: problems)
        }
        if let asyncLink = initializer.asyncLink {
            return awaitedInjectable(key, initializer: initializer, asyncLink: asyncLink, properties: properties,
                                     source: source, scope: scope, location: location, problems: problems)
        }
        return Recipe(key, source: source, scope: scope, location: location, dependencies: dependencies,
                      problems: problems, concreteType: T.self, buildLocation: initializer.location) { linker in
            // A fixed-arity initializer builds, sets the properties and awakes in one plan.
            if let linkInjected = initializer.linkInjected {
                return try linkInjected(linker) { try properties.link(linker) }
            }
            let make = try initializer.link(linker)
            guard let setProperties = try properties.link(linker) else {
                return { resolution in
                    let instance = try make(&resolution)
                    instance.awakeFromInjection()
                    return instance
                }
            }
            return { resolution in
                var instance = try make(&resolution)
                try setProperties(&instance, &resolution)
                instance.awakeFromInjection()
                return instance
            }
        }
    }

    /// The recipe of a subclass that inherited its superclass's conformance: the descriptors
    /// build and fill the superclass type, and the instance is checked to be the subclass.
    @inline(__always)
    private static func inheritedInjectable<T: Injectable>(
        _ key: Key<T>, initializer: Initializer<T.Instance>, properties: Properties<T.Instance>, source: Source,
        scope: Scope, location: SourceLocation, dependencies: [Dependency], problems: [InjectionError.Problem]
    ) -> Recipe {
        var problems = problems
        // A subclass that inherits a stored `static let initializer` gets its superclass's very
        // initializer, which can only build the superclass: known without building anything.
        if T.self != T.Instance.self, let base = T.Instance.self as? any Injectable.Type,
           base.initializerIdentity === initializer.identity {
            problems.append(InjectionError.Problem(
                .inheritedInitializer(key: key.erased, base: AnyKey(type: T.Instance.self, name: nil),
                                      built: AnyKey(type: T.Instance.self, name: nil)),
                location: initializer.location))
        }
        if !(T.self is T.Instance.Type) {
            problems.append(InjectionError.Problem(
                .initializerOfOtherType(key: key.erased, builds: AnyKey(type: T.Instance.self, name: nil)),
                location: initializer.location))
        }
        return Recipe(key, source: source, scope: scope, location: location, dependencies: dependencies,
                      problems: problems, concreteType: T.self, buildLocation: initializer.location) { linker in
            let make = try initializer.link(linker)
            let setProperties = try properties.link(linker)
            let rethrow = linker.rethrow
            return { resolution in
                var instance = try make(&resolution)
                try setProperties?(&instance, &resolution)
                guard let built = instance as? T else {
                    throw rethrow(InjectionError(
                        .inheritedInitializer(key: key.erased, base: AnyKey(type: T.Instance.self, name: nil),
                                              built: AnyKey(type: Swift.type(of: instance), name: nil)),
                        location: initializer.location))
                }
                built.awakeFromInjection()
                return built
            }
        }
    }
}

extension Injectable {
    /// The identity of this type's initializer value, read through its own conformance.
    static var initializerIdentity: InitializerIdentity { initializer.identity }
}
