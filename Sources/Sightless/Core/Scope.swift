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

    /// One instance per injector, built on first use, exactly once even when many threads ask
    /// at the same time.
    ///
    /// ```swift
    /// binder.bind(Database.self).to(SQLDatabase.self).in(.singleton)
    /// ```
    public static let singleton = Scope("singleton", Singleton())

    /// The scope's name.
    ///
    /// ```swift
    /// print(Scope.singleton)   // singleton
    /// ```
    public var description: String { name }

    public static func == (lhs: Scope, rhs: Scope) -> Bool { lhs.name == rhs.name }

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
}

extension ScopeStrategy {
    /// Values are shared: `true`.
    ///
    /// ```swift
    /// var sharesValues: Bool { false }   // a scope that builds a new value for every request
    /// ```
    public var sharesValues: Bool { true }
}

/// Builds a new value for every request.
struct Unscoped: ScopeStrategy {
    func scope<Value>(_ unscoped: Provision<Value>) -> Provision<Value> { unscoped }
    var sharesValues: Bool { false }
}

/// Keeps one value per injector.
struct Singleton: ScopeStrategy {
    func scope<Value>(_ unscoped: Provision<Value>) -> Provision<Value> {
        unscoped.stored(in: InstanceStorage(unscoped.key))
    }
}
