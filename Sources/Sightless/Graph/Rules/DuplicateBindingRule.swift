/// Merges the recorded bindings into one per key. The same key bound twice among the modules,
/// or twice among the overrides, is an error naming both declarations; an override replaces
/// the modules' binding of its key. The injector's own key is reserved.
struct DuplicateBindingRule: GraphRule {
    /// The bindings merged into one per key: what the injector compiles. Merging checks
    /// nothing; `check` reports what it leaves out.
    struct Merged {
        var bindings: [AnyKey: Recipe] = [:]
        /// The bound keys in the order they were first recorded.
        var order: [AnyKey] = []
        /// How many keys the modules' bindings bind, the reserved ones left out: fewer than
        /// the bindings when a key is bound twice or a reserved key is bound.
        var moduleKeyCount = 0
    }

    func check(_ input: RuleInput) -> [InjectionError.Problem] {
        let modules = input.recorded.recipes(overrides: false)
        var problems: [InjectionError.Problem] = []
        // When the modules bind as many keys as they record bindings, none is bound twice and
        // none is reserved: only otherwise are the keys looked at again.
        if input.moduleKeyCount != modules.count {
            problems += duplicates(modules, amongOverrides: false)
        }
        problems += duplicates(input.recorded.recipes(overrides: true), amongOverrides: true)
        return problems
    }

    /// The problems of `recipes`, all of the modules or all of the overrides: a key bound twice
    /// among them, reported with its first declaration, and the injector's own key.
    private func duplicates(_ recipes: [Recipe], amongOverrides: Bool) -> [InjectionError.Problem] {
        var problems: [InjectionError.Problem] = []
        var first: [AnyKey: SourceLocation?] = [:]
        first.reserveCapacity(recipes.count)
        for recipe in recipes {
            if recipe.key == Recipe.injectorKey {
                problems.append(InjectionError.Problem(
                    .reservedKey(recipe.key), path: [recipe.key], location: recipe.location))
                continue
            }
            if let earlier = first.updateValue(recipe.location, forKey: recipe.key) {
                first[recipe.key] = earlier
                problems.append(InjectionError.Problem(
                    .boundTwice(key: recipe.key, first: earlier, second: recipe.location, amongOverrides: amongOverrides),
                    path: [recipe.key], location: recipe.location))
            }
        }
        return problems
    }

    /// The first binding of each key among the modules, replaced by the first among the
    /// overrides; a binding of a key in `builtIn` is left out.
    func merge(modules: [Recipe], overrides: [Recipe], builtIn: [Recipe]) -> Merged {
        var merged = Merged()
        merged.bindings.reserveCapacity(builtIn.count + modules.count + overrides.count)
        merged.order.reserveCapacity(modules.count + overrides.count)
        for recipe in builtIn { merged.bindings[recipe.key] = recipe }  // roots only when needed
        let reserved = builtIn.map(\.key)
        // The modules' bindings go straight into `merged`, which holds nothing else of theirs
        // yet: the first binding of a key is the one there.
        for recipe in modules where !reserved.contains(recipe.key) {
            if let first = merged.bindings.updateValue(recipe, forKey: recipe.key) {
                merged.bindings[recipe.key] = first
                continue
            }
            merged.order.append(recipe.key)
        }
        merged.moduleKeyCount = merged.order.count
        // An override replaces the modules' binding of its key, but not another override's.
        var seen: Set<AnyKey> = []
        for recipe in overrides where !reserved.contains(recipe.key) && seen.insert(recipe.key).inserted {
            if merged.bindings.updateValue(recipe, forKey: recipe.key) == nil {
                merged.order.append(recipe.key)
            }
        }
        return merged
    }
}
