#if canImport(Darwin)
import Darwin
#endif

/// The actor a node's value is isolated to: its initializer, properties and
/// `awakeFromInjection()` run there, and nowhere else.
///
/// Only the main actor is named today: a type isolated to it conforms to
/// `MainActorInjectable`. A type of another global actor is built by an `async` initializer or
/// closure, which awaits its actor like any value that needs `await`.
struct ActorIsolation: Hashable, Sendable, CustomStringConvertible {
    /// The actor's name, as errors show it.
    let name: String

    /// The main actor.
    static let mainActor = ActorIsolation(name: "MainActor")

    var description: String { name }

    /// Whether the calling code runs on this actor now. Where the runtime cannot be asked (an
    /// Apple platform's runtime older than the check), the main thread is the main actor's, as
    /// the runtime itself takes it there; elsewhere the answer is "no": a request then throws
    /// or awaits, and never assumes an isolation it cannot confirm.
    var isCurrent: Bool {
        if let answer = isCurrentExecutor(MainActor.sharedUnownedExecutor) { return answer }
        #if canImport(Darwin)
        return pthread_main_np() == 1
        #else
        return false
        #endif
    }
}

/// Runs `body` on the main actor, synchronously, when the calling code runs there; otherwise
/// throws `offActor` for `key`: a synchronous call cannot reach the main actor.
func onMainActor<Result>(building key: AnyKey, _ body: @MainActor () throws -> Result) throws -> Result {
    guard ActorIsolation.mainActor.isCurrent else {
        throw InjectionError(.offActor(key: key, actor: ActorIsolation.mainActor.name), path: [key])
    }
    // The runtime has just confirmed the isolation `assumeIsolated` checks again.
    return try MainActor.assumeIsolated { Transfer(try body()) }.value
}
