/// A key path to a property of a ``MainActorInjectable`` type, which Swift does not let be
/// `Sendable` when the property is isolated to the main actor.
///
/// Invariant: `Properties` keeps it to compare and name it on any thread, and applies it only in
/// the plan of a `MainActorInjectable` type, which sets the properties after Sightless
/// confirmed that it runs on the main actor (`ActorIsolation.isCurrent`, see `IsolatedRecipe.swift`).
/// The cast is of a class reference (a key path is a class, into a struct as into a class) to
/// the composition of its class with `Sendable`, a marker protocol, which the language gives no
/// representation at run time: the composition is the class reference alone. No layout of the
/// runtime's is read.
func mainActorKeyPath<Root, Value>(
    _ keyPath: WritableKeyPath<Root, Value>
) -> WritableKeyPath<Root, Value> & Sendable {
    unsafe unsafeBitCast(keyPath, to: (WritableKeyPath<Root, Value> & Sendable).self)
}

/// A key path to a read-only property of a ``MainActorInjectable`` type (an ``Injection`` it
/// reads where it stands), under the invariant of the writable form above: `Properties` reads
/// through it only in the plan of that type, on the main actor. The same cast of a class
/// reference to its composition with `Sendable`.
func mainActorKeyPath<Root, Value>(_ keyPath: KeyPath<Root, Value>) -> KeyPath<Root, Value> & Sendable {
    unsafe unsafeBitCast(keyPath, to: (KeyPath<Root, Value> & Sendable).self)
}
