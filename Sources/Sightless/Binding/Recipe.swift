/// How the injector builds the value of one key: the element a binding records, and what the
/// graph compiler reads, validates and links. Just-in-time types get one too.
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
    }

    let key: AnyKey
    var source: Source
    var scope: Scope
    let location: SourceLocation?
    /// Everything the value needs, creation-time arguments included.
    let dependencies: [Dependency]
    /// Mistakes found while recording (a binding with no target, an initializer of the wrong
    /// type); reported with the rest of the graph's problems.
    let problems: [InjectionError.Problem]
    /// Links the recipe into a node of the compiled graph.
    let makeNode: @Sendable (any Linking, Scope) throws -> AnyNode

    init<Value>(
        _ key: Key<Value>, source: Source, scope: Scope = .unscoped, location: SourceLocation?,
        dependencies: [Dependency] = [], problems: [InjectionError.Problem] = [],
        build: @escaping @Sendable (any Linking) throws -> Plan<Value>
    ) {
        let erased = key.erased
        self.key = erased
        self.source = source
        self.scope = scope
        self.location = location
        self.dependencies = dependencies
        self.problems = problems
        self.makeNode = { linker, scope in
            let plan = try build(linker)
            return Node<Value>.scoped(key: erased, scope: scope, plan: plan, signature: linker.dynamicSignature)
        }
    }

    /// The creation-time arguments of the value's own initializer.
    var dynamicDependencies: [Dependency] { dependencies.filter(\.isDynamic) }
}

// MARK: - The kinds of recipe

extension Recipe {
    static func instance<Value>(_ key: Key<Value>, _ value: Value, location: SourceLocation) -> Recipe {
        let box = UncheckedBox(value)
        return Recipe(key, source: .instance, location: location) { _ in { _ in box.value } }
    }

    static func closure<Value>(
        _ key: Key<Value>, location: SourceLocation, source: Source = .closure,
        make: @escaping @Sendable (Resolver) throws -> Value
    ) -> Recipe {
        Recipe(key, source: source, location: location) { linker in
            let rethrow = linker.rethrow
            let reentry = ReentryGuard()
            let erased = key.erased
            return { resolution in
                try reentry.enter(&resolution, key: erased, rethrow: rethrow) { resolver in try make(resolver) }
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
            if Target.self == Value.self {
                return unsafeBitCast(plan, to: Plan<Value>.self)
            }
            let rethrow = linker.rethrow
            return { resolution in
                let value = try plan(&resolution)
                guard let converted = value as? Value else {
                    throw rethrow(InjectionError(.typeMismatch, key: key.erased,
                        message: "\(key) is bound to \(target), but a \(Swift.type(of: value)) is not a \(Value.self).",
                        fix: "Bind \(key) to a type that conforms to or inherits from \(Value.self).",
                        location: location))
                }
                return converted
            }
        }
    }

    static func initializer<Value>(_ key: Key<Value>, _ initializer: Initializer<Value>, location: SourceLocation) -> Recipe {
        Recipe(key, source: .initializer, location: location, dependencies: initializer.dependencies) { linker in
            try initializer.link(linker)
        }
    }

    static func injector() -> Recipe {
        Recipe(Key<Injector>(), source: .injector, location: nil) { _ in { resolution in resolution.injector } }
    }

    /// A key bound with no target: built from its type's own descriptors when the type is
    /// ``Injectable``, an error otherwise.
    static func untargeted<Value>(_ key: Key<Value>, location: SourceLocation) -> Recipe {
        if let injectable = Value.self as? any Injectable.Type {
            return typeRecipe(injectable, name: key.name, location: location, justInTime: false)
        }
        let problem = InjectionError.Problem(
            .missingBinding, key: key.erased,
            message: "\(key) is bound without a target, and \(Value.self) is not Injectable.",
            fix: "Finish the binding with .to(instance:), .to { resolver in … }, .to(provider:) or .to(SomeType.self), or make \(Value.self) conform to Injectable.",
            location: location)
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

    private static func injectable<T: Injectable>(
        _ type: T.Type, name: String?, location: SourceLocation?, justInTime: Bool
    ) -> Recipe {
        let key = Key<T>(named: name)
        let initializer = T.initializer
        let properties = T.properties
        let dependencies = initializer.dependencies + properties.dependencies
        let source = Source.type(justInTime: justInTime)
        var problems: [InjectionError.Problem] = []
        for entry in properties.entries where !entry.accepts(T.self) {
            problems.append(InjectionError.Problem(
                .typeMismatch, key: key.erased,
                message: "\(T.self) declares the property \(entry.dependency.role), which belongs to a subclass \(T.self) is not.",
                fix: "Declare that property only in the properties of the subclass that has it.",
                location: entry.dependency.location))
        }

        if T.Instance.self == T.self {
            let initializer = unsafeBitCast(initializer, to: Initializer<T>.self)
            let properties = unsafeBitCast(properties, to: Properties<T>.self)
            return Recipe(key, source: source, location: location, dependencies: dependencies, problems: problems) { linker in
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

        if !(T.self is T.Instance.Type) {
            problems.append(InjectionError.Problem(
                .typeMismatch, key: key.erased,
                message: "\(T.self).initializer builds a \(T.Instance.self), not a \(T.self).",
                fix: "Describe an initializer of \(T.self) itself: Initializer(\(T.self).init(…)).",
                location: initializer.location))
        }
        // A subclass that inherited its superclass's conformance: the descriptors build and fill
        // the superclass type, and the instance is checked to be the subclass.
        return Recipe(key, source: source, location: location, dependencies: dependencies, problems: problems) { linker in
            let make = try initializer.link(linker)
            let setProperties = try properties.link(linker)
            let rethrow = linker.rethrow
            return { resolution in
                var instance = try make(&resolution)
                try setProperties?(&instance, &resolution)
                guard let built = instance as? T else {
                    throw rethrow(InjectionError(
                        .typeMismatch, key: key.erased,
                        message: "\(T.self) inherits the initializer of \(T.Instance.self), which built a \(Swift.type(of: instance)), not a \(T.self).",
                        fix: "Declare \(T.Instance.self).initializer as a class var built with Self.init(…) and a required init, or give \(T.self) an initializer of its own (override class var initializer).",
                        location: initializer.location))
                }
                built.awakeFromInjection()
                return built
            }
        }
    }
}

/// Holds a value that the injector hands out on any thread. The injector never mutates it;
/// sharing the object itself is the object's own business, as with any shared instance.
final class UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
