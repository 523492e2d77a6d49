/// Runs `body`, isolated to the main actor, here and now.
///
/// Invariant: the caller found `ActorIsolation.mainActor.isCurrent`: the code runs on the main
/// dispatch queue, the main actor's executor, or on a queue that targets it and so runs one block
/// at a time with it. `MainActor.assumeIsolated` would ask the runtime again, and trap where its
/// answer differs (a queue that targets the main queue); this runs the closure as it does once
/// it has its answer.
@inlinable
func runOnMainActor<Result>(_ body: @MainActor () throws -> Result) rethrows -> Result {
    try withoutActuallyEscaping(body) { body in
        unsafe try unsafeBitCast(body, to: (() throws -> Result).self)()
    }
}

/// A key path to a property of a ``MainActorInjectable`` type, which Swift does not let be
/// `Sendable` when the property is isolated to the main actor.
///
/// Invariant: `Properties` keeps it to compare and name it on any thread, and applies it only in
/// the plan of a `MainActorInjectable` type, which sets the properties after Sightless
/// confirmed that it runs on the main actor (`ActorIsolation.isCurrent`, see `IsolatedRecipe.swift`). A composition of a
/// class with a marker protocol is represented as the class reference alone (a key path is a
/// class, into a struct as into a class).
func mainActorKeyPath<Root, Value>(
    _ keyPath: WritableKeyPath<Root, Value>
) -> WritableKeyPath<Root, Value> & Sendable {
    unsafe unsafeBitCast(keyPath, to: (WritableKeyPath<Root, Value> & Sendable).self)
}

/// A key path to a read-only property of a ``MainActorInjectable`` type (an ``Injection`` it
/// reads where it stands), under the invariant of the writable form above: `Properties` reads
/// through it only in the plan of that type, on the main actor.
func mainActorKeyPath<Root, Value>(_ keyPath: KeyPath<Root, Value>) -> KeyPath<Root, Value> & Sendable {
    unsafe unsafeBitCast(keyPath, to: (KeyPath<Root, Value> & Sendable).self)
}
