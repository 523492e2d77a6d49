import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NotesServer
import ServiceLifecycle
import Sightless
import Synchronization
import Testing

@Suite("Notes server")
struct NotesServerTests {
    /// A server whose store is swapped for one in memory, in one line.
    private func server(_ store: MemoryNotesStore = MemoryNotesStore()) async throws -> NotesServer {
        try await NotesServer(storePath: "/nonexistent/notes.json") { $0.bind((any NotesStore).self).to(instance: store) }
    }

    @Test("the server's graph, its request template and the handler each request needs are valid, and checking opens no store")
    func graphIsValid() throws {
        // The store's path does not exist: verifying builds nothing, so nothing opens it.
        try Injector.verify(modules: [ServerModule(storePath: "/nonexistent/notes.json")], awaitingEagerValues: true,
                            templates: [NotesServer.requests(of:)])
    }

    @Test("a note posted by an author is listed for that author, over 127.0.0.1")
    func postThenList() async throws {
        let server = try await server()
        try await server.application().test(.live) { client in
            try await client.execute(uri: "/notes", method: .post, headers: [.init("X-Author")!: "ada"],
                                     body: ByteBuffer(string: "buy milk")) { response in
                #expect(response.status == .created)
            }
            try await client.execute(uri: "/notes", method: .get, headers: [.init("X-Author")!: "ada"]) { response in
                let notes = try JSONDecoder().decode([Note].self, from: Data(buffer: response.body))
                #expect(notes.map(\.text) == ["buy milk"])
            }
        }
    }

    @Test("each request gets its own author from its own child injector")
    func authorsAreSeparate() async throws {
        let store = MemoryNotesStore([Note(id: 1, author: "grace", text: "compile")])
        let server = try await server(store)
        try await server.application().test(.live) { client in
            try await client.execute(uri: "/notes", method: .get, headers: [.init("X-Author")!: "ada"]) { response in
                let notes = try JSONDecoder().decode([Note].self, from: Data(buffer: response.body))
                #expect(notes.isEmpty)
            }
            try await client.execute(uri: "/notes", method: .get, headers: [.init("X-Author")!: "grace"]) { response in
                let notes = try JSONDecoder().decode([Note].self, from: Data(buffer: response.body))
                #expect(notes.map(\.id) == [1])
            }
        }
    }

    @Test("a request without an author is refused with 401")
    func missingAuthor() async throws {
        let server = try await server()
        try await server.application().test(.live) { client in
            try await client.execute(uri: "/notes", method: .get) { response in
                #expect(response.status == .unauthorized)
            }
        }
    }

    @Test("200 posts from 8 concurrent clients are all kept")
    func concurrentPosts() async throws {
        let store = MemoryNotesStore()
        let server = try await server(store)
        try await server.application().test(.live) { client in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<8 {
                    group.addTask {
                        for index in 0..<25 {
                            try await client.execute(uri: "/notes", method: .post, headers: [.init("X-Author")!: "w\(worker)"],
                                                     body: ByteBuffer(string: "note \(index)")) { response in
                                #expect(response.status == .created)
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        var total = 0
        for worker in 0..<8 { total += await store.notes(by: "w\(worker)").count }
        #expect(total == 200)
    }

    @Test("a server missing a binding fails at start-up, naming it")
    func missingBindingAtStartUp() async throws {
        let error = await #expect(throws: InjectionError.self) {
            _ = try await NotesServer(storePath: "/nonexistent/notes.json") {
                $0.bind((any NotesStore).self).to(Key<MemoryNotesStore>(named: "replica"))
            }
        }
        #expect(error?.kind == .missingBinding)
    }

    @Test("a store file that cannot be read stops the server at start-up")
    func unreadableStoreAtStartUp() async throws {
        let directory = FileManager.default.temporaryDirectory.path   // a folder, not a JSON file
        let error = await #expect(throws: InjectionError.self) { _ = try await NotesServer(storePath: directory) }
        #expect(error?.kind == .initializerFailed)
    }

    @Test("notes added before shutdown are in the store's file after it")
    func shutdownSavesTheFile() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("notes-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let server = try await NotesServer(storePath: path)
        try await server.application().test(.live) { client in
            try await client.execute(uri: "/notes", method: .post, headers: [.init("X-Author")!: "ada"],
                                     body: ByteBuffer(string: "keep me")) { _ in }
        }
        try await server.shutDown()
        let saved = try JSONDecoder().decode([Note].self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(saved.map(\.text) == ["keep me"])
    }

    @Test("a request whose handler throws still gives its session back to the pool")
    func throwingRequestClosesItsSession() async throws {
        let server = try await server()
        try await server.application().test(.live) { client in
            for _ in 0..<5 {
                // An empty note is refused by the handler, after the request's session was leased.
                try await client.execute(uri: "/notes", method: .post, headers: [.init("X-Author")!: "ada"],
                                         body: ByteBuffer()) { response in
                    #expect(response.status == .badRequest)
                }
            }
        }
        let pool = try server.injector.getInstance(SessionPool.self)
        #expect(pool.returned == 5)
        #expect(pool.open == 0)
    }

    @Test("every request's session is given back once the request ends")
    func everySessionGivenBack() async throws {
        let server = try await server()
        try await server.application().test(.live) { client in
            try await client.execute(uri: "/notes", method: .post, headers: [.init("X-Author")!: "ada"],
                                     body: ByteBuffer(string: "buy milk")) { _ in }
            try await client.execute(uri: "/notes", method: .get, headers: [.init("X-Author")!: "ada"]) { _ in }
        }
        let pool = try server.injector.getInstance(SessionPool.self)
        #expect(pool.returned == 2)
        #expect(pool.open == 0)
    }

    @Test("the injector's service shuts the injector down on graceful shutdown, and the store writes its file")
    func injectorServiceShutsDownOnGracefulShutdown() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("notes-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let server = try await NotesServer(storePath: path)
        _ = try await server.injector.instance((any NotesStore).self).add("keep me", by: "ada")
        let group = ServiceGroup(configuration: .init(services: [.init(service: InjectorService(injector: server.injector))],
                                                      logger: Logger(label: "test")))
        async let running: Void = group.run()
        await group.triggerGracefulShutdown()
        try await running
        let saved = try JSONDecoder().decode([Note].self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(saved.map(\.text) == ["keep me"])
        let error = await #expect(throws: InjectionError.self) { try await server.injector.instance((any NotesStore).self) }
        #expect(error?.kind == .injectorShutDown)
    }

    @Test("a request in flight when the server shuts down still completes, and the store closes after it")
    func requestInFlightCompletes() async throws {
        let store = HeldNotesStore()
        let server = try await NotesServer(storePath: "/nonexistent/notes.json") {
            $0.bind((any NotesStore).self).to { _ in store }.in(.singleton)   // closed by the injector
        }
        // In-process, so that the refused request need not wait behind the held one on one connection.
        try await server.application().test(.router) { client in
            async let posted = client.execute(uri: "/notes", method: .post, headers: [.init("X-Author")!: "ada"],
                                              body: ByteBuffer(string: "in flight")) { response in response.status }
            await store.adding.wait()
            async let unfinished = server.shutDown(draining: .seconds(30))
            // While the injector drains, a new request is refused before it begins.
            var status = HTTPResponse.Status.ok
            for _ in 0..<2_000 where status != .serviceUnavailable {
                status = try await client.execute(uri: "/notes", method: .get, headers: [.init("X-Author")!: "grace"]) { $0.status }
                if status != .serviceUnavailable { try await Task.sleep(for: .milliseconds(5)) }
            }
            #expect(status == .serviceUnavailable)
            #expect(!store.isClosed)
            store.finishing.open()
            #expect(try await posted == .created)
            #expect(try await unfinished == 0)
        }
        #expect(store.isClosed)
        #expect(store.added == ["in flight"])
    }

    @Test("the injector's service drains the requests in flight on graceful shutdown")
    func injectorServiceDrains() async throws {
        let store = HeldNotesStore()
        let server = try await NotesServer(storePath: "/nonexistent/notes.json") {
            $0.bind((any NotesStore).self).to { _ in store }.in(.singleton)   // closed by the injector
        }
        try await server.application().test(.live) { client in
            async let posted = client.execute(uri: "/notes", method: .post, headers: [.init("X-Author")!: "ada"],
                                              body: ByteBuffer(string: "in flight")) { response in response.status }
            await store.adding.wait()
            let group = ServiceGroup(configuration: .init(
                services: [.init(service: InjectorService(injector: server.injector, drainTimeout: .seconds(30)))],
                logger: Logger(label: "test")))
            async let running: Void = group.run()
            await group.triggerGracefulShutdown()
            try await Task.sleep(for: .milliseconds(50))
            #expect(!store.isClosed)
            store.finishing.open()
            #expect(try await posted == .created)
            try await running
        }
        #expect(store.isClosed)
    }
}

/// A one-time event tasks await.
private final class Event: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}

/// A store whose `add` holds the request until the test lets it finish, and that records when
/// the injector closes it.
private final class HeldNotesStore: NotesStore, AsyncClosable {
    let adding = Event()
    let finishing = Event()
    private let state = Mutex<(added: [String], closed: Bool)>(([], false))

    var added: [String] { state.withLock { $0.added } }
    var isClosed: Bool { state.withLock { $0.closed } }

    func notes(by author: String) async throws -> [Note] { [] }

    func add(_ text: String, by author: String) async throws -> Note {
        adding.open()
        await finishing.wait()
        return state.withLock { state in
            state.added.append(text)
            return Note(id: state.added.count, author: author, text: text)
        }
    }

    func close() async {
        state.withLock { $0.closed = true }
    }
}

/// A log handler that keeps the messages it is given, for a test to read.
private struct KeptLines: LogHandler {
    let kept: LogLines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        kept.lines.withLock { $0.append(event.message.description) }
    }
}

private final class LogLines: Sendable {
    let lines = Mutex<[String]>([])
    var logger: Logger { Logger(label: "test") { _ in KeptLines(kept: self) } }
}

@Suite("Notes server, patched in one line")
struct NotesServerPatchTests {
    @Test("a handler reads the logger where it stands, from a request of a patched injector")
    func patchedLoggerIsRead() async throws {
        let server = try await NotesServer(storePath: "/nonexistent/notes.json") {
            $0.bind((any NotesStore).self).to(instance: MemoryNotesStore())
        }
        let log = LogLines()
        let note = try await server.injector.withOverrides({ $0.bind(Logger.self).to(instance: log.logger) }) { patched in
            let requests = try patched.childTemplate(providing: Author.self) { $0.bind(NotesSession.self).in(.singleton) }
            return try await requests.withChild(Author(name: "ada")) { request in
                try await request.instance(NotesHandler.self).add("hello")
            }
        }
        #expect(note.text == "hello")
        #expect(log.lines.withLock { $0 } == ["note added"])
        try await server.shutDown()
    }
}
