/// How long the injector keeps what a binding builds.
///
/// ```swift
/// binder.bind(Logger.self).in(.singleton)          // one per injector
/// binder.bind(Request.self).to { _ in Request() }   // unscoped: new each time
/// ```
public struct Scope: Hashable, Sendable, CustomStringConvertible {
    enum Kind: Hashable, Sendable {
        case unscoped
        case singleton
    }

    let kind: Kind

    /// A new instance for every request: the default.
    ///
    /// ```swift
    /// binder.bind(Request.self).to { _ in Request() }   // unscoped unless .in(…) says otherwise
    /// ```
    public static let unscoped = Scope(kind: .unscoped)

    /// One instance per injector, built on first use, exactly once even when many threads ask
    /// at the same time.
    ///
    /// ```swift
    /// binder.bind(Database.self).to(SQLDatabase.self).in(.singleton)
    /// ```
    public static let singleton = Scope(kind: .singleton)

    /// The scope's name, as errors and graph exports show it.
    ///
    /// ```swift
    /// print(Scope.singleton)   // singleton
    /// ```
    public var description: String {
        switch kind {
        case .unscoped: "unscoped"
        case .singleton: "singleton"
        }
    }
}
