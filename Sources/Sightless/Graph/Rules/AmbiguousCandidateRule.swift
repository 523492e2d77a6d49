/// Binds each protocol that nothing binds to its only candidate implementation, and reports
/// every such protocol with two or more candidates, listing each with where it was offered.
struct AmbiguousCandidateRule: GraphRule {
    struct Resolved {
        var recipes: [Recipe] = []
        var problems: [InjectionError.Problem] = []
    }

    func check(_ input: RuleInput) -> [InjectionError.Problem] {
        let candidates = input.recorded.candidates
        guard !candidates.isEmpty else { return [] }
        let bindings = input.bindings, parent = input.parent
        return resolve(candidates) { key in bindings[key] != nil || parent?.binds(key) == true }.problems
    }

    /// - Parameter isBound: whether a key is bound explicitly (by a module, an override or a
    ///   parent), which wins over its candidates.
    func resolve(_ candidates: [Candidate], isBound: (AnyKey) -> Bool) -> Resolved {
        var resolved = Resolved()
        var order: [AnyKey] = []
        var byInterface: [AnyKey: [Candidate]] = [:]
        for candidate in candidates {
            if byInterface[candidate.interface] == nil { order.append(candidate.interface) }
            // The same type offered twice is one candidate.
            if byInterface[candidate.interface]?.contains(where: { $0.implementation == candidate.implementation }) != true {
                byInterface[candidate.interface, default: []].append(candidate)
            }
        }
        for interface in order where !isBound(interface) {
            guard let offered = byInterface[interface], let only = offered.first else { continue }
            if offered.count == 1 {
                resolved.recipes.append(only.recipe())
                continue
            }
            resolved.problems.append(InjectionError.Problem(
                .severalCandidates(key: interface, candidates: offered.map {
                    InjectionError.Problem.Candidate(type: $0.implementation, location: $0.location)
                }),
                path: [interface], location: only.location))
        }
        return resolved
    }
}
