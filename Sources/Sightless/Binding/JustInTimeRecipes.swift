/// The recipe of each type built just in time, made once per process: a later injector of the
/// same graph (what a test suite builds per test) reads it rather than making it again.
///
/// A type's recipe depends only on what the type declares (its `initializer`, `properties` and
/// `scope`, which never change), so one recipe serves every injector. A recipe that records a
/// problem is made again each time: a `MainActorInjectable` type's descriptors read off the main
/// actor give a recipe that reports it, which a later build on the main actor must not inherit.
/// For the same reason a recipe built on the main actor is reused only there: off it, the
/// descriptors are asked for again, and the build reports that it cannot read them, whatever
/// an earlier injector read.
enum JustInTimeRecipes {
    /// The recipe of `type` built just in time, or `nil` when it declares nothing
    /// (`JustInTimeTypes.recipe(of:)`, made once).
    static func recipe(of type: Any.Type) -> Recipe? {
        let identity = ObjectIdentifier(type)
        if let made = made.value(for: identity),
           made.isolation != .mainActor || ActorIsolation.mainActor.isCurrent {
            return made
        }
        guard let recipe = JustInTimeTypes.recipe(of: type) else { return nil }
        if recipe.problems.isEmpty { made.set(recipe, for: identity) }
        return recipe
    }

    /// The recipes made so far, shared by every injector of the process.
    private static let made = LockedDictionary<ObjectIdentifier, Recipe>()
}
