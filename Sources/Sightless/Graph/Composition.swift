/// What the modules of one injector record beyond bindings, merged: the collections their
/// contributions gather and the protocols their candidates implement (both become bindings),
/// the decorators and contextual bindings the linker applies, and the observers. What is wrong
/// with any of them, the rules of `Rules/` report with the rest of the graph's problems.
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
    /// What is wrong with the contributions gathered here (`DuplicateContributionRule`), found
    /// while gathering them, so that the rule need not gather them again.
    var contributionProblems: [InjectionError.Problem] = []

    /// The binders for an injector's modules and overrides, ready to record: a child's
    /// contributions are named apart from its parent's.
    static func binders(parent: GraphCompilation.Parent?) -> (modules: Binder, overrides: Binder) {
        let modules = Binder(), overrides = Binder()
        modules.contributionPrefix = parent.map { "child \($0.depth) " } ?? ""
        overrides.contributionPrefix = modules.contributionPrefix
        overrides.isRecordingOverrides = true
        return (modules, overrides)
    }

    /// Gathers what the modules and overrides recorded beyond bindings, adding the bindings it
    /// implies (collections, auto-wired protocols) to `merged`.
    static func compose(
        _ recorded: RecordedElements, merged: inout DuplicateBindingRule.Merged, parent: GraphCompilation.Parent?
    ) -> Composition {
        var composition = Composition()
        let inherited = parent?.compilation.composition

        // Collections gathered from contributions are bound like any key; a child that
        // contributes to a collection of its parent's adds to the parent's elements. Each of
        // the following steps reads every binding: done only when there is something for it,
        // so that a graph without contributions, candidates or decorators pays nothing for them.
        var contributions = DuplicateContributionRule.contributions(recorded, parent: parent)
        if let gathered = DuplicateContributionRule().gather(recorded, parent: parent) {
            composition.contributionProblems = gathered.problems
            for recipe in gathered.recipes where merged.bindings.updateValue(recipe, forKey: recipe.key) == nil {
                merged.order.append(recipe.key)
            }
            // A child extends what each collection holds: a map entry an override replaced here
            // is not the child's to meet again.
            contributions = gathered.held(contributions)
        }
        let extended = Set(contributions.map(\.collection))
        composition.contributions = (inherited?.contributions ?? []).filter { !extended.contains($0.collection) }
            + contributions

        // A protocol nothing binds is bound to its only candidate implementation.
        let candidates = recorded.candidates
        if !candidates.isEmpty {
            let bindings = merged.bindings
            let wired = AmbiguousCandidateRule().resolve(candidates) { key in
                bindings[key] != nil || parent?.binds(key) == true
            }
            for recipe in wired.recipes where merged.bindings.updateValue(recipe, forKey: recipe.key) == nil {
                merged.order.append(recipe.key)
            }
            composition.autoWired = Set(wired.recipes.map(\.key))
        }

        let decorators = recorded.decorators
        if !decorators.isEmpty { composition.decorators = Dictionary(grouping: decorators, by: \.key) }

        let callbacks = recorded.observers + (inherited?.observers?.callbacks ?? [])
        composition.observers = callbacks.isEmpty ? nil : InstanceObservers(callbacks)

        composition.contextualBindings = recorded.contextualBindings
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
