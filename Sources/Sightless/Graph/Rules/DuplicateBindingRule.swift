/// Merges the recorded bindings into one per key. The same key bound twice among the modules,
/// or twice among the overrides, is an error naming both declarations; an override replaces
/// the modules' binding of its key.
struct DuplicateBindingRule {
    struct Merged {
        var bindings: [AnyKey: Recipe] = [:]
        /// The bound keys in the order they were first recorded.
        var order: [AnyKey] = []
        var problems: [InjectionError.Problem] = []
    }

    func merge(modules: [Recipe], overrides: [Recipe], builtIn: [Recipe]) -> Merged {
        var merged = Merged()
        for recipe in builtIn { merged.bindings[recipe.key] = recipe }  // roots only when needed
        let reserved = Set(builtIn.map(\.key))
        for (recipes, isOverride) in [(modules, false), (overrides, true)] {
            var seen: [AnyKey: Recipe] = [:]
            for recipe in recipes {
                if reserved.contains(recipe.key) {
                    merged.problems.append(InjectionError.Problem(
                        .reservedKey(recipe.key), path: [recipe.key], location: recipe.location))
                    continue
                }
                if let first = seen[recipe.key] {
                    merged.problems.append(InjectionError.Problem(
                        .boundTwice(key: recipe.key, first: first.location, second: recipe.location, amongOverrides: isOverride),
                        path: [recipe.key], location: recipe.location))
                    continue
                }
                seen[recipe.key] = recipe
                if merged.bindings.updateValue(recipe, forKey: recipe.key) == nil {
                    merged.order.append(recipe.key)
                }
            }
        }
        return merged
    }
}
