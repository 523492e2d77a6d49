import HTTPTypes
import Hummingbird
import Logging
import ServiceLifecycle
import Sightless

/// The notes server: its injector, the template of the child each request gets, and the
/// Hummingbird application that routes requests to a `NotesHandler`, each request in a child
/// injector of its own that is shut down when the request's handler returns or throws.
public struct NotesServer: Sendable {
    public let injector: Injector
    /// A child per request, made with the request's author.
    public let requests: ChildTemplate<Author>

    /// Builds the server's graph and validates it, with the handler every request will need,
    /// and opens the store: a missing binding, or a store that cannot be opened, stops the
    /// server here, before it serves anything.
    ///
    /// `overrides` replaces bindings of the server's module, in one line, as a test does:
    /// `try await NotesServer(storePath: "") { $0.bind((any NotesStore).self).to(instance: MemoryNotesStore()) }`.
    public init(storePath: String, overrides: (Binder) -> Void = { _ in }) async throws {
        injector = try await Injector.start(modules: [ServerModule(storePath: storePath)], overriding: overrides)
        requests = try Self.requests(of: injector)
    }

    /// Declares the template of the child each request gets, from the server's injector: what
    /// the server does when it starts, and what its graph check verifies
    /// (`Injector.verify(modules:awaitingEagerValues:templates:)`).
    public static func requests(of injector: Injector) throws(InjectionError) -> ChildTemplate<Author> {
        try injector.childTemplate(providing: Author.self) { binder in
            binder.bind(NotesSession.self).in(.singleton)   // one per request, given back when it ends
            binder.entryPoint(NotesHandler.self)
        }
    }

    /// The application: `GET /notes` lists the author's notes, `POST /notes` adds one. Each
    /// request runs in a child injector of its own (`RequestScopeMiddleware`).
    public func application(
        configuration: ApplicationConfiguration = .init(address: .hostname("127.0.0.1", port: 8080))
    ) -> some ApplicationProtocol {
        let router = Router(context: NotesRequestContext.self)
        router.add(middleware: RequestScopeMiddleware(requests: requests))
        router.get("notes") { _, context -> [Note] in
            try await context.handler().list()
        }
        router.post("notes") { request, context -> Response in
            let text = String(buffer: try await request.body.collect(upTo: 64 * 1024))
            let note = try await context.handler().add(text)
            return try context.responseEncoder.encode(note, from: request, context: context).withStatus(.created)
        }
        return Application(router: router, configuration: configuration, logger: Logger(label: "notes-server"))
    }

    /// The server's services, as swift-service-lifecycle runs them: the injector, then the
    /// application. On graceful shutdown (SIGTERM or SIGINT) the application stops first and
    /// lets the requests in flight end, then the injector shuts down.
    public func serviceGroup(
        configuration: ApplicationConfiguration = .init(address: .hostname("127.0.0.1", port: 8080))
    ) -> ServiceGroup {
        let logger = Logger(label: "notes-server")
        return ServiceGroup(configuration: .init(
            services: [.init(service: InjectorService(injector: injector)), .init(service: application(configuration: configuration))],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger))
    }

    /// Stops the server's values once the requests in flight have ended, or `timeout` has
    /// passed: refuses new requests (503), then closes what the injector keeps, newest first, the
    /// store (which writes its file) among them. What `serviceGroup` does on graceful shutdown.
    /// Returns how many requests were still running at the deadline.
    @discardableResult
    public func shutDown(draining timeout: Duration = .seconds(10)) async throws -> Int {
        try await injector.awaitShutDown(draining: timeout)
    }
}

extension HTTPField.Name {
    static let author = Self("X-Author")!
}

extension Response {
    func withStatus(_ status: HTTPResponse.Status) -> Response {
        var response = self
        response.status = status
        return response
    }
}
