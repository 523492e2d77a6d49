import Hummingbird
import NotesServer

// notes-server [STORE.json] [PORT]: serves notes on 127.0.0.1 until SIGTERM or SIGINT, then
// lets the requests in flight end and shuts the injector down (the store writes its file).
let arguments = CommandLine.arguments.dropFirst()
let server = try await NotesServer(storePath: arguments.first ?? "notes.json")
let port = arguments.dropFirst().first.flatMap { Int($0) } ?? 8080
try await server.serviceGroup(configuration: .init(address: .hostname("127.0.0.1", port: port))).run()
