import Hummingbird
import Logging
import Sightless

/// The notes server: its injector, the template of the child each request gets, and the
/// Hummingbird application that routes requests to a `NotesHandler`.
public struct NotesServer: Sendable {
    public let injector: Injector
    /// A child per request, made with the request's author.
    public let requests: ChildTemplate<Author>

    /// Builds the server's graph and validates it, with the handler every request will need:
    /// a missing binding stops the server here, before it serves anything.
    ///
    /// `overrides` replaces bindings of the server's module, in one line, as a test does:
    /// `try await NotesServer(storePath: "") { $0.bind((any NotesStore).self).to(instance: MemoryNotesStore()) }`.
    public init(storePath: String, overrides: (Binder) -> Void = { _ in }) async throws {
        let store = try await FileNotesStore.open(at: storePath)
        injector = try Injector(modules: [ServerModule(store: store)], overriding: overrides)
        requests = try injector.childTemplate(providing: Author.self) { binder in
            binder.entryPoint(NotesHandler.self)
        }
    }

    /// The handler of one request, from a child made with the request's author.
    func handler(for request: Request) throws -> NotesHandler {
        guard let name = request.headers[.author], !name.isEmpty else {
            throw HTTPError(.unauthorized, message: "Say who you are in the X-Author header.")
        }
        return try requests.child(Author(name: name)).getInstance(NotesHandler.self)
    }

    /// The application: `GET /notes` lists the author's notes, `POST /notes` adds one.
    public func application(
        configuration: ApplicationConfiguration = .init(address: .hostname("127.0.0.1", port: 8080))
    ) -> some ApplicationProtocol {
        let router = Router()
        router.get("notes") { request, _ -> [Note] in
            try await handler(for: request).list()
        }
        router.post("notes") { request, context -> Response in
            let text = String(buffer: try await request.body.collect(upTo: 64 * 1024))
            let note = try await handler(for: request).add(text)
            return try context.responseEncoder.encode(note, from: request, context: context).withStatus(.created)
        }
        return Application(router: router, configuration: configuration, logger: Logger(label: "notes-server"))
    }

    /// Stops the server's values: closes what the injector keeps and writes the store.
    public func shutDown() async throws {
        let store = try injector.getInstance((any NotesStore).self)
        try injector.shutDown()
        try await (store as? FileNotesStore)?.save()
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
