import ServiceLifecycle
import Sightless

/// The server's injector as a service of its swift-service-lifecycle group: it runs until the
/// group shuts down, gracefully (a signal, or `triggerGracefulShutdown()`) or by cancellation,
/// then shuts the injector down, closing what it keeps (the store, which writes its file).
///
/// The injector drains first (`awaitShutDown(draining:)`): a request that starts from then on
/// is refused (`RequestScopeMiddleware` answers 503), and those in flight end, with every value
/// still open, before the store closes. Listed before the application in the group, it is shut
/// down after it; the drain holds even when it is not, or when a request outlives the
/// application's own shutdown. On cancellation the wait ends at once.
public struct InjectorService: Service {
    public let injector: Injector
    /// How long the requests in flight get to end, once the group shuts down.
    public let drainTimeout: Duration

    public init(injector: Injector, drainTimeout: Duration = .seconds(10)) {
        self.injector = injector
        self.drainTimeout = drainTimeout
    }

    public func run() async throws {
        // Returns on graceful shutdown, throws on cancellation: either way the injector shuts down.
        try? await gracefulShutdown()
        try await injector.awaitShutDown(draining: drainTimeout)
    }
}
