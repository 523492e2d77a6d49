import Sightless
import Testing

// A protocol of an app target isolated to the main actor by default: its metatype is not
// `Sendable` (its conformances may be isolated), so a request that took it as a plain argument
// returned a value the compiler tied to that metatype ("task-isolated"), which a main-actor
// closure could not capture: "sending 'session' risks causing data races". A request of such a
// type runs in the caller's isolation, so the value is the caller's, as one it made is.
//
// This file compiles only with that fix: each test below captures a value requested by a
// protocol key in a main-actor closure.

protocol AccountSession: AnyObject {
    var user: String { get }
}

final class SignedInSession: AccountSession {
    let user: String
    init(user: String) { self.user = user }
}

protocol Greeting {
    var text: String { get }
}

struct NamedGreeting: Greeting {
    let text: String
}

struct SessionModule: Module {
    func configure(_ binder: Binder) {
        binder.bind((any AccountSession).self).to { _ async in await SignedInSession(user: "ada") }.in(.singleton)
        binder.bind((any Greeting).self).to { _ in NamedGreeting(text: "hello") }
    }
}

@Suite("Values requested by a protocol key on the main actor")
struct ProtocolKeyRequestTests {
    @Test("a value requested by a protocol key is captured by a main-actor closure")
    func capturedByMainActorClosure() async throws {
        let injector = try await Injector.start(modules: [SessionModule()])
        let built = try await injector.instance((any AccountSession).self)
        let session = try injector.getInstance((any AccountSession).self)
        let read: @MainActor () -> String = { session.user }
        #expect(read() == "ada")
        #expect(session === built)
    }

    @Test("a value requested by a protocol key is used by a main-actor task")
    func usedByMainActorTask() async throws {
        let injector = try await Injector.start(modules: [SessionModule()])
        let greeting = try injector.getInstance((any Greeting).self)
        let text = await Task { @MainActor in greeting.text }.value
        #expect(text == "hello")
    }
}
