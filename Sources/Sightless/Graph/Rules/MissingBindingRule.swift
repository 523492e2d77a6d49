/// Reports every dependency that nothing can fill: no binding, no node compiled before, and no
/// ``Injectable`` type to build just in time. An optional dependency is never missing; it is
/// `nil` instead. A key that a child template declared in the family provides to its children,
/// or that its modules bind, is reported with that template.
struct MissingBindingRule: GraphRule {
    func check(_ input: RuleInput) -> [InjectionError.Problem] {
        let graph = input.graph, bindings = input.bindings
        var problems: [InjectionError.Problem] = []
        // Found with the first problem, for all of them: a graph may lack many keys.
        var paths: BindingGraph.ShortestPaths?
        for index in graph.nodes.indices {
            let edges = graph.nodes[index].edges
            for edge in edges where edge.target == nil {
                let dependency = graph.dependency(of: edge, from: index)
                guard !dependency.isOptional else { continue }
                let node = graph.nodes[index]
                let missing = dependency.deferredKey ?? dependency.key
                let found = paths ?? graph.shortestPaths()
                paths = found
                // A consumer kept for the whole family cannot have a value each child has.
                let kept = node.recipe.flatMap { $0.scope.strategy.lifetime == .injector ? $0.scope.name : nil }
                problems.append(Self.problem(
                    for: missing, neededBy: .init(key: node.key, role: dependency.role),
                    path: found.path(to: index) + [missing], location: dependency.declaredAt,
                    bindings: bindings, templates: input.templates, keptConsumerScope: kept))
            }
        }
        return problems
    }

    /// The problem for a key nothing provides, with the bindings it may have been meant to be.
    static func problem(
        for key: AnyKey, neededBy consumer: InjectionError.Problem.Consumer?, path: [AnyKey], location: SourceLocation?,
        bindings: [AnyKey: Recipe], templates: [DeclaredTemplates] = [], keptConsumerScope: String? = nil
    ) -> InjectionError.Problem {
        switch DeclaredTemplates.relation(to: key, in: templates) {
        case .provides(let template)?:
            return InjectionError.Problem(.providedByTemplate(key: key, consumer: consumer, template: template),
                                          path: path, location: location)
        case .binds(let template)?:
            return InjectionError.Problem(.boundInTemplate(key: key, consumer: consumer, template: template),
                                          path: path, location: location)
        case nil: break
        }
        let nearMisses = Self.nearMisses(of: key, among: bindings.keys)
        let canConform = key.name == nil && !(key.type is any Injectable.Type) && !(key.type is any MainActorInjectable.Type)
            && DependencyTraits.mayDeclareItself(key.type)
        return InjectionError.Problem(
            .missingBinding(key: key, consumer: consumer, nearMisses: nearMisses, canConform: canConform),
            path: path, location: location, keptConsumerScope: keptConsumerScope)
    }

    /// The keys among `bound` of the same type as `key` under another name: what a misspelled
    /// name was likely meant to be.
    static func nearMisses(of key: AnyKey, among bound: some Sequence<AnyKey>) -> [AnyKey] {
        bound.filter { ObjectIdentifier($0.type) == ObjectIdentifier(key.type) && $0.name != key.name }
            .sorted { $0.description < $1.description }
    }
}
