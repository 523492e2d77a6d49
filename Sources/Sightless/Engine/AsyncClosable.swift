/// A value that releases what it holds with `await` when its injector shuts down: the async
/// form of ``Closable``.
///
/// ```swift
/// final class Broker: Injectable, AsyncClosable {
///     static let initializer = Initializer(Broker.connect)
///     static var scope: Scope { .singleton }
///     func close() async throws { try await connection.drain() }
/// }
///
/// try await injector.awaitShutDown()   // closes the Broker, once
/// ```
///
/// ``Injector/awaitShutDown()`` closes the values its storing scopes kept, ``Closable`` and
/// `AsyncClosable` alike, in the reverse order of their creation. ``Injector/shutDown()``, which
/// cannot await, closes only the ``Closable`` ones.
public protocol AsyncClosable: AnyObject {
    /// Releases what the value holds. An error is reported with the others of the shutdown.
    func close() async throws
}
