/// Merges the recorded bindings into one per key. The same key bound twice among the modules,
/// or twice among the overrides, is an error naming both declarations; an override replaces
/// the modules' binding of its key. The injector's own key is reserved.
struct DuplicateBindingRule: GraphRule {
    struct Merged {
        var bindings: [AnyKey: Recipe] = [:]
        /// The bound keys in the order they were first recorded.
        var order: [AnyKey] = []
        var problems: [InjectionError.Problem] = []
    }

    func check(_ input: RuleInput) -> [InjectionError.Problem] {
        guard !input.recorded.isEmpty else { return [] }
        return merge(modules: input.recorded.recipes(overrides: false), overrides: input.recorded.recipes(overrides: true),
                     builtIn: [.injector()]).problems
    }

    func merge(modules: [Recipe], overrides: [Recipe], builtIn: [Recipe]) -> Merged {
        var merged = Merged()
        merged.bindings.reserveCapacity(builtIn.count + modules.count + overrides.count)
        merged.order.reserveCapacity(modules.count + overrides.count)
        for recipe in builtIn { merged.bindings[recipe.key] = recipe }  // roots only when needed
        let reserved = builtIn.map(\.key)
        // The modules' bindings go straight into `merged`, which holds nothing else of theirs
        // yet: the first binding of a key is the one there.
        for recipe in modules {
            if reserved.contains(recipe.key) {
                merged.problems.append(InjectionError.Problem(
                    .reservedKey(recipe.key), path: [recipe.key], location: recipe.location))
                continue
            }
            if let first = merged.bindings.updateValue(recipe, forKey: recipe.key) {
                merged.bindings[recipe.key] = first
                merged.problems.append(InjectionError.Problem(
                    .boundTwice(key: recipe.key, first: first.location, second: recipe.location, amongOverrides: false),
                    path: [recipe.key], location: recipe.location))
                continue
            }
            merged.order.append(recipe.key)
        }
        // An override replaces the modules' binding of its key, but not another override's.
        var seen: [AnyKey: Recipe] = [:]
        for recipe in overrides {
            if reserved.contains(recipe.key) {
                merged.problems.append(InjectionError.Problem(
                    .reservedKey(recipe.key), path: [recipe.key], location: recipe.location))
                continue
            }
            if let first = seen[recipe.key] {
                merged.problems.append(InjectionError.Problem(
                    .boundTwice(key: recipe.key, first: first.location, second: recipe.location, amongOverrides: true),
                    path: [recipe.key], location: recipe.location))
                continue
            }
            seen[recipe.key] = recipe
            if merged.bindings.updateValue(recipe, forKey: recipe.key) == nil {
                merged.order.append(recipe.key)
            }
        }
        return merged
    }
}
