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
    /// How many keys the modules' bindings bind, when they were merged
    /// (`DuplicateBindingRule.Merged.moduleKeyCount`).
    var moduleKeyCount: Int?
    /// For a child injector, its parent's compiled nodes and recorded bindings.
    var parent: GraphCompilation.Parent?
    /// Whether the graph is a child injector's or a template's, `parent` or not.
    var isChild = false
    /// `true` for an injector that awaits its eager values (`Injector.start`).
    var awaitsEagerValues = false
    /// For a key compiled on its first request, the compilation of the injector compiling it.
    var family: GraphCompilation?
    /// The problems of the contributions `recorded` gathers, when `Composition` gathered them
    /// already; `nil` to gather them again.
    var contributionProblems: [InjectionError.Problem]?

    /// The child templates declared from the injector and from its parents, nearest first:
    /// where a key the graph lacks may be provided or bound. Gathered when a rule asks.
    var templates: [DeclaredTemplates] {
        family?.templatesInFamily ?? parent?.compilation.templatesInFamily ?? []
    }
}

/// Everything the modules and overrides of one injector recorded, as one list in the order it
/// was declared: the modules' elements first, then the overrides'. Each kind is also gathered
/// once, in that order, so that a rule reads the kind it checks without a pass over the rest.
struct RecordedElements: Sendable {
    /// One recorded element, and whether an override module recorded it.
    struct Entry: Sendable {
        let element: Element
        let isOverride: Bool
    }

    /// Every element, in order.
    private(set) var entries: [Entry] = []
    private var moduleRecipes: [Recipe] = []
    private var overrideRecipes: [Recipe] = []
    private var moduleContributions: [Contribution] = []
    private var overrideContributions: [Contribution] = []
    private var moduleCandidates: [Candidate] = []
    private var overrideCandidates: [Candidate] = []
    /// Every decorator, in order.
    private(set) var decorators: [Decorator] = []
    /// Every contextual binding, in order.
    private(set) var contextualBindings: [ContextualBinding] = []
    /// Every observer, in order.
    private(set) var observers: [@Sendable (InstanceEvent) -> Void] = []
    /// Every key declared as an entry point, with where it was declared, in order.
    private(set) var entryPoints: [(key: AnyKey, location: SourceLocation)] = []
    /// The modules found installing each other, the modules' first: each cycle's installs, the
    /// first module repeated at the end (`Binder.installCycles`).
    private(set) var installCycles: [[InjectionError.Problem.Install]] = []
    /// Installs nested without end, stopped by the binder (`Binder.endlessInstalls`).
    private(set) var endlessInstalls: [InjectionError.Problem] = []

    init() {}

    /// The elements of `modules`, then those of `overrides`.
    init(modules: Binder, overrides: Binder) {
        installCycles = modules.installCycles + overrides.installCycles
        endlessInstalls = [modules.endlessInstalls, overrides.endlessInstalls].compactMap { $0 }
        let own = modules.elements, replacing = overrides.elements
        entries.reserveCapacity(own.count + replacing.count)
        moduleRecipes.reserveCapacity(own.count)
        for element in own { append(element, isOverride: false) }
        for element in replacing { append(element, isOverride: true) }
    }

    private mutating func append(_ element: Element, isOverride: Bool) {
        entries.append(Entry(element: element, isOverride: isOverride))
        switch element {
        case .binding(let recipe):
            if isOverride { overrideRecipes.append(recipe) } else { moduleRecipes.append(recipe) }
        case .contribution(let contribution):
            if isOverride { overrideContributions.append(contribution) } else { moduleContributions.append(contribution) }
        case .candidate(let candidate):
            if isOverride { overrideCandidates.append(candidate) } else { moduleCandidates.append(candidate) }
        case .decorator(let decorator): decorators.append(decorator)
        case .contextual(let binding): contextualBindings.append(binding)
        case .observer(let callback): observers.append(callback)
        case .entryPoint(let key, let location): entryPoints.append((key, location))
        }
    }

    var isEmpty: Bool { entries.isEmpty }

    /// The bindings, of the modules (`overrides` false) or of the overrides (true), in order.
    func recipes(overrides: Bool) -> [Recipe] { overrides ? overrideRecipes : moduleRecipes }

    /// The contributions, of the modules or of the overrides, in order.
    func contributions(overrides: Bool) -> [Contribution] { overrides ? overrideContributions : moduleContributions }

    /// The candidates, of the modules or of the overrides, in order.
    func candidates(overrides: Bool) -> [Candidate] { overrides ? overrideCandidates : moduleCandidates }

    /// Every contribution, the modules' first.
    var contributions: [Contribution] { moduleContributions + overrideContributions }

    /// Every candidate, the modules' first.
    var candidates: [Candidate] { moduleCandidates + overrideCandidates }
}
