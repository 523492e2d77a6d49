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
