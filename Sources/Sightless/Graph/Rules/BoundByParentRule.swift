/// Reports every key a child's modules bind that its parent binds already: a child replaces
/// its parent's binding only from an override module. The injector's own key is the child's.
struct BoundByParentRule: GraphRule {
    func check(_ input: RuleInput) -> [InjectionError.Problem] {
        guard let parent = input.parent else { return [] }
        return input.recorded.recipes(overrides: false).compactMap { recipe in
            guard recipe.key != Recipe.injectorKey, parent.binds(recipe.key) else { return nil }
            return InjectionError.Problem(
                .boundByParent(key: recipe.key, location: recipe.location), path: [recipe.key], location: recipe.location)
        }
    }
}
