/// How long the injector keeps what a binding builds, and who shares it.
///
/// ```swift
/// binder.bind(Logger.self).in(.singleton)          // one per injector
/// binder.bind(Request.self).to { _ in Request() }   // unscoped: new each time
/// ```
///
/// A scope is a name and a ``ScopeStrategy``, which wraps the unscoped way a binding provides
/// its values. Write a strategy to add a scope of your own:
///
/// ```swift
/// struct CountingScope: ScopeStrategy {
///     let builds: Counter
///     func scope<Value>(_ unscoped: Provision<Value>) -> Provision<Value> {
///         Provision(unscoped.key) { resolution in
///             builds.increment()
///             return try unscoped.get(&resolution)
///         }
///     }
/// }
///
/// extension Scope {
///     static func counting(_ builds: Counter) -> Scope { Scope("counting", CountingScope(builds: builds)) }
/// }
/// ```
public struct Scope: Hashable, Sendable, CustomStringConvertible {
    /// The scope's name, as errors and graph exports show it. Two scopes are equal when their
    /// names are.
    ///
    /// ```swift
    /// print(Scope.singleton.name)   // singleton
    /// ```
    public let name: String
    let strategy: any ScopeStrategy

    /// A scope with a name and the strategy that keeps its values.
    ///
    /// ```swift
    /// let session = Scope("session", SessionScope())
    /// ```
    public init(_ name: String, _ strategy: some ScopeStrategy) {
        self.name = name
        self.strategy = strategy
    }

    /// A new instance for every request: the default.
    ///
    /// ```swift
    /// binder.bind(Request.self).to { _ in Request() }   // unscoped unless .in(…) says otherwise
    /// ```
    public static let unscoped = Scope("unscoped", Unscoped())

    /// One instance per injector, built on first use by one thread while the others that ask
    /// wait for it and share its value; a build that throws keeps nothing, and the next request
    /// builds again.
    ///
    /// ```swift
    /// binder.bind(Database.self).to(SQLDatabase.self).in(.singleton)
    /// ```
    public static let singleton = Scope("singleton", Singleton())

    /// One instance per injector, built when the injector is built, dependencies first; a
    /// failure is reported then, with the graph's other problems, rather than on first use.
    ///
    /// ```swift
    /// binder.bind(Database.self).to(SQLDatabase.self).in(.eagerSingleton)
    /// ```
    public static let eagerSingleton = Scope("eager singleton", Singleton(isEager: true))

    /// Shared while someone holds it: every request gets the instance that exists, if any
    /// consumer still holds it; once the last one lets it go, the next request builds a new
    /// one. For class instances (a value type is not shared).
    ///
    /// ```swift
    /// binder.bind(ImageCache.self).in(.weak)
    /// ```
    public static let weak = Scope("weak", WeakScope())

    /// One instance per top-level request: every dependency on the key within one
    /// `getInstance` gets the same instance, and the next request builds a new one (Swinject's
    /// `.graph`).
    ///
    /// ```swift
    /// binder.bind(UnitOfWork.self).in(.perRequest)   // shared by the repositories of one request
    /// ```
    public static let perRequest = Scope("per request", PerRequestScope())

    /// The scope's name.
    ///
    /// ```swift
    /// print(Scope.singleton)   // singleton
    /// ```
    public var description: String { name }

    /// Two scopes are equal when their names are.
    public static func == (lhs: Scope, rhs: Scope) -> Bool { lhs.name == rhs.name }

    /// Hashes the name.
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// Wraps a binding's unscoped provision in this scope.
    func scope<Value>(_ unscoped: Provision<Value>) -> Provision<Value> {
        strategy.scope(unscoped)
    }
}

/// What a ``Scope`` does: wraps the unscoped way a binding provides its values, deciding when to
/// build a new value and when to give one it kept.
///
/// ```swift
/// struct Singleton: ScopeStrategy {
///     func scope<Value>(_ unscoped: Provision<Value>) -> Provision<Value> {
///         unscoped.stored(in: InstanceStorage(unscoped.key))
///     }
/// }
/// ```
public protocol ScopeStrategy: Sendable {
    /// The provision of a key in this scope, made once, when the injector links the binding.
    func scope<Value>(_ unscoped: Provision<Value>) -> Provision<Value>

    /// `true` when a value may be given to more than one request, so that it cannot take
    /// dynamic arguments (they would differ from request to request). `true` by default.
    var sharesValues: Bool { get }

    /// How long a value given out may be kept by the scope: what the graph compares to reject a
    /// longer-lived value holding a shorter-lived one. ``ScopeLifetime/injector`` by default.
    var lifetime: ScopeLifetime { get }

    /// `true` when the injector builds the value as soon as it is built itself, reporting a
    /// failure then. `false` by default.
    var isEager: Bool { get }

    /// What the scope does with a value built with `await` (an `async` initializer, closure or
    /// provider, or what needs one): ``AwaitedScoping/unsupported`` by default, which the graph
    /// reports as ``InjectionError/Kind/scopeConflict`` when such a value is bound in it.
    var awaitedScoping: AwaitedScoping { get }
}

/// What a scope does with a value built with `await`: the injector awaits it for the scope, which
/// cannot run a suspension inside its own synchronous ``Provision``.
///
/// ```swift
/// struct Cached: ScopeStrategy {
///     func scope<Value>(_ unscoped: Provision<Value>) -> Provision<Value> {
///         unscoped.stored(in: InstanceStorage(unscoped.key))
///     }
///     var awaitedScoping: AwaitedScoping { .keepsOne }   // one value per injector, awaited once
/// }
/// ```
public enum AwaitedScoping: Sendable, Equatable {
    /// A new value for every request, awaited each time, as ``Scope/unscoped`` does.
    case rebuilds
    /// One value per injector (per child, for a template's binding), even when the scope's
    /// provision hands several injectors one storage: awaited from one build however many tasks
    /// await it at the same time, as ``Scope/singleton`` does.
    case keepsOne
    /// The scope keeps no value built with `await`: binding one in it is an error.
    case unsupported
}

extension ScopeStrategy {
    /// Values are shared: `true`.
    ///
    /// ```swift
    /// var sharesValues: Bool { false }   // a scope that builds a new value for every request
    /// ```
    public var sharesValues: Bool { true }

    /// Values live as long as the injector.
    ///
    /// ```swift
    /// var lifetime: ScopeLifetime { .request }   // a value per top-level request
    /// ```
    public var lifetime: ScopeLifetime { .injector }

    /// Values are built on first use: `false`.
    ///
    /// ```swift
    /// var isEager: Bool { true }   // built when the injector is
    /// ```
    public var isEager: Bool { false }

    /// No value built with `await` is kept: ``AwaitedScoping/unsupported``.
    ///
    /// ```swift
    /// var awaitedScoping: AwaitedScoping { .keepsOne }   // one per injector, awaited once
    /// ```
    public var awaitedScoping: AwaitedScoping { .unsupported }
}

/// How long a scope keeps a value it gives out, from shortest to longest.
///
/// A value kept longer must not hold one kept shorter: a singleton holding a per-request value
/// would keep the first request's value for ever (a captive dependency). The injector rejects
/// that when it is built.
///
/// ```swift
/// print(ScopeLifetime.request < ScopeLifetime.injector)   // true
/// ```
public enum ScopeLifetime: Int, Sendable, Comparable, CustomStringConvertible {
    /// Nothing is kept: a new value per request (``Scope/unscoped``).
    case none
    /// Kept for one top-level request (``Scope/perRequest``).
    case request
    /// Kept while someone else holds it (``Scope/weak``).
    case weak
    /// Kept as long as the injector (``Scope/singleton``, ``Scope/eagerSingleton``).
    case injector

    public static func < (lhs: ScopeLifetime, rhs: ScopeLifetime) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `none`, `request`, `weak` or `injector`.
    public var description: String {
        switch self {
        case .none: "none"
        case .request: "request"
        case .weak: "weak"
        case .injector: "injector"
        }
    }
}

/// Builds a new value for every request.
struct Unscoped: ScopeStrategy {
    func scope<Value>(_ unscoped: Provision<Value>) -> Provision<Value> { unscoped }
    var sharesValues: Bool { false }
    var lifetime: ScopeLifetime { .none }
    var awaitedScoping: AwaitedScoping { .rebuilds }
}

/// Keeps one value per injector.
struct Singleton: ScopeStrategy {
    var isEager = false
    var awaitedScoping: AwaitedScoping { .keepsOne }

    func scope<Value>(_ unscoped: Provision<Value>) -> Provision<Value> {
        unscoped.stored(in: InstanceStorage(unscoped.key))
    }
}
