/// Creates new instances of a type on demand, filling its creation-time arguments: assisted
/// injection.
///
/// A type whose initializer has `.dynamic` slots cannot be injected directly, since nothing
/// could fill those slots. Inject a factory for it instead, and pass the values to ``make(_:)``
/// where they are known:
///
/// ```swift
/// final class Screen: Injectable {
///     init(feed: FeedService, title: String) { … }
///     static let initializer = Initializer(Screen.init(feed:title:), .inject, .dynamic)
/// }
///
/// final class Router: Injectable {
///     let screens: Factory<Screen, String>
///     init(screens: Factory<Screen, String>) { self.screens = screens }
///     static let initializer = Initializer(Router.init(screens:))
///
///     func open(_ title: String) throws -> Screen { try screens.make(title) }
/// }
/// ```
///
/// The argument types must match the target's dynamic slots, in order; the injector checks
/// that when it is built. A factory without arguments, `Factory<T>`, gives a new instance of
/// an unscoped `T` on every call (and the one instance of a singleton), and, like ``Lazy``,
/// may close a dependency cycle. A factory holds its injector weakly: once the injector is gone,
/// `make` throws.
public struct Factory<Value, each Argument>: Sendable {
    private weak let injector: Injector?
    private let reference: NodeReference<Value>

    init(injector: Injector, reference: NodeReference<Value>) {
        self.injector = injector
        self.reference = reference
    }

    /// A new instance, with `arguments` filling the target's creation-time slots in order.
    ///
    /// - Throws: an ``InjectionError`` when building fails, or when the injector has been
    ///   released.
    public func make(_ arguments: repeat each Argument) throws(InjectionError) -> Value {
        guard let injector, let node = reference.node else {
            throw InjectionError(.missingBinding, key: reference.key,
                                 message: "A Factory of \(reference.key) was used after its injector was released.",
                                 fix: "Keep the Injector alive for as long as objects it built use their factories.")
        }
        return try injector.run(node, key: reference.key, active: [], arguments: repeat each arguments)
    }
}

extension Factory: DeferredDependency {
    static var targetType: Any.Type { Value.self }

    static var factoryArguments: [Any.Type]? {
        var types: [Any.Type] = []
        repeat types.append((each Argument).self)
        return types
    }

    static func deferredPlan(linking linker: any Linking, dependency: Dependency) throws -> Any {
        let reference = try linker.deferredNode(for: dependency, as: Value.self)
        let plan: Plan<Factory<Value, repeat each Argument>> = { resolution in
            Factory(injector: resolution.injector, reference: reference)
        }
        return plan
    }
}
