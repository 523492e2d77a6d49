// The contract between the descriptors (which know the types) and the graph compiler (which
// knows the bindings). A descriptor links each of its dependencies into a `Plan` once, when
// the injector is built; resolving then only runs plans.

/// A compiled way to produce one value. Plans call each other directly: no lookup, no cast.
@usableFromInline
typealias Plan<Value> = (inout Resolution) throws -> Value

/// The state of one `getInstance` call, passed down through the plans it runs.
@usableFromInline
struct Resolution {
    /// The injector resolving; the caller keeps it alive for the whole call.
    unowned(unsafe) let injector: Injector
    /// The creation-time arguments of the requested type, laid out by its
    /// `DynamicSignature`, or `nil` when the request has none.
    var arguments: UnsafeRawPointer?
    /// The closure and provider bindings being built on this call, innermost last: the
    /// one place a cycle can still appear at run time.
    var active: [ObjectIdentifier]
    /// How deep the plans running in this request (and in the requests enclosing it through a
    /// `Resolver`) are nested; see `StackGuard`.
    @usableFromInline var nesting = Nesting()
}

/// What a descriptor asks of the graph compiler while it links.
@usableFromInline
protocol Linking: AnyObject {
    /// The plan that produces the value of a (non-dynamic) dependency.
    func plan<Value>(for dependency: Dependency, as type: Value.Type) throws -> Plan<Value>
    /// The plan for an optional dependency whose `Optional` key has no binding of its own:
    /// it builds the wrapped key when that has a binding, and gives `nil` when it has none.
    func optionalPlan<Wrapped>(for dependency: Dependency, wrapped: Wrapped.Type) throws -> Plan<Wrapped?>
    /// The storage of a dependency bound as a singleton, which a plan may read directly once
    /// the instance exists; `nil` for any other dependency.
    func singleton(for dependency: Dependency) -> SingletonStorage?
    /// The plan that reads the next creation-time argument.
    func dynamicPlan<Value>(for dependency: Dependency, as type: Value.Type) -> Plan<Value>
    /// A reference to the node of a deferred (`Lazy`, `Factory`) dependency's target, filled
    /// once the whole graph is linked: the target may itself depend on the node being linked.
    func deferredNode<Value>(for dependency: Dependency, as type: Value.Type) throws -> NodeReference<Value>
    /// The creation-time arguments requested so far by the node being linked (or, for an
    /// alias, those of its target).
    var dynamicSignature: DynamicSignature? { get }
    /// Turns a failure while building the node being linked into an `InjectionError` that
    /// carries its dependency path.
    var rethrow: @Sendable (any Error) -> InjectionError { get }
}

/// Lets generic code find out, once, that a dependency's type is an `Optional`.
protocol OptionalDependency {
    static var wrappedType: Any.Type { get }
    static func optionalPlan(linking linker: any Linking, dependency: Dependency) throws -> Any
}

extension Optional: OptionalDependency {
    static var wrappedType: Any.Type { Wrapped.self }

    static func optionalPlan(linking linker: any Linking, dependency: Dependency) throws -> Any {
        let plan: Plan<Wrapped?> = try linker.optionalPlan(for: dependency, wrapped: Wrapped.self)
        return plan
    }
}

/// Lets generic code find out, once, that a dependency is deferred: `Lazy<T>` or
/// `Factory<T, …>`.
protocol DeferredDependency {
    static var targetType: Any.Type { get }
    /// The argument types of a factory's `make`; `nil` for `Lazy`.
    static var factoryArguments: [Any.Type]? { get }
    static func deferredPlan(linking linker: any Linking, dependency: Dependency) throws -> Any
}
