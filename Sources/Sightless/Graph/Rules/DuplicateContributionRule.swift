/// Gathers the contributions of the modules and overrides into one recipe per collection.
/// Two contributions of one map key (both among the modules, or both among the overrides) are
/// an error naming both; an override's entry replaces the modules' entry of the same key, and
/// every other override contribution adds to the collection. A collection whose key is bound
/// explicitly by an override is replaced whole; bound explicitly by a module as well as
/// contributed to, it is bound twice. A child's contributions to a collection of its parent's
/// are gathered with the parent's.
struct DuplicateContributionRule: GraphRule {
    struct Gathered {
        var recipes: [Recipe] = []
        var problems: [InjectionError.Problem] = []
        /// The contributions each gathered collection holds, by collection: a map entry an
        /// override replaced is not among them.
        var kept: [AnyKey: [Contribution]] = [:]

        /// `contributions` as the collections hold them: each gathered collection's kept
        /// contributions, where its first contribution was, and any other contribution as it is.
        /// What a child of the injector extends (`Composition.contributions`).
        func held(_ contributions: [Contribution]) -> [Contribution] {
            var held: [Contribution] = []
            var placed: Set<AnyKey> = []
            for contribution in contributions {
                guard let kept = kept[contribution.collection] else {
                    held.append(contribution)
                    continue
                }
                if placed.insert(contribution.collection).inserted { held += kept }
            }
            return held
        }
    }

    func check(_ input: RuleInput) -> [InjectionError.Problem] {
        input.contributionProblems ?? gather(input.recorded, parent: input.parent)?.problems ?? []
    }

    /// The contributions `recorded` gathers, with those of `parent` to the collections they
    /// extend; `nil` when nothing contributes.
    func gather(_ recorded: RecordedElements, parent: GraphCompilation.Parent?) -> Gathered? {
        let contributions = Self.contributions(recorded, parent: parent)
        guard !contributions.isEmpty else { return nil }
        // Only a collection's key is looked up: a binding of another type is not hashed.
        let collectionTypes = Set(contributions.map { ObjectIdentifier($0.collection.type) })
        var moduleBound: [AnyKey: SourceLocation?] = [:]
        for recipe in recorded.recipes(overrides: false) where collectionTypes.contains(ObjectIdentifier(recipe.key.type)) {
            moduleBound[recipe.key] = recipe.location
        }
        return gather(contributions, bound: moduleBound, overridden: Set(recorded.recipes(overrides: true).map(\.key)))
    }

    /// The contributions an injector gathers: its own, after its parent's to the collections its
    /// own extend (a child that contributes to a collection of its parent's adds to the
    /// parent's elements).
    static func contributions(_ recorded: RecordedElements, parent: GraphCompilation.Parent?) -> [Contribution] {
        let own = recorded.contributions
        guard !own.isEmpty else { return [] }
        let extended = Set(own.map(\.collection))
        return (parent?.compilation.composition.contributions ?? [])
            .filter { extended.contains($0.collection) }.map(\.inherited) + own
    }

    /// - Parameters:
    ///   - bound: where each key bound explicitly by the modules was declared.
    ///   - overridden: the keys the overrides bind explicitly.
    func gather(
        _ contributions: [Contribution], bound: [AnyKey: SourceLocation?], overridden: Set<AnyKey>
    ) -> Gathered {
        var gathered = Gathered()
        var order: [AnyKey] = []
        var byCollection: [AnyKey: [Contribution]] = [:]
        for contribution in contributions {
            if byCollection[contribution.collection] == nil { order.append(contribution.collection) }
            byCollection[contribution.collection, default: []].append(contribution)
        }
        for collection in order {
            guard let all = byCollection[collection], let first = all.first, !overridden.contains(collection) else { continue }
            if let declared = bound[collection] {
                gathered.problems.append(InjectionError.Problem(
                    .boundTwice(key: collection, first: declared, second: first.location, amongOverrides: false),
                    path: [collection], location: first.location))
                continue
            }
            var kept: [Contribution] = []
            var seen: [AnyHashable: (index: Int, isOverride: Bool)] = [:]
            for contribution in all {
                guard let mapKey = contribution.mapKey.map({ AnyHashable($0) }) else {
                    kept.append(contribution)
                    continue
                }
                if let earlier = seen[mapKey] {
                    let previous = kept[earlier.index]
                    if contribution.isOverride && !earlier.isOverride {
                        kept[earlier.index] = contribution
                        seen[mapKey] = (earlier.index, true)
                    } else {
                        gathered.problems.append(InjectionError.Problem(
                            .contributedTwice(collection: collection, entry: contribution.mapKeyDescription ?? "",
                                              first: previous.location, second: contribution.location),
                            path: [collection], location: contribution.location))
                    }
                    continue
                }
                seen[mapKey] = (kept.count, contribution.isOverride)
                kept.append(contribution)
            }
            gathered.recipes.append(first.gather(kept))
            gathered.kept[collection] = kept
        }
        return gathered
    }
}
