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
                        .duplicateBinding, key: recipe.key, path: [recipe.key],
                        message: "\(recipe.key) is always bound to the injector itself.",
                        fix: "Remove this binding; inject \(recipe.key.typeName) directly.",
                        location: recipe.location))
                    continue
                }
                if let first = seen[recipe.key] {
                    merged.problems.append(InjectionError.Problem(
                        .duplicateBinding, key: recipe.key, path: [recipe.key],
                        message: "\(recipe.key) is bound twice\(isOverride ? " among the overrides" : ""): at \(first.location.map(String.init(describing:)) ?? "?") and at \(recipe.location.map(String.init(describing:)) ?? "?").",
                        fix: isOverride
                            ? "Keep one of the two override bindings."
                            : "Remove one of the bindings, or pass the module with the replacement in Injector(modules:overrides:).",
                        location: recipe.location))
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
