/// One check of a compiled graph and of what the modules recorded. Each rule is a small unit in
/// `Rules/`, readable and tested on its own; the compiler runs them all, in the order
/// `GraphCompiler.rules` lists them, and reports every problem together.
protocol GraphRule: Sendable {
    func check(_ input: RuleInput) -> [InjectionError.Problem]
}

extension GraphRule {
    /// The problems of `graph` alone: nothing recorded, no bindings, no parent.
    func check(_ graph: BindingGraph) -> [InjectionError.Problem] {
        check(RuleInput(graph: graph))
    }
}

/// What every rule reads: the graph compiled, the elements the modules recorded, in order, and
/// what the injector was built with.
struct RuleInput {
    /// The graph discovered from the roots.
    var graph: BindingGraph
    /// What this injector's modules and overrides recorded; empty for a key compiled on its
    /// first request, whose recorded elements were checked when the injector was built.
    var recorded = RecordedElements()
    /// The bindings merged from the modules and overrides, one per key, with the collections
    /// and auto-wired protocols they imply.
    var bindings: [AnyKey: Recipe] = [:]
    /// For a child injector, its parent's compiled nodes and recorded bindings.
    var parent: GraphCompilation.Parent?
    /// `true` for an injector that awaits its eager values (`Injector.start`).
    var awaitsEagerValues = false
}

/// Everything the modules and overrides of one injector recorded, as one list in the order it
/// was declared: the modules' elements first, then the overrides'.
struct RecordedElements: Sendable {
    /// One recorded element, and whether an override module recorded it.
    struct Entry: Sendable {
        let element: Element
        let isOverride: Bool
    }

    private(set) var entries: [Entry] = []

    init() {}

    /// The elements of `modules`, then those of `overrides`.
    init(modules: Binder, overrides: Binder) {
        let own = modules.elements, replacing = overrides.elements
        entries.reserveCapacity(own.count + replacing.count)
        for element in own { entries.append(Entry(element: element, isOverride: false)) }
        for element in replacing { entries.append(Entry(element: element, isOverride: true)) }
    }

    var isEmpty: Bool { entries.isEmpty }

    // One accessor per kind below: Swift cannot pass an enum case as the kind to filter by.
    /// The bindings, of the modules (`overrides` false) or of the overrides (true), in order.
    func recipes(overrides: Bool) -> [Recipe] {
        entries.compactMap { entry in
            guard entry.isOverride == overrides, case .binding(let recipe) = entry.element else { return nil }
            return recipe
        }
    }

    /// The contributions, of the modules or of the overrides, in order.
    func contributions(overrides: Bool) -> [Contribution] {
        entries.compactMap { entry in
            guard entry.isOverride == overrides, case .contribution(let contribution) = entry.element else { return nil }
            return contribution
        }
    }

    /// The candidates, of the modules or of the overrides, in order.
    func candidates(overrides: Bool) -> [Candidate] {
        entries.compactMap { entry in
            guard entry.isOverride == overrides, case .candidate(let candidate) = entry.element else { return nil }
            return candidate
        }
    }

    /// Every contribution, the modules' first.
    var contributions: [Contribution] { contributions(overrides: false) + contributions(overrides: true) }

    /// Every candidate, the modules' first.
    var candidates: [Candidate] { candidates(overrides: false) + candidates(overrides: true) }

    /// Every decorator, in order.
    var decorators: [Decorator] {
        entries.compactMap { entry in
            if case .decorator(let decorator) = entry.element { return decorator }
            return nil
        }
    }

    /// Every contextual binding, in order.
    var contextualBindings: [ContextualBinding] {
        entries.compactMap { entry in
            if case .contextual(let binding) = entry.element { return binding }
            return nil
        }
    }

    /// Every observer, in order.
    var observers: [@Sendable (InstanceEvent) -> Void] {
        entries.compactMap { entry in
            if case .observer(let callback) = entry.element { return callback }
            return nil
        }
    }

    /// Every key declared as an entry point, with where it was declared, in order.
    var entryPoints: [(key: AnyKey, location: SourceLocation)] {
        entries.compactMap { entry in
            if case .entryPoint(let key, let location) = entry.element { return (key, location) }
            return nil
        }
    }
}
