import Dispatch

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

    /// Whether the calling code runs on this actor now: on the main dispatch queue, which runs
    /// the main actor's jobs and the main thread's code, or on a queue that runs its blocks on
    /// it (one that targets it). Anywhere else the answer is "no": a request then throws or
    /// awaits, and never assumes an isolation it cannot confirm.
    ///
    /// Where the answer is "yes", `MainActor.assumeIsolated` accepts the code too, which
    /// `onMainActor` then calls: the code runs on the main thread, in a block of the main queue
    /// or of a queue that targets it, and the runtime accepts the main thread there (and, where
    /// it asks Dispatch, `dispatch_assert_queue` accepts a queue that targets the main queue, as
    /// its documentation says). `MainActorHolderPlacementTests` runs a main-actor request on
    /// such a queue.
    var isCurrent: Bool {
        DispatchQueue.getSpecific(key: MainQueue.key) != nil
    }
}

/// The mark Sightless sets on the main dispatch queue, set once, before it is first looked
/// for: the code that finds it runs on that queue.
enum MainQueue {
    static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()
}

/// Runs `body` on the main actor, synchronously, when the calling code runs there; otherwise
/// throws `offActor` for `key`: a synchronous call cannot reach the main actor. Inlined where
/// its caller is specialized, so that the value's box is of a type known there, not looked up
/// in the runtime on every call. `MainActor.assumeIsolated` checks the isolation again, as the
/// runtime tells it (see `ActorIsolation.isCurrent`), before it runs `body`.
@inlinable @inline(__always)
func onMainActor<Result>(building key: AnyKey, _ body: @MainActor () throws -> Result) throws -> Result {
    try requireMainActor(building: key)
    return try mainActorRegion { unsafe Transfer(try body()) }.value
}

/// Runs `body` on the main actor with the request's resolution, synchronously: the one main-actor
/// region of a main-actor initializer's plan, which reads its arguments, calls the initializer,
/// sets the properties and awakes the instance. A request its node's guard found on the main
/// actor (`Resolution.provenOnMainActor`) is not looked at again; otherwise throws `offActor` for
/// `key`, through `rethrow`, unless the calling code runs there. `MainActor.assumeIsolated`
/// checks the isolation again, as the runtime tells it, before it runs `body`.
@inlinable @inline(__always)
func onMainActor<Result>(
    building key: AnyKey, _ resolution: inout Resolution, rethrow: (any Error) -> InjectionError,
    _ body: @MainActor (inout Resolution) throws -> Result
) throws -> Result {
    if !resolution.provenOnMainActor {
        do {
            try requireMainActor(building: key)
        } catch {
            throw rethrow(error)
        }
    }
    return try resolution.runOnMainActor(body)
}

/// `MainActor.assumeIsolated(operation)`, for a closure literal written in this module.
///
/// A synchronous main-actor closure literal whose isolation comes from the standard library's
/// parameter type checks the executor again when it starts (Swift's dynamic isolation check for
/// closures handed to code that may predate strict concurrency): a second runtime check, about
/// 220 instructions on Linux, right after the one `assumeIsolated` makes. Typed by this
/// function's parameter, the literal's isolation is this module's, checked by the compiler, and
/// the one check left is `assumeIsolated`'s, which stops the process unless the code runs on the
/// main actor.
@inlinable @inline(__always)
func mainActorRegion<Result: Sendable>(_ operation: @MainActor () throws -> Result) rethrows -> Result {
    try MainActor.assumeIsolated(operation)
}

/// Throws `offActor` for `key` unless the calling code runs on the main actor.
@usableFromInline
func requireMainActor(building key: AnyKey) throws {
    guard ActorIsolation.mainActor.isCurrent else {
        throw InjectionError(.offActor(key: key, actor: ActorIsolation.mainActor.name), path: [key])
    }
}
