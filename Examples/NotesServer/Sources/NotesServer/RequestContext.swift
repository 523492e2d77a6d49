import Hummingbird
import Sightless

/// Who is asking: the value each request's child injector is made with.
public struct Author: Sendable {
    public let name: String

    public init(name: String) {
        self.name = name
    }
}

/// The context of a notes request: Hummingbird's, plus the request's child injector, which
/// `RequestScopeMiddleware` sets for the handlers it calls.
public struct NotesRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The request's child injector, shut down once the request's handler returns or throws.
    public var injector: Injector?

    public init(source: Source) {
        coreContext = .init(source: source)
    }

    /// The request's handler, built by the request's child injector.
    func handler() async throws -> NotesHandler {
        guard let injector else { throw HTTPError(.internalServerError, message: "No request scope.") }
        return try await injector.instance(NotesHandler.self)
    }
}

/// Gives each request a child injector made from the server's template with the request's
/// author, for the handlers after it, and shuts the child down when they return or throw:
/// the request's session goes back to the pool even when its handler fails. While the
/// injector drains for shutdown, a new request is answered 503.
struct RequestScopeMiddleware: RouterMiddleware {
    typealias Context = NotesRequestContext

    let requests: ChildTemplate<Author>

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let name = request.headers[.author], !name.isEmpty else {
            throw HTTPError(.unauthorized, message: "Say who you are in the X-Author header.")
        }
        do {
            return try await requests.withChild(Author(name: name)) { child in
                var context = context
                context.injector = child
                // The response's body is a buffer, written out after the child is shut down.
                return try await next(request, context)
            }
        } catch let error as InjectionError where error.problems.contains(where: \.isDrainRefusal) {
            // The server is shutting down: the request was refused before it began.
            throw HTTPError(.serviceUnavailable, message: "The server is shutting down; try again.")
        }
    }
}

extension InjectionError.Problem {
    /// A `withChild` refused by the injector's draining shutdown (`awaitShutDown(draining:)`).
    var isDrainRefusal: Bool {
        if case .shuttingDown = detail { return true }
        return false
    }
}
