/// A binding of a key that serves one consumer only (BloodMagic's `containerClass`): the same
/// `ResourceLoader` argument gets one loader in `UsersViewController` and another in
/// `ProjectsViewController`.
///
/// The binding is an ordinary binding of a key of its own (the key's type, named after the
/// consumer), so it has its own target, scope and dependencies. When the graph is compiled,
/// the consumer's dependencies on `key` are linked to it instead of to `key`'s binding: the
/// choice is made once, per edge, and costs nothing per request.
struct ContextualBinding: Sendable {
    /// The key the consumer depends on.
    let key: AnyKey
    /// The type whose initializer arguments and properties get this binding.
    let consumer: AnyKey
    /// The key of the binding that serves them.
    let serving: AnyKey
    let location: SourceLocation

    /// The name of the key that serves `consumer`'s dependencies on a key.
    static func name(key: AnyKey, consumer: AnyKey) -> String {
        (key.writtenName.map { "\($0), " } ?? "") + "when injected into \(consumer)"
    }
}

extension BindingBuilder {
    /// Limits the binding to the dependencies of one consumer type: its initializer arguments
    /// and properties of this key get this binding, and every other consumer keeps the key's own.
    ///
    /// ```swift
    /// binder.bind(ResourceLoader.self).to(DefaultLoader.self)
    /// binder.bind(ResourceLoader.self).whenInjected(into: UsersViewController.self).to { _ in UsersLoader() }
    /// binder.bind(ResourceLoader.self).whenInjected(into: ProjectsViewController.self).to(ProjectsLoader.self)
    /// ```
    ///
    /// The consumer is compiled and checked when the injector is built; a consumer that has no
    /// dependency on the key is an ``InjectionError/Kind/unusedDeclaration`` error. A `T?`
    /// dependency is served too; a `Lazy` or `Factory` of the key resolves the key's own
    /// binding when it is used.
    public func whenInjected<Consumer>(into consumer: Consumer.Type) -> BindingBuilder<Value> {
        let consumerKey = Key<Consumer>().erased
        let serving = Key<Value>(named: ContextualBinding.name(key: key.erased, consumer: consumerKey))
        binder.rebind(at: index, to: serving, location: location)
        binder.record(.contextual(ContextualBinding(
            key: key.erased, consumer: consumerKey, serving: serving.erased, location: location)))
        return BindingBuilder(binder: binder, index: index, key: serving, location: location)
    }
}
