import Sightless

// Decorators of a collection's key in the model suite: `L` (`[MNode]`), `S` (`Set<MNode>`) and
// `M` (`[String: MNode]`) decorated by the member that gathers them, at any level of a family.
//
// What the documentation and the library say:
// - A collection's key is bound like any key (`Composition.compose`: "Collections gathered from
//   contributions are bound like any key"): the injector whose modules contribute to it binds
//   it, a child that contributes to its parent's collection binds it too, over its parent's
//   elements and its own ("A child injector's contributions add to its parent's collection, in
//   the child only", Composition.md). So the member that gathers a request's collection is the
//   nearest one, from the requested member up, that contributes to it.
// - "Decorators of one key apply in declaration order, the first innermost, around whatever
//   provides the key" (Composition.md): the gathered collection is handed to them, and the
//   request gets what the last returns; the collection is unscoped ("each request gathers the
//   elements anew", `Recipe.gathering`), so it is decorated on each request.
// - A decorator is its injector's own: a child's decorators "apply to everything it builds"
//   (ChildInjectors.md), and a parent's decorator of a key the child binds itself does not wrap
//   the child's value (as for an override in the child, "decorate the override"). The
//   documentation says nothing of a parent's decorator of a collection a child extends; the
//   library wraps only the child's own gathering with the child's own decorators
//   (`Composition.compose` takes `recorded.decorators`, the injector's own), and so does the
//   model. A child that contributes nothing to the collection does not bind it: its decorator
//   of it would be a decorator of its parent's key (`unusedDeclaration`), never drawn.
// - A collection's build is reported to the observers ("`.collection`" builds values,
//   `Recipe.Source.buildsValues`), after its decorators ("A value built with `await` is
//   reported the same way, after its decorators"; observers wrap the decorated build,
//   `Recipe.linkedNode`): to the gathering member's observers and its ancestors'.
//
// In the runner, an array's decorator appends an element of its own (`dec…`, holding nothing)
// to the array it is handed, a set's adds one to the set; a map's decorator adds an entry under
// its own label, holding the same.

extension MScenario {
    /// Draws decorators of `L`, `S` and `M` in the specs that contribute to them, from a random
    /// stream of the seed's own (so that the rest of the scenario is drawn as before).
    mutating func addCollectionDecorators(seed: UInt64) {
        var random = SplitMix(seed: seed ^ 0x4445_434F_5241_5445)
        for index in specs.indices {
            for key in [MScenario.set, MScenario.map, MScenario.collection] where specs[index].gathers(key) && random.chance(35) {
                for _ in 0..<(1 + (random.chance(30) ? 1 : 0)) {
                    specs[index].collectionDecorators.append(MDecorator(key: key, id: random.below(1000)))
                }
            }
        }
    }

    /// The scenario without the decorators of a collection its spec no longer contributes to (a
    /// smaller scenario, whose contributions were dropped).
    func keepingBoundCollectionDecorators() -> MScenario {
        var scenario = self
        for index in specs.indices {
            scenario.specs[index].collectionDecorators.removeAll { !specs[index].gathers($0.key) }
        }
        return scenario
    }

    /// The features the decorators of collections draw.
    var collectionDecoratorFeatures: Set<String> {
        var features: Set<String> = []
        for (index, spec) in specs.enumerated() {
            for decorator in spec.collectionDecorators {
                features.insert(decorator.key == MScenario.set ? "decorated set" : decorator.key == MScenario.map ? "decorated map" : "decorated array")
                if index != 0 { features.insert("decorated collection in a child") }
            }
        }
        return features
    }

    /// Smaller scenarios: one decorator of a collection dropped.
    var collectionDecoratorShrinkCandidates: [MScenario] {
        var result: [MScenario] = []
        for spec in specs.indices {
            for index in specs[spec].collectionDecorators.indices {
                var c = self
                c.specs[spec].collectionDecorators.remove(at: index)
                result.append(c)
            }
        }
        return result
    }

    /// The decorators of collections of `spec`, as the scenario prints them.
    func describeCollectionDecorators(of spec: MSpec) -> [String] {
        spec.collectionDecorators.map { "    decorate \($0.key) with dec\($0.id)" }
    }
}

extension MSpec {
    /// Whether the spec's members gather `key` (`L`, `S` or `M`) themselves: they contribute to it.
    func gathers(_ key: String) -> Bool {
        switch key {
        case MScenario.set: !setEntries.isEmpty
        case MScenario.map: !mapEntries.isEmpty
        case MScenario.collection: !contributions.isEmpty
        default: false
        }
    }
}

// MARK: - The model

extension ReferenceModel {
    /// The collection `key` gathered from `member`, as its decorators and observers make it:
    /// the array's or the set's `children` (an array's decorators' elements after the
    /// contributions, in declaration order) or the map's `entries`, handed to the decorators of the member that
    /// gathers it (the nearest, from `member` up, that contributes to it), in declaration order;
    /// then its build heard by that member's observers and its ancestors'.
    mutating func decorateCollection(_ key: String, from member: Int, children: inout [Int], entries: inout [(mapKey: String?, id: Int)]) {
        var gatherer: Int?
        var current: Int? = member
        while let id = current, let m = members[id] {
            if scenario.specs[m.spec].gathers(key) {
                gatherer = id
                break
            }
            current = m.parent
        }
        guard let owner = gatherer else { return }
        for decorator in scenario.specs[members[owner]!.spec].collectionDecorators where decorator.key == key {
            let label = "dec\(decorator.id)"
            let added = newInstance(label, children: [])
            if key != MScenario.map {
                children.append(added)
            } else if let at = entries.firstIndex(where: { $0.mapKey == label }) {
                entries[at] = (label, added)
            } else {
                entries.append((label, added))
            }
        }
        for observer in observers(of: owner) { events["\(observer):\(key)", default: 0] += 1 }
    }
}

// MARK: - The runner

extension MModule {
    /// Declares the spec's decorators of `L`, `S` and `M`: an array's appends an element of its
    /// own, a set's adds one, a map's adds an entry under its label.
    func decorateCollections(_ binder: Binder) {
        let log = log
        for decorator in spec.collectionDecorators {
            let label = "dec\(decorator.id)"
            if decorator.key == MScenario.collection {
                binder.decorate([MNode].self) { (array: [MNode]) -> [MNode] in array + [MNode.make(label, [], log)] }
            } else if decorator.key == MScenario.set {
                binder.decorate(Set<MNode>.self) { (set: Set<MNode>) -> Set<MNode> in set.union([MNode.make(label, [], log)]) }
            } else {
                binder.decorate([String: MNode].self) { (map: [String: MNode]) -> [String: MNode] in
                    var decorated = map
                    decorated[label] = MNode.make(label, [], log)
                    return decorated
                }
            }
        }
    }
}
