/// What the modules of one injector record beyond bindings, merged: the collections their
/// contributions gather and the protocols their candidates implement (both become bindings),
/// the decorators and contextual bindings the linker applies, the observers, and the problems
/// of all of these, reported with the rest of the graph's.
struct Composition: Sendable {
    /// The decorators of each decorated key, in the order they apply.
    var decorators: [AnyKey: [Decorator]] = [:]
    /// The observers of this injector and of its parents, or `nil` when there are none.
    var observers: InstanceObservers?
    /// For each consumer, the keys its contextual bindings serve, and the keys serving them.
    var contextual: [AnyKey: [AnyKey: AnyKey]] = [:]
    /// The contextual bindings recorded by this injector's modules.
    var contextualBindings: [ContextualBinding] = []
    /// The protocols bound to their only candidate implementation.
    var autoWired: Set<AnyKey> = []
    /// The contributions the collections of this injector gather, its parents' included.
    var contributions: [Contribution] = []
    var problems: [InjectionError.Problem] = []

    /// The binders for an injector's modules and overrides, ready to record: a child's
    /// contributions are named apart from its parent's.
    static func binders(parent: GraphCompilation.Parent?) -> (modules: Binder, overrides: Binder) {
        let modules = Binder(), overrides = Binder()
        modules.contributionPrefix = parent.map { "child \($0.depth) " } ?? ""
        overrides.contributionPrefix = modules.contributionPrefix
        overrides.isRecordingOverrides = true
        return (modules, overrides)
    }

    /// Gathers what `modules` and `overrides` recorded beyond bindings, adding the bindings it
    /// implies (collections, auto-wired protocols) to `merged`, and checks that every override,
    /// decorator and candidate applies to something.
    static func compose(
        modules: Binder, overrides: Binder, merged: inout DuplicateBindingRule.Merged, parent: GraphCompilation.Parent?
    ) -> Composition {
        var composition = Composition()
        let inherited = parent?.compilation.composition

        // Collections gathered from contributions are bound like any key; a child that
        // contributes to a collection of its parent's adds to the parent's elements.
        let own = modules.contributions + overrides.contributions
        let extended = Set(own.map(\.collection))
        let contributions = (inherited?.contributions ?? [])
            .filter { extended.contains($0.collection) }.map(\.inherited) + own
        // Each of the following steps reads every binding: done only when there is something
        // for it to check, so that a graph without contributions, candidates, overrides or
        // decorators pays nothing for them.
        if !contributions.isEmpty {
            var moduleBound: [AnyKey: SourceLocation?] = [:]
            for recipe in modules.recipes { moduleBound[recipe.key] = recipe.location }
            let gathered = DuplicateContributionRule().gather(
                contributions, bound: moduleBound, overridden: Set(overrides.recipes.map(\.key)))
            for recipe in gathered.recipes where merged.bindings.updateValue(recipe, forKey: recipe.key) == nil {
                merged.order.append(recipe.key)
            }
            composition.problems += gathered.problems
        }
        composition.contributions = (inherited?.contributions ?? []).filter { !extended.contains($0.collection) }
            + contributions

        // A protocol nothing binds is bound to its only candidate implementation.
        let bindings = merged.bindings
        let wired = AmbiguousCandidateRule().resolve(modules.candidates + overrides.candidates) { key in
            bindings[key] != nil || parent?.binds(key) == true
        }
        for recipe in wired.recipes where merged.bindings.updateValue(recipe, forKey: recipe.key) == nil {
            merged.order.append(recipe.key)
        }
        composition.problems += wired.problems
        composition.autoWired = Set(wired.recipes.map(\.key))

        // An override must replace something; a contribution from an override adds instead.
        let overrideRecipes = overrides.recipes
        if !overrideRecipes.isEmpty {
            let moduleKeys = Set(modules.recipes.map(\.key))
                .union(modules.contributions.map(\.collection))
                .union(modules.candidates.map(\.interface))
            let addedElements = Set(overrides.contributions.map(\.element))
            composition.problems += UnmatchedOverrideRule(
                isBound: { key in
                    moduleKeys.contains(key) || key == Recipe.injectorKey
                        || parent?.binds(key) == true || parent?.node(for: key) != nil
                },
                bound: Array(moduleKeys) + (parent?.boundKeys ?? [])
            ).check(overrideRecipes.filter { !addedElements.contains($0.key) })
        }

        let decorators = modules.decorators + overrides.decorators
        if !decorators.isEmpty {
            let merged = merged
            composition.problems += UnboundDecoratorRule(
                isBound: { key in merged.bindings[key] != nil }, bound: Array(merged.bindings.keys)
            ).check(decorators)
            composition.decorators = Dictionary(grouping: decorators, by: \.key)
        }

        let callbacks = modules.observers + overrides.observers + (inherited?.observers?.callbacks ?? [])
        composition.observers = callbacks.isEmpty ? nil : InstanceObservers(callbacks)

        composition.contextualBindings = modules.contextualBindings + overrides.contextualBindings
        composition.contextual = inherited?.contextual ?? [:]
        for binding in composition.contextualBindings {
            composition.contextual[binding.consumer, default: [:]][binding.key] = binding.serving
        }
        return composition
    }

    /// Hands the compiler what it applies while it discovers and links nodes.
    func configure(_ compiler: inout GraphCompiler) {
        compiler.decorators = decorators
        compiler.observers = observers
        compiler.contextual = contextual
    }
}
