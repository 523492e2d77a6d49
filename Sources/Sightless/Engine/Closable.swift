/// A value that holds something to release when its injector shuts down: a connection, a file,
/// a thread.
///
/// ```swift
/// final class Database: Injectable, Closable {
///     static let initializer = Initializer(Database.init)
///     static var scope: Scope { .singleton }
///     func close() throws { try connection.close() }
/// }
///
/// try injector.shutDown()   // closes the Database, once
/// ```
///
/// ``Injector/shutDown()`` closes the values its storing scopes kept (singletons, eager
/// singletons, a custom scope's ``InstanceStorage``) in the reverse order of their creation, so
/// that a value is closed before what it was built from.
public protocol Closable: AnyObject {
    /// Releases what the value holds. An error is reported with the others of the shutdown.
    func close() throws
}
