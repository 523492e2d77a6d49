/// Resolves keys from inside a closure or provider binding.
///
/// A resolver is handed to `bind(_:).to { resolver in … }` closures and to
/// ``Provider/provide(_:)``. It asks the same injector, and it remembers which closure and
/// provider bindings are being built, so that one leading back to itself is reported as a
/// cycle instead of recursing forever.
///
/// ```swift
/// binder.bind(Session.self).to { resolver in
///     Session(clock: try resolver.getInstance(Clock.self),
///             endpoint: try resolver.getInstance(Key<String>(named: "endpoint")))
/// }
/// ```
public struct Resolver: Sendable {
    /// The injector this resolver asks.
    ///
    /// ```swift
    /// binder.bind(Router.self).to { resolver in Router(injector: resolver.injector) }
    /// ```
    public let injector: Injector
    let active: [ObjectIdentifier]
    /// The nesting of the request this resolver serves, so that its own requests count on.
    let nesting: Nesting

    init(injector: Injector, active: [ObjectIdentifier], nesting: Nesting = Nesting()) {
        self.injector = injector
        self.active = active
        self.nesting = nesting
    }

    /// The instance bound to a type's key.
    ///
    /// ```swift
    /// binder.bind(Session.self).to { resolver in Session(clock: try resolver.getInstance(Clock.self)) }
    /// ```
    public func getInstance<Value>(_ type: Value.Type) throws(InjectionError) -> Value {
        try injector.resolve(Key<Value>(), active: active, nesting: nesting)
    }

    /// The instance bound to a key.
    ///
    /// ```swift
    /// binder.bind(Api.self).to { resolver in HttpApi(endpoint: try resolver.getInstance(Key<String>(named: "endpoint"))) }
    /// ```
    public func getInstance<Value>(_ key: Key<Value>) throws(InjectionError) -> Value {
        try injector.resolve(key, active: active, nesting: nesting)
    }

    /// A new instance of a type whose initializer has creation-time arguments, filled in order
    /// from `arguments`.
    ///
    /// ```swift
    /// binder.bind(Key<Screen>(named: "inbox")).to { resolver in try resolver.getInstance(Screen.self, arguments: "Inbox") }
    /// ```
    public func getInstance<Value, each Argument>(
        _ type: Value.Type, arguments: repeat each Argument
    ) throws(InjectionError) -> Value {
        try injector.resolve(Key<Value>(), active: active, nesting: nesting, arguments: repeat each arguments)
    }

    /// A new instance for a key whose initializer has creation-time arguments, filled in order
    /// from `arguments`.
    ///
    /// ```swift
    /// let screen = try resolver.getInstance(Key<Screen>(named: "compact"), arguments: "Inbox")
    /// ```
    public func getInstance<Value, each Argument>(
        _ key: Key<Value>, arguments: repeat each Argument
    ) throws(InjectionError) -> Value {
        try injector.resolve(key, active: active, nesting: nesting, arguments: repeat each arguments)
    }
}
