/// The fields of a ``Recipe``, kept in one immutable object that every copy of the recipe
/// shares. A recipe is recorded once and then read by every stage of a build (the binder, the
/// merge of bindings, the graph, the rules, the linker, the compilation kept for later
/// requests); changing a field (a binding's scope set by `in(_:)`) makes a new storage.
final class RecipeStorage: Sendable {
    let key: AnyKey
    let source: Recipe.Source
    let scope: Scope
    let location: SourceLocation?
    let buildLocation: SourceLocation?
    let dependencies: [Dependency]
    let problems: [InjectionError.Problem]
    let concreteType: Any.Type?
    /// The value an instance binding hands out, for the check of an alias to it.
    let concreteInstance: UncheckedBox<Any>?
    let makeNode: @Sendable (any Linking & LinkingNode, Scope) throws -> AnyNode
    let isAsync: Bool
    let isolation: ActorIsolation?
    let hasDynamicDependencies: Bool
    let closer: ValueCloser?

    init(
        key: AnyKey, source: Recipe.Source, scope: Scope, location: SourceLocation?, buildLocation: SourceLocation?,
        dependencies: [Dependency], problems: [InjectionError.Problem], concreteType: Any.Type?,
        concreteInstance: UncheckedBox<Any>? = nil, makeNode: @escaping @Sendable (any Linking & LinkingNode, Scope) throws -> AnyNode, isAsync: Bool,
        isolation: ActorIsolation? = nil, closer: ValueCloser? = nil
    ) {
        self.key = key
        self.source = source
        self.scope = scope
        self.location = location
        self.buildLocation = buildLocation
        self.dependencies = dependencies
        self.problems = problems
        self.concreteType = concreteType
        self.concreteInstance = concreteInstance
        self.makeNode = makeNode
        self.isAsync = isAsync
        self.isolation = isolation
        self.closer = closer
        self.hasDynamicDependencies = dependencies.contains(where: \.isDynamic)
    }

    private func copy(
        source: Recipe.Source? = nil, scope: Scope? = nil,
        makeNode: (@Sendable (any Linking & LinkingNode, Scope) throws -> AnyNode)? = nil, isAsync: Bool? = nil,
        isolation: ActorIsolation?? = nil, closer: ValueCloser? = nil
    ) -> RecipeStorage {
        RecipeStorage(
            key: key, source: source ?? self.source, scope: scope ?? self.scope, location: location,
            buildLocation: buildLocation, dependencies: dependencies, problems: problems, concreteType: concreteType,
            concreteInstance: concreteInstance, makeNode: makeNode ?? self.makeNode, isAsync: isAsync ?? self.isAsync, isolation: isolation ?? self.isolation,
            closer: closer ?? self.closer)
    }

    func with(source: Recipe.Source) -> RecipeStorage { copy(source: source) }
    func with(scope: Scope) -> RecipeStorage { copy(scope: scope) }
    func with(isAsync: Bool) -> RecipeStorage { copy(isAsync: isAsync) }
    func with(isolation: ActorIsolation?) -> RecipeStorage { copy(isolation: .some(isolation)) }
    func with(closer: ValueCloser) -> RecipeStorage { copy(closer: closer) }
    func with(makeNode: @escaping @Sendable (any Linking & LinkingNode, Scope) throws -> AnyNode) -> RecipeStorage {
        copy(makeNode: makeNode)
    }
}
