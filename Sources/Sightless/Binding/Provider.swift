/// An object that provides the values of a binding: `binder.bind(T.self).to(provider:)`.
///
/// The provider is called for every request of an unscoped binding, and once for a
/// singleton. It may resolve other keys through the ``Resolver`` it is given.
///
/// ```swift
/// struct DatabaseProvider: Provider {
///     func provide(_ resolver: Resolver) throws -> Database {
///         let path = try resolver.getInstance(Key<String>(named: "databasePath"))
///         return try Database(openingFileAt: path)
///     }
/// }
///
/// binder.bind(Database.self).to(provider: DatabaseProvider()).in(.singleton)
/// ```
public protocol Provider<Value>: Sendable {
    /// The type of value provided.
    associatedtype Value

    /// Provides one value. A thrown error reaches the caller of `getInstance` as an
    /// ``InjectionError`` with the dependency path.
    func provide(_ resolver: Resolver) throws -> Value
}
