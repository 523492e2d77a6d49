/// Reports every override that replaces nothing: a key that neither the modules nor a parent
/// injector bind, and that is no ``Injectable`` type built just in time. A registry user's
/// misspelled name would otherwise add a new key while the test keeps the production binding.
/// A contribution from an override adds to its collection instead, and replaces nothing.
struct UnmatchedOverrideRule: GraphRule {
    func check(_ input: RuleInput) -> [InjectionError.Problem] {
        let recorded = input.recorded
        let overrides = recorded.recipes(overrides: true)
        guard !overrides.isEmpty else { return [] }
        let moduleKeys = Set(recorded.recipes(overrides: false).map(\.key))
            .union(recorded.contributions(overrides: false).map(\.collection))
            .union(recorded.candidates(overrides: false).map(\.interface))
        let addedElements = Set(recorded.contributions(overrides: true).map(\.element))
        let parent = input.parent
        return Self.unmatched(
            overrides.filter { !addedElements.contains($0.key) },
            isBound: { key in
                moduleKeys.contains(key) || key == Recipe.injectorKey
                    || parent?.binds(key) == true || parent?.node(for: key) != nil
            },
            bound: Array(moduleKeys) + (parent?.boundKeys ?? []))
    }

    /// The problems of the `overrides` that replace nothing.
    /// - Parameters:
    ///   - isBound: whether a key is bound by the modules, by a parent, or by an implementation
    ///     found for it.
    ///   - bound: every key bound, for the near-miss hint.
    static func unmatched(
        _ overrides: [Recipe], isBound: (AnyKey) -> Bool, bound: [AnyKey]
    ) -> [InjectionError.Problem] {
        overrides.compactMap { recipe in
            let key = recipe.key
            guard !isBound(key), !isJustInTime(key) else { return nil }
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
