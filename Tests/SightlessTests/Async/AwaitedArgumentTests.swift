import Sightless
import Testing

// An initializer's argument whose dependency awaits in place takes the value awaited for it in
// its section by that dependency's key, and otherwise runs the dependency's own plan: each
// argument gets the value awaited for its own key, a contextual binding's value goes to its
// consumer alone, and outside a section the dependency builds or fails as it always does.

private final class Socket: Sendable {
    let label: String
    init(label: String) { self.label = label }
}

/// Two arguments of one type under two names, both opened with `await`.
private final class Bridge: Injectable, Sendable {
    let inbound: Socket
    let outbound: Socket
    init(inbound: Socket, outbound: Socket) {
        self.inbound = inbound
        self.outbound = outbound
    }
    static let initializer = Initializer(
        Bridge.init(inbound:outbound:), .named("in"), .named("out"))
}

private final class Reader: Injectable, Sendable {
    let socket: Socket
    init(socket: Socket) { self.socket = socket }
    static let initializer = Initializer(Reader.init(socket:))
}

private final class Writer: Injectable, Sendable {
    let socket: Socket
    init(socket: Socket) { self.socket = socket }
    static let initializer = Initializer(Writer.init(socket:))
}

/// A writer and a reader whose sockets come from one key, served to the writer by a contextual
/// binding of its own. The writer comes first: an argument that took the value awaited for the
/// key it names, not the key that serves it, would take the reader's.
private final class Pipe: Injectable, Sendable {
    let writer: Writer
    let reader: Reader
    init(writer: Writer, reader: Reader) {
        self.writer = writer
        self.reader = reader
    }
    static let initializer = Initializer(Pipe.init(writer:reader:))
}

/// A class whose value is an instance of a subclass: read through the runtime's cast, not in
/// place.
private class Channel: @unchecked Sendable {}
private final class SecureChannel: Channel, @unchecked Sendable {}

private final class Session: Injectable, Sendable {
    let channel: Channel
    init(channel: Channel) { self.channel = channel }
    static let initializer = Initializer(Session.init(channel:))
}

@Suite("Awaited arguments")
struct AwaitedArgumentTests {
    @Test("two arguments of one type under two names each get the value awaited for their own name")
    func namedArguments() async throws {
        let injector = try Injector(modules: [Bindings { binder in
            binder.bind(Key<Socket>(named: "in")).to { _ async in Socket(label: "in") }
            binder.bind(Key<Socket>(named: "out")).to { _ async in Socket(label: "out") }
        }])
        let bridge = try await injector.instance(Bridge.self)
        #expect(bridge.inbound.label == "in")
        #expect(bridge.outbound.label == "out")
    }

    @Test("an awaited contextual binding reaches its consumer alone, the key's own binding every other")
    func contextualArgument() async throws {
        let injector = try Injector(modules: [Bindings { binder in
            binder.bind(Socket.self).to { _ async in Socket(label: "shared") }
            binder.bind(Socket.self).whenInjected(into: Writer.self).to { _ async in Socket(label: "writer's") }
        }])
        let pipe = try await injector.instance(Pipe.self)
        #expect(pipe.reader.socket.label == "shared")
        #expect(pipe.writer.socket.label == "writer's")
    }

    @Test("an awaited value of a subclass reaches an argument of its superclass")
    func subclassArgument() async throws {
        let injector = try Injector(modules: [Bindings { binder in
            binder.bind(Channel.self).to { _ async in SecureChannel() }
        }])
        let session = try await injector.instance(Session.self)
        #expect(session.channel is SecureChannel)
    }

    @Test("outside a section, an argument over an unbuilt async dependency is needsAwait naming it")
    func synchronousRequest() throws {
        let injector = try Injector(modules: [Bindings { binder in
            binder.bind(Key<Socket>(named: "in")).to { _ async in Socket(label: "in") }
            binder.bind(Key<Socket>(named: "out")).to { _ async in Socket(label: "out") }
        }])
        let error = #expect(throws: InjectionError.self) { try injector.getInstance(Bridge.self) }
        #expect(error?.kind == .needsAwait)
        guard case .needsAwait(let key, let awaited)? = error?.problems.first?.detail else {
            Issue.record("expected needsAwait, got \(String(describing: error))")
            return
        }
        #expect(key == AnyKey(Key<Bridge>()))
        #expect(awaited == AnyKey(Key<Socket>(named: "in")))
    }

    @Test("an argument over an async singleton reads the stored value once it exists, synchronously too")
    func storedSingletonArgument() async throws {
        let injector = try Injector(modules: [Bindings { binder in
            binder.bind(Socket.self).to { _ async in Socket(label: "kept") }.in(.singleton)
        }])
        let first = try await injector.instance(Reader.self)
        let second = try injector.getInstance(Reader.self)
        #expect(first.socket === second.socket)
        #expect(first !== second)
    }
}
