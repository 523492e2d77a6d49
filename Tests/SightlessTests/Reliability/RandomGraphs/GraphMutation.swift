import Sightless

/// A way to break a valid graph, and the error that must report it.
struct GraphMutation: CustomStringConvertible {
    enum Expected {
        /// The injector must refuse to build, with a problem of this kind whose path passes
        /// the check.
        case build(InjectionError.Kind, (InjectionError.Problem) -> Bool)
        /// The injector builds; requesting this key with these arguments must fail with this kind.
        case request(Int, [GraphInput], InjectionError.Kind, (InjectionError) -> Bool)
    }

    let description: String
    let spec: GraphSpec
    let expected: Expected

    /// Draws one break of `spec`, or `nil` when the graph offers nothing to break this way.
    static func random(of spec: GraphSpec, using random: inout SeededGenerator) -> GraphMutation? {
        let kinds = [removeBinding, addCycle, duplicateKey, injectDynamic, wrongArgumentCount, wrongArgumentType]
        for kind in kinds.shuffled(using: &random) {
            if let mutation = kind(spec, &random) { return mutation }
        }
        return nil
    }

    private static func key(_ index: Int) -> AnyKey { GraphSpec.key(index).erased }

    /// The index of a key `n17` of the graph; `nil` for the other keys.
    private static func index(of key: AnyKey) -> Int? {
        guard key.type == GraphNode.self, let name = key.name, name.hasPrefix("n") else { return nil }
        return Int(name.dropFirst())
    }

    /// Removes the binding of a key that another binding visibly depends on.
    static func removeBinding(_ spec: GraphSpec, _ random: inout SeededGenerator) -> GraphMutation? {
        let candidates = spec.bindings.indices.filter { !spec.visibleConsumers(of: $0).isEmpty }
        guard let removed = candidates.randomElement(using: &random) else { return nil }
        var broken = spec
        // The removed key stays in the list, as an alias of itself would be: bound nowhere.
        broken.bindings[removed] = GraphSpec.Binding(source: .instance)
        broken.removed.insert(removed)
        let consumers = Set(spec.visibleConsumers(of: removed).map(key))
        return GraphMutation(
            description: "remove the binding of n\(removed)", spec: broken,
            expected: .build(.missingBinding) { problem in
                problem.key == key(removed) && problem.path.last == key(removed)
                    && problem.path.dropLast().last.map(consumers.contains) == true
            })
    }

    /// Replaces the binding of a visible dependency `j` of some `i` with one that needs `i`.
    static func addCycle(_ spec: GraphSpec, _ random: inout SeededGenerator) -> GraphMutation? {
        let edges = spec.bindings.indices.flatMap { consumer in
            spec.bindings[consumer].source == .initializer
                ? spec.bindings[consumer].slots.compactMap { slot -> (Int, Int)? in
                    if case .node(let dependency) = slot { return (consumer, dependency) }
                    return nil
                }
                : []
        }
        guard let (consumer, dependency) = edges.randomElement(using: &random) else { return nil }
        var broken = spec
        broken.bindings[dependency] = GraphSpec.Binding(source: .initializer, slots: [.node(consumer)])
        return GraphMutation(
            description: "make n\(dependency) need n\(consumer), which needs it", spec: broken,
            expected: .build(.cyclicDependency) { problem in
                let path = problem.path
                guard path.count >= 3, path.first == path.last,
                      path.contains(key(consumer)), path.contains(key(dependency)) else { return false }
                // Every step between two keys of the graph is one of its dependencies (steps
                // through the Wired family are checked by the rule's own tests).
                return zip(path, path.dropFirst()).allSatisfy { from, to in
                    guard let from = index(of: from), let to = index(of: to) else { return true }
                    return broken.visibleDependencies(of: from).contains(to)
                }
            })
    }

    /// Binds a key a second time.
    static func duplicateKey(_ spec: GraphSpec, _ random: inout SeededGenerator) -> GraphMutation? {
        guard let duplicated = spec.bindings.indices.randomElement(using: &random) else { return nil }
        var broken = spec
        broken.extra.append((duplicated, GraphSpec.Binding(source: .instance)))
        return GraphMutation(
            description: "bind n\(duplicated) twice", spec: broken,
            expected: .build(.duplicateBinding) { $0.key == key(duplicated) && $0.path == [key(duplicated)] })
    }

    /// Gives a visibly injected key a dynamic argument.
    static func injectDynamic(_ spec: GraphSpec, _ random: inout SeededGenerator) -> GraphMutation? {
        let candidates = spec.bindings.indices.filter { index in
            spec.visibleConsumers(of: index).contains { spec.bindings[$0].source == .initializer }
        }
        guard let dynamic = candidates.randomElement(using: &random) else { return nil }
        var broken = spec
        broken.bindings[dynamic] = GraphSpec.Binding(source: .initializer, slots: [.dynamicInt])
        // Aliases of the key pass its argument on, so the consumer may inject it through one.
        let reaching = Set(broken.bindings.indices.filter { broken.target(of: $0) == dynamic }.map(key))
        return GraphMutation(
            description: "give n\(dynamic), which is injected, a dynamic argument", spec: broken,
            expected: .build(.dynamicDependency) { problem in
                problem.path.last.map(reaching.contains) == true && problem.key == problem.path.last
            })
    }

    /// Requests a key with one argument too many or too few.
    static func wrongArgumentCount(_ spec: GraphSpec, _ random: inout SeededGenerator) -> GraphMutation? {
        guard let index = spec.bindings.indices.randomElement(using: &random) else { return nil }
        var arguments = GraphChecker.arguments(for: index, request: 0, spec: spec)
        if arguments.isEmpty || Bool.random(using: &random) {
            arguments.append(.int(7))
        } else {
            arguments.removeLast()
        }
        guard arguments.count <= 2 else { return nil }
        return GraphMutation(
            description: "request n\(index) with \(arguments.count) arguments", spec: spec,
            expected: .request(index, arguments, .argumentCount) { $0.problems.first?.key == key(index) })
    }

    /// Requests a key that takes arguments with one of the wrong type.
    static func wrongArgumentType(_ spec: GraphSpec, _ random: inout SeededGenerator) -> GraphMutation? {
        let candidates = spec.bindings.indices.filter { !spec.bindings[spec.target(of: $0)].dynamicSlots.isEmpty }
        guard let index = candidates.randomElement(using: &random) else { return nil }
        var arguments = GraphChecker.arguments(for: index, request: 0, spec: spec)
        let position = Int.random(in: arguments.indices, using: &random)
        if case .int = arguments[position] { arguments[position] = .string("wrong") } else { arguments[position] = .int(-1) }
        return GraphMutation(
            description: "request n\(index) with argument \(position + 1) of the wrong type", spec: spec,
            expected: .request(index, arguments, .argumentType) { $0.problems.first?.key == key(index) })
    }
}
