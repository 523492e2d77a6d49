/// Records the bindings of the modules that configure it.
///
/// A module receives a binder in ``Module/configure(_:)`` and states, key by key, where
/// values come from. Nothing is built while modules configure: the ``Injector`` reads the
/// recorded bindings afterwards, validates them together, and compiles them.
///
/// ```swift
/// func configure(_ binder: Binder) {
///     binder.bind(Api.self).to(HttpApi.self).in(.singleton)
///     binder.bind(Clock.self).to { _ in SystemClock() }
///     binder.bind(Logger.self).in(.singleton)      // an Injectable type, kept once
///     binder.install(StorageModule())
/// }
/// ```
public final class Binder {
    /// An element as recorded so far: most bindings are completed by `to(…)` right after
    /// `bind(…)`, so the recipe of a binding left without a target (and its error text) is made
    /// only when it is read.
    private enum Entry {
        case recipe(Recipe)
        /// The key and where it was bound: no closure to allocate for every `bind`.
        case untargeted(AnyKey, SourceLocation)
        /// Any element other than a binding.
        case other(Element)

        var element: Element {
            switch self {
            case .recipe(let recipe): .binding(recipe)
            case .untargeted(let key, let location): .binding(.untargeted(key, location: location))
            case .other(let element): element
            }
        }

        /// The binding's recipe, when the entry is a binding.
        var recipe: Recipe? {
            switch self {
            case .recipe(let recipe): recipe
            case .untargeted(let key, let location): .untargeted(key, location: location)
            case .other: nil
            }
        }
    }

    /// Everything recorded, in the order it was declared; a binding keeps its position while
    /// `to(…)` and `in(…)` complete it.
    private var entries: [Entry] = []

    /// The recorded elements, in the order they were declared.
    var elements: [Element] { entries.map(\.element) }

    /// The recorded elements other than bindings, in order.
    private var others: [Element] {
        entries.compactMap { entry in
            if case .other(let element) = entry { return element }
            return nil
        }
    }

    // One accessor per kind below: Swift cannot pass an enum case as the kind to filter by.
    /// The recorded decorators, in declaration order.
    var decorators: [Decorator] {
        others.compactMap { element in
            if case .decorator(let decorator) = element { return decorator }
            return nil
        }
    }

    /// The recorded contributions to collections, in declaration order.
    var contributions: [Contribution] {
        others.compactMap { element in
            if case .contribution(let contribution) = element { return contribution }
            return nil
        }
    }

    /// Whether this binder records override modules: their contributions add to (or, in a map,
    /// replace entries of) the modules' collections.
    var isRecordingOverrides = false
    /// Starts the names of the keys of this binder's contributions, so that a child's do not
    /// meet its parent's: `child 1 ` for a child's modules.
    var contributionPrefix = ""
    /// How many contributions to each collection this binder recorded: what numbers the next
    /// one, without a pass over everything recorded.
    private var contributionCounts: [AnyKey: Int] = [:]

    /// The number of the next contribution to `collection` among this binder's, from 1.
    func nextContributionNumber(of collection: AnyKey) -> Int {
        let number = contributionCounts[collection, default: 0] + 1
        contributionCounts[collection] = number
        return number
    }

    /// The recorded contextual bindings, in declaration order.
    var contextualBindings: [ContextualBinding] {
        others.compactMap { element in
            if case .contextual(let contextual) = element { return contextual }
            return nil
        }
    }

    /// The recorded candidate implementations, in declaration order.
    var candidates: [Candidate] {
        others.compactMap { element in
            if case .candidate(let candidate) = element { return candidate }
            return nil
        }
    }

    /// The recorded observers, in declaration order.
    var observers: [@Sendable (InstanceEvent) -> Void] {
        others.compactMap { element in
            if case .observer(let callback) = element { return callback }
            return nil
        }
    }

    /// Records an element other than a binding.
    func record(_ element: Element) {
        entries.append(.other(element))
    }

    /// The recorded bindings, in order.
    var recipes: [Recipe] { entries.compactMap(\.recipe) }

    /// The keys declared as entry points, with where each was declared.
    var entryPointKeys: [(key: AnyKey, location: SourceLocation)] {
        others.compactMap { element in
            if case .entryPoint(let key, let location) = element { return (key, location) }
            return nil
        }
    }

    init() {}

    /// Starts the binding of a type's key (the key with no name).
    ///
    /// ```swift
    /// binder.bind(Clock.self).to { _ in SystemClock() }
    /// ```
    @discardableResult
    public func bind<Value>(_ type: Value.Type, fileID: String = #fileID, line: Int = #line) -> BindingBuilder<Value> {
        bind(Key<Value>(), fileID: fileID, line: line)
    }

    /// Starts the binding of a key.
    ///
    /// Left without a target, the binding builds the key's type from its own ``Injectable``
    /// descriptors; a type that is not `Injectable` then needs a target.
    ///
    /// ```swift
    /// binder.bind(Key<Int>(named: "retries")).to(instance: 3)
    /// ```
    @discardableResult
    public func bind<Value>(_ key: Key<Value>, fileID: String = #fileID, line: Int = #line) -> BindingBuilder<Value> {
        let location = SourceLocation(fileID: fileID, line: line)
        entries.append(.untargeted(key.erased, location))
        return BindingBuilder(binder: self, index: entries.count - 1, key: key, location: location)
    }

    /// Declares a type the app will request, so that the injector validates and compiles it, and
    /// the graph exports draw it, when the injector is built rather than on its first request.
    ///
    /// An app that requests a type only at run time (a server that builds a handler per request)
    /// finds a missing binding when it starts, not on the first request:
    ///
    /// ```swift
    /// func configure(_ binder: Binder) {
    ///     binder.entryPoint(NotesHandler.self)
    ///     binder.entryPoint(Key<Screen>(named: "compact"))
    /// }
    /// ```
    ///
    /// An entry point needs no binding of its own: an ``Injectable`` type, a bound key, or a
    /// `T?`, `Lazy<T>` or `Factory<T, …>` of one. Declaring one twice is harmless.
    public func entryPoint<Value>(_ type: Value.Type, fileID: String = #fileID, line: Int = #line) {
        entryPoint(Key<Value>(), fileID: fileID, line: line)
    }

    /// Declares an ``Injectable`` type the app will request, as
    /// ``entryPoint(_:fileID:line:)-(Value.Type,_,_)`` declares any type. The type's conformance
    /// is known here, so the injector need not ask the runtime for it.
    ///
    /// ```swift
    /// binder.entryPoint(NotesHandler.self)   // final class NotesHandler: Injectable
    /// ```
    public func entryPoint<Declared: Injectable>(_ type: Declared.Type, fileID: String = #fileID, line: Int = #line) {
        JustInTimeTypes.record(Declared.self)
        entryPoint(Key<Declared>(), fileID: fileID, line: line)
    }

    /// Declares a ``MainActorInjectable`` type the app will request, as
    /// ``entryPoint(_:fileID:line:)-(Value.Type,_,_)`` declares any type. The type's conformance
    /// is known here, so the injector need not ask the runtime for it.
    ///
    /// ```swift
    /// binder.entryPoint(FeedModel.self)   // @MainActor final class FeedModel: MainActorInjectable
    /// ```
    public func entryPoint<Declared: MainActorInjectable>(
        _ type: Declared.Type, fileID: String = #fileID, line: Int = #line
    ) {
        JustInTimeTypes.record(Declared.self)
        entryPoint(Key<Declared>(), fileID: fileID, line: line)
    }

    /// Declares a key the app will request; see ``entryPoint(_:fileID:line:)-(Value.Type,_,_)``.
    ///
    /// ```swift
    /// binder.entryPoint(Key<Screen>(named: "compact"))
    /// ```
    public func entryPoint<Value>(_ key: Key<Value>, fileID: String = #fileID, line: Int = #line) {
        record(.entryPoint(key.erased, SourceLocation(fileID: fileID, line: line)))
    }

    /// Records the bindings of another module here, as if they were written in place.
    ///
    /// ```swift
    /// func configure(_ binder: Binder) {
    ///     binder.install(NetworkModule())
    ///     binder.install(StorageModule())
    /// }
    /// ```
    public func install(_ module: any Module) {
        configure(with: module)
    }

    /// The type of the module recording now: what names its contributions (written only
    /// when one is recorded).
    private(set) var recordingModule: (any Module.Type)?

    /// Records `module`'s bindings, with `module` as the one recording them.
    func configure(with module: any Module) {
        let outer = recordingModule
        recordingModule = type(of: module)
        module.configure(self)
        recordingModule = outer
    }

    /// Makes the binding at `index` the start of a binding of another key, still without a
    /// target: what `whenInjected(into:)` does to the key it was given.
    func rebind<Value>(at index: Int, to key: Key<Value>, location: SourceLocation) {
        entries[index] = .untargeted(key.erased, location)
    }

    /// Records the binding of a value each child of a template is made with, the `index`-th;
    /// `plan` makes the plan that reads it, specialized where the template was declared.
    @usableFromInline
    func provide<Value>(
        _ key: Key<Value>, index: Int, location: SourceLocation,
        plan: @escaping @Sendable (Int, CompilationOwner) -> Plan<Value>
    ) {
        entries.append(.recipe(.provided(key, index: index, location: location, plan: plan)))
    }

    func replace(at index: Int, with recipe: Recipe) {
        entries[index] = .recipe(recipe)
    }

    func setScope(_ scope: Scope, at index: Int) {
        guard var recipe = entries[index].recipe else { return }
        recipe.scope = scope
        entries[index] = .recipe(recipe)
    }

    func setCloser(_ closer: ValueCloser, at index: Int) {
        guard var recipe = entries[index].recipe else { return }
        recipe.closer = closer
        entries[index] = .recipe(recipe)
    }
}
