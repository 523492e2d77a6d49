/// Creates new instances of a type on demand, filling its dynamic arguments: assisted
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
/// may close a dependency cycle.
///
/// A factory works for as long as it is reachable: it keeps its injector alive, so a handler
/// built at start-up may make objects long after every other reference to the injector is
/// gone. A factory given to a value its injector keeps for its whole life (a singleton) holds
/// the injector weakly instead, since the injector holds that value: once the injector is
/// released, `make` there throws ``InjectionError/Kind/injectorReleased``, and after
/// ``Injector/shutDown()``, ``InjectionError/Kind/injectorShutDown``.
public struct Factory<Value, each Argument>: Sendable {
    /// The injector, held strongly unless the factory was given to a value the injector keeps
    /// for its whole life.
    @usableFromInline let strong: Injector?
    @usableFromInline weak let weak: Injector?
    @usableFromInline let key: AnyKey
    /// The target's compiled node, found in the injector's table when the factory was made, so
    /// that `make` does not look it up again; nil when the key was not compiled yet. Read only
    /// while `injector` holds the injector, whose table keeps the node (a table's entries never
    /// change once added).
    @usableFromInline let node: FoundNode<Value>?
    /// What makes the values of a factory made in code (``init(_:)``); `nil` for an injected
    /// one.
    @usableFromInline let made: (@Sendable (repeat each Argument) throws -> Value)?
    /// The injector, while it lives.
    @usableFromInline var injector: Injector? { strong ?? weak }

    init(injector: Injector, key: AnyKey, weakly: Bool) {
        self.strong = weakly ? nil : injector
        self.weak = weakly ? injector : nil
        self.key = key
        node = injector.compiled(Value.self, name: key.name)
        made = nil
    }

    /// A factory whose values `make` makes from the arguments of each ``make(_:)`` (or
    /// ``instance(_:)``) call, with the same API as an injected one and no injector involved.
    /// For a test, or a preview, that hands a type a fake of what it would be injected:
    ///
    /// ```swift
    /// let router = Router(screens: Factory { title in Screen(feed: FakeFeed(), title: title) })
    /// ```
    ///
    /// An error `make` throws is thrown by ``make(_:)`` as an ``InjectionError`` of kind
    /// ``InjectionError/Kind/initializerFailed`` (one it throws as an ``InjectionError`` keeps
    /// its kind, with the value's type first on its path).
    public init(_ make: @escaping @Sendable (repeat each Argument) throws -> Value) {
        strong = nil
        weak = nil
        key = AnyKey(type: Value.self, name: nil)
        node = nil
        made = make
    }

    /// A new instance, with `arguments` filling the target's dynamic slots in order.
    ///
    /// ```swift
    /// let inbox = try screens.make("Inbox")
    /// ```
    ///
    /// - Throws: an ``InjectionError`` when building fails, or when the injector has been
    ///   released.
    @inlinable
    public func make(_ arguments: repeat each Argument) throws(InjectionError) -> Value {
        if let made { return try Self.making(made, key: key, repeat each arguments) }
        guard let injector else { throw released() }
        // Inlined where the factory is used: the arguments are placed with their types known.
        return try injector.requestPlacing(Value.self, name: key.name, found: node, arguments: repeat each arguments)
    }

    /// A new instance, or `nil` once `onFailure` has been handed the error that building it
    /// threw: for a protocol of the app's whose factory method cannot throw, with no trap and no
    /// error lost.
    ///
    /// ```swift
    /// protocol DetailMaking { func detail(id: Int) -> UIViewController }
    ///
    /// struct Details: DetailMaking {
    ///     let screens: Factory<DetailViewController, Int>
    ///     func detail(id: Int) -> UIViewController {
    ///         screens.make(id, onFailure: { error in log.error("\(error)") }) ?? ErrorViewController()
    ///     }
    /// }
    /// ```
    ///
    /// The injector checked the target's bindings, its dependencies and its arguments' types
    /// when it was built. What can still fail is what only a request can tell: an initializer,
    /// closure or provider that throws, the injector shut down or released, a main-actor value
    /// asked for off the main actor, a value that needs `await`. Each comes to `onFailure` as the
    /// ``InjectionError`` that ``make(_:)`` would throw.
    @inlinable
    public func make(_ arguments: repeat each Argument, onFailure: (InjectionError) -> Void) -> Value? {
        do {
            return try make(repeat each arguments)
        } catch {
            onFailure(error)
            return nil
        }
    }

    /// The value a factory made in code makes from `arguments`, its error as an
    /// `InjectionError`.
    @usableFromInline
    static func making(
        _ make: @Sendable (repeat each Argument) throws -> Value, key: AnyKey, _ arguments: repeat each Argument
    ) throws(InjectionError) -> Value {
        do {
            return try make(repeat each arguments)
        } catch {
            throw InjectionError.wrap(error, at: key)
        }
    }

    @usableFromInline
    func released() -> InjectionError {
        InjectionError(.injectorReleased(key: key, wrapper: "A Factory"), path: [key])
    }
}

extension Factory: DeferredDependency {
    static var targetType: Any.Type { Value.self }

    static var factoryArguments: [Any.Type]? {
        var types: [Any.Type] = []
        repeat types.append((each Argument).self)
        return types
    }

    static func deferredPlan(for dependency: Dependency) -> Any {
        let key = dependency.deferredKey ?? dependency.key
        let plan: Plan<Factory<Value, repeat each Argument>> = { resolution in
            // Its make(…) may run while the consumer is built: it continues this request.
            _ = resolution.publishFrame()
            return Factory(injector: resolution.handedInjector, key: key, weakly: resolution.keeper?.weakly ?? false)
        }
        return plan
    }
}

extension Factory: RequestedWrapper {
    static func requestRecipe(name: String?) -> Recipe {
        .wrapper(Key<Factory<Value, repeat each Argument>>(named: name))
    }
}
