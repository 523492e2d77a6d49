/// Reports every decorator of a key that this injector does not provide: no binding of its
/// modules or overrides, and no ``Injectable`` type built just in time. Such a decorator would
/// wrap nothing.
struct UnboundDecoratorRule {
    /// Whether this injector provides the key from a binding of its own.
    let isBound: (AnyKey) -> Bool
    /// Every key bound, for the near-miss hint.
    let bound: [AnyKey]

    // The shape of UnmatchedOverrideRule's check, written out so that each rule reads alone.
    func check(_ decorators: [Decorator]) -> [InjectionError.Problem] {
        decorators.compactMap { decorator in
            let key = decorator.key
            guard !isBound(key), !UnmatchedOverrideRule.isJustInTime(key) else { return nil }
            return InjectionError.Problem(
                .decoratorWithoutBinding(key: key, location: decorator.location,
                                         nearMisses: MissingBindingRule.nearMisses(of: key, among: bound)),
                path: [key], location: decorator.location)
        }
    }
}
