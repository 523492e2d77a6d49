/// Reports every decorator of a key that this injector does not provide: no binding of its
/// modules or overrides, and no ``Injectable`` type built just in time. Such a decorator would
/// wrap nothing. In a child, a decorator of a key its parent binds is reported as such: the
/// parent builds that value, for the whole family.
struct UnboundDecoratorRule: GraphRule {
    func check(_ input: RuleInput) -> [InjectionError.Problem] {
        let decorators = input.recorded.decorators
        guard !decorators.isEmpty else { return [] }
        let bindings = input.bindings
        let parent = input.parent
        return Self.unbound(decorators, isBound: { key in bindings[key] != nil }, bound: Array(bindings.keys),
                            boundByParent: { key in parent?.binds(key) == true })
    }

    /// The problems of the `decorators` whose key is not provided.
    /// - Parameters:
    ///   - isBound: whether this injector provides the key from a binding of its own.
    ///   - bound: every key bound, for the near-miss hint.
    // The shape of UnmatchedOverrideRule's check, written out so that each rule reads alone.
    ///   - boundByParent: whether a parent injector binds the key.
    static func unbound(
        _ decorators: [Decorator], isBound: (AnyKey) -> Bool, bound: [AnyKey],
        boundByParent: (AnyKey) -> Bool = { _ in false }
    ) -> [InjectionError.Problem] {
        decorators.compactMap { decorator in
            let key = decorator.key
            guard !isBound(key) else { return nil }
            if boundByParent(key) {
                return InjectionError.Problem(.decoratorOfParentKey(key: key, location: decorator.location),
                                              path: [key], location: decorator.location)
            }
            guard !UnmatchedOverrideRule.isJustInTime(key) else { return nil }
            return InjectionError.Problem(
                .decoratorWithoutBinding(key: key, location: decorator.location,
                                         nearMisses: MissingBindingRule.nearMisses(of: key, among: bound)),
                path: [key], location: decorator.location)
        }
    }
}
