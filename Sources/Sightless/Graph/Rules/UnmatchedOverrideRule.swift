/// Reports every override that replaces nothing: a key that neither the modules nor a parent
/// injector bind, and that is no ``Injectable`` type built just in time. A registry user's
/// misspelled name would otherwise add a new key while the test keeps the production binding.
struct UnmatchedOverrideRule {
    /// Whether a key is bound by the modules, by a parent, or by an implementation found for it.
    let isBound: (AnyKey) -> Bool
    /// Every key bound, for the near-miss hint.
    let bound: [AnyKey]

    func check(_ overrides: [Recipe]) -> [InjectionError.Problem] {
        overrides.compactMap { recipe in
            let key = recipe.key
            guard !isBound(key), !Self.isJustInTime(key) else { return nil }
            return InjectionError.Problem(
                .overrideReplacesNothing(key: key, location: recipe.location,
                                         nearMisses: MissingBindingRule.nearMisses(of: key, among: bound)),
                path: [key], location: recipe.location)
        }
    }

    /// A key the injector builds without a binding: an ``Injectable`` type (or a type whose
    /// properties it fills) with no name.
    static func isJustInTime(_ key: AnyKey) -> Bool {
        key.name == nil && (key.type is any Injectable.Type || key.type is any MainActorInjectable.Type || key.type is any MemberInjection.Type)
    }
}
