/// Reports every key a child's modules bind that its parent binds already: a child replaces
/// its parent's binding only from an override module. The injector's own key is the child's. A
/// value a template provides to its children that the parent binds is reported as such: it is
/// no binding of the child's modules, and no override can replace it.
struct BoundByParentRule: GraphRule {
    func check(_ input: RuleInput) -> [InjectionError.Problem] {
        guard let parent = input.parent else { return [] }
        return input.recorded.recipes(overrides: false).compactMap { recipe in
            guard recipe.key != Recipe.injectorKey, parent.binds(recipe.key) else { return nil }
            // A template's provided value is no binding of its modules, and cannot be overridden.
            if recipe.source == .provided {
                return InjectionError.Problem(
                    .providedBoundByParent(key: recipe.key, template: recipe.location), path: [recipe.key], location: recipe.location)
            }
            return InjectionError.Problem(
                .boundByParent(key: recipe.key, location: recipe.location), path: [recipe.key], location: recipe.location)
        }
    }
}
