/// Resolves keys from inside a closure or provider binding.
///
/// A resolver is handed to `bind(_:).to { resolver in … }` closures and to
/// ``Provider/provide(_:)``. It asks the same injector. Requests made while a value is being
/// built, through the resolver or through `resolver.injector`, continue that build's request:
/// one leading back to the binding being built is reported as a cycle, and nesting too deep for
/// the thread's stack as ``InjectionError/Kind/tooDeep``, instead of recursing until a crash.
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

    init(injector: Injector) {
        self.injector = injector
    }

    /// The instance bound to a type's key.
    ///
    /// ```swift
    /// binder.bind(Session.self).to { resolver in Session(clock: try resolver.getInstance(Clock.self)) }
    /// ```
    public func getInstance<Value: SendableMetatype>(_ type: Value.Type) throws(InjectionError) -> Value {
        try injector.request(Value.self, name: nil)
    }

    /// The instance bound to a type whose metatype is not `Sendable` (a protocol of a target
    /// isolated to the main actor by default, say), in the caller's isolation, as
    /// ``Injector``'s `getInstance(_:isolation:)` gives it.
    ///
    /// ```swift
    /// binder.bind(Account.self).to { resolver in Account(session: try resolver.getInstance((any Session).self)) }
    /// ```
    public func getInstance<Value>(
        _ type: Value.Type, isolation: isolated (any Actor)? = #isolation
    ) throws(InjectionError) -> Value {
        try injector.request(Value.self, name: nil)
    }

    /// The instance bound to a key.
    ///
    /// ```swift
    /// binder.bind(Api.self).to { resolver in HttpApi(endpoint: try resolver.getInstance(Key<String>(named: "endpoint"))) }
    /// ```
    public func getInstance<Value>(_ key: Key<Value>) throws(InjectionError) -> Value {
        try injector.request(Value.self, name: key.name)
    }

    /// A new instance of a type whose initializer has dynamic arguments, filled in order from
    /// `arguments`.
    ///
    /// ```swift
    /// binder.bind(Key<Screen>(named: "inbox")).to { resolver in try resolver.getInstance(Screen.self, arguments: "Inbox") }
    /// ```
    public func getInstance<Value, each Argument>(
        _ type: Value.Type, arguments: repeat each Argument, isolation: isolated (any Actor)? = #isolation
    ) throws(InjectionError) -> Value {
        try getInstance(Key<Value>(), arguments: repeat each arguments)
    }

    /// A new instance for a key whose initializer has dynamic arguments, filled in order from
    /// `arguments`.
    ///
    /// ```swift
    /// let screen = try resolver.getInstance(Key<Screen>(named: "compact"), arguments: "Inbox")
    /// ```
    public func getInstance<Value, each Argument>(
        _ key: Key<Value>, arguments: repeat each Argument
    ) throws(InjectionError) -> Value {
        try injector.request(Value.self, name: key.name, arguments: repeat each arguments)
    }
}
