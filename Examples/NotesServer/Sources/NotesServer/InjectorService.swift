import ServiceLifecycle
import Sightless

/// The server's injector as a service of its swift-service-lifecycle group: it runs until the
/// group shuts down, gracefully (a signal, or `triggerGracefulShutdown()`) or by cancellation,
/// then shuts the injector down, closing what it keeps (the store, which writes its file).
///
/// Listed before the application in the group, it is shut down after it: the application stops
/// taking requests and lets those in flight end first, then the injector closes their values.
public struct InjectorService: Service {
    public let injector: Injector

    public init(injector: Injector) {
        self.injector = injector
    }

    public func run() async throws {
        // Returns on graceful shutdown, throws on cancellation: either way the injector shuts down.
        try? await gracefulShutdown()
        try await injector.awaitShutDown()
    }
}
