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
    ///
    /// A module installed while it is being installed (two modules that install each other,
    /// or one that installs itself) is not installed again: the injector reports the
    /// modules' cycle (``InjectionError/Kind/cyclicInstall``), naming each install. A module
    /// is the same one again when it is of the same type and, if its type is `Equatable`,
    /// equal; a module of a type that is not `Equatable` is the same one when the same
    /// `install` call installs it (its file, line and column). A module that installs another
    /// value of its own type on purpose (a smaller one each time, down to one that installs
    /// none) is `Equatable`, so that its values are told apart.
    public func install(_ module: any Module, fileID: String = #fileID, line: Int = #line, column: Int = #column) {
        // The rest of a module installed a second time is not recorded: see `configure(with:)`.
        guard droppedLevel == nil else { return }
        let site = InstallSite(location: SourceLocation(fileID: fileID, line: line), column: column)
        if let cycle = cycle(closedBy: module, at: site) {
            installCycles.append(cycle)
            return
        }
        // Installs of ever new modules (values of an `Equatable` type that never repeat) end
        // nowhere: stopped while the thread's stack still has room, or at `maximumInstallDepth`.
        if installing.count >= Self.maximumInstallDepth || !StackGuard.hasRoom(StackGuard.installRoom) {
            let outermost = installing.prefix(Self.reportedInstalls).map(\.install)
                + [InjectionError.Problem.Install(module: AnyKey(type: Swift.type(of: module), name: nil), location: site.location)]
            endlessInstalls = InjectionError.Problem(.endlessInstalls(Array(outermost.prefix(Self.reportedInstalls)), depth: installing.count),
                                                     location: site.location)
            // Recorded from the first module of that type on, its bindings would be recorded
            // once per install: dropped, as a cycle's second installer's are.
            let type = Swift.type(of: module)
            droppedLevel = installing.firstIndex { Swift.type(of: $0.module) == type } ?? 0
            return
        }
        configure(with: module, installedAt: site)
    }

    /// Where an `install` call is written: its location, and its column, which tells apart two
    /// calls on one line.
    struct InstallSite: Equatable {
        let location: SourceLocation
        let column: Int
    }

    /// The type of the module recording now: what names its contributions (written only
    /// when one is recorded).
    private(set) var recordingModule: (any Module.Type)?

    /// A module being installed: where, and how much was recorded before it.
    private struct Installing {
        let module: any Module
        /// Where `install` was called; `nil` for a module the injector was given.
        let site: InstallSite?
        /// The number of entries recorded before the module's own.
        let start: Int

        /// The install, as a problem names it.
        var install: InjectionError.Problem.Install {
            InjectionError.Problem.Install(module: AnyKey(type: Swift.type(of: module), name: nil), location: site?.location)
        }
    }

    /// The modules being installed, the outermost first.
    private var installing: [Installing] = []
    /// How many installs may be nested: far more than any module tree has, far fewer than
    /// installs that never end would reach.
    static let maximumInstallDepth = 1_000
    /// How many of the outermost installs an endless one is reported with.
    private static let reportedInstalls = 4
    /// Installs nested without end, stopped (`install`); what the injector reports.
    private(set) var endlessInstalls: InjectionError.Problem?
    /// The level of `installing` whose recording is dropped when it ends: a module installed
    /// again, found to be so only once it reinstalled what it installs, whose bindings would be
    /// recorded twice.
    private var droppedLevel: Int?
    /// The modules that install each other, as each cycle was found: every install, the first
    /// module repeated at the end.
    private(set) var installCycles: [[InjectionError.Problem.Install]] = []

    /// Records `module`'s bindings, with `module` as the one recording them; `site` is where
    /// another module installs it, `nil` for a module the injector was given.
    func configure(with module: any Module, installedAt site: InstallSite? = nil) {
        let outer = recordingModule
        recordingModule = type(of: module)
        let level = installing.count
        installing.append(Installing(module: module, site: site, start: entries.count))
        module.configure(self)
        let start = installing.removeLast().start
        if droppedLevel == level {
            entries.removeSubrange(start...)
            droppedLevel = nil
        }
        recordingModule = outer
    }

    /// The cycle `module`, installed at `site`, closes, or `nil` when it is no module being
    /// installed: its installs, the first module repeated at the end.
    ///
    /// A module of an `Equatable` type is found as soon as it is installed again. One of another
    /// type is told apart only by where it is installed: an install call found again has
    /// installed its installer a second time. That second installer's recording is then
    /// dropped (`droppedLevel`), so each module of the cycle is recorded once, and the cycle is
    /// named from its first install.
    private func cycle(closedBy module: any Module, at site: InstallSite) -> [InjectionError.Problem.Install]? {
        let type = Swift.type(of: module)
        guard let index = installing.lastIndex(where: { installed in
            guard Swift.type(of: installed.module) == type else { return false }
            return Self.equal(installed.module, module) ?? (installed.site == site)
        }) else { return nil }
        func install(_ installed: Installing) -> InjectionError.Problem.Install { installed.install }
        let closing = InjectionError.Problem.Install(module: AnyKey(type: type, name: nil), location: site.location)
        let installer = installing.count - 1
        // The installer of the install found again installed the first one of it too: the
        // same module, a second time.
        if !(module is any Equatable), index > 0,
           Swift.type(of: installing[index - 1].module) == Swift.type(of: installing[installer].module) {
            droppedLevel = installer
            return installing[(index - 1)...].map(install)
        }
        return installing[index...].map(install) + [closing]
    }

    /// Whether two modules of one type are equal, or `nil` when their type is not `Equatable`.
    private static func equal(_ first: any Module, _ second: any Module) -> Bool? {
        guard let first = first as? any Equatable else { return nil }
        return first.isEqual(to: second)
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

private extension Equatable {
    /// Whether `other` is a value of this type equal to this one.
    func isEqual(to other: Any) -> Bool {
        (other as? Self) == self
    }
}
