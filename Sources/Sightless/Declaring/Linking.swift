// The contract between the descriptors (which know the types) and the graph compiler (which
// knows the bindings). A descriptor links each of its dependencies into a `Plan` once, when
// the injector is built; resolving then only runs plans.

/// What a descriptor asks of the graph compiler while it links.
@usableFromInline
protocol Linking: AnyObject {
    /// The plan that produces the value of a (non-dynamic) dependency.
    func plan<Value>(for dependency: Dependency, as type: Value.Type) throws -> Plan<Value>
    /// The plan for an optional dependency whose `Optional` key has no binding of its own:
    /// it builds the wrapped key when that has a binding, and gives `nil` when it has none.
    func optionalPlan<Wrapped>(for dependency: Dependency, wrapped: Wrapped.Type) throws -> Plan<Wrapped?>
    /// The instance storage of a dependency whose scope keeps one, which a plan may read
    /// directly once the instance exists; `nil` for any other dependency.
    func storage(for dependency: Dependency) -> InstanceStorage?
    /// The key under which a consumer's section holds the value awaited for a dependency that
    /// awaits in place (`AnyNode.awaitsInPlace`) and is built on no actor; `nil` for any other.
    func keyAwaitedInPlace(for dependency: Dependency) -> AnyKey?
    /// The plan that reads the dependency's dynamic argument.
    func dynamicPlan<Value>(for dependency: Dependency, as type: Value.Type) -> Plan<Value>
    /// Lays out the dependency's dynamic argument, for a plan that reads it itself.
    func dynamicSlot<Value>(for dependency: Dependency, as type: Value.Type) -> DynamicSlot
    /// Turns a failure while building the node being linked into an `InjectionError` that
    /// carries its dependency path and the declaration's location.
    var rethrow: @Sendable (any Error) -> InjectionError { get }
    /// The identity of the graph the node is linked into.
    var owner: CompilationOwner { get }
    /// What asking for the node again, from inside its own build, means: the graph's decision
    /// (`Meaning.Reentry`), which a closure binding's guard reads.
    var reentry: Meaning.Reentry { get }
    /// Whether the node's plan binds the scope of the reads where they stand of the values it
    /// builds itself (an initializer of fixed arity does, specialized), so that the pipeline
    /// wraps nothing around it.
    var collectsReads: Bool { get set }
}

/// Marks `Optional`, for the messages that tell whether a missing key's type could conform to
/// ``Injectable``. The graph reads an optional's wrapped type from its metadata
/// (`optionalWrappedType`), with no conformance lookup.
protocol OptionalDependency {}

extension Optional: OptionalDependency {}

/// Lets generic code find out, once, that a dependency is deferred: `Lazy<T>` or
/// `Factory<T, …>`.
protocol DeferredDependency: SendableMetatype {
    static var targetType: Any.Type { get }
    /// The argument types of a factory's `make`; `nil` for `Lazy`.
    static var factoryArguments: [Any.Type]? { get }
    /// The plan that makes the `Lazy` or `Factory` of the dependency's deferred key.
    static func deferredPlan(for dependency: Dependency) -> Any
}

/// Whether every value of the concrete type `type` is a value of `Value`: a subclass, the
/// wrapped type of an optional. For a protocol type (`any Api`, a composition) the answer is
/// yes: Swift checks a conformance on a value, or on a metatype cast to the protocol's own
/// existential metatype (`any Api.Type`), which generic code cannot name; such a value is
/// checked when it is built.
func valuesOf<Value>(_ type: Any.Type, areValuesOf target: Value.Type) -> Bool {
    if type is Value.Type { return true }
    if isExistential(Value.self) { return true }
    guard let wrapped = optionalWrappedType(Value.self) else { return false }
    func check<Wrapped>(_ wrapped: Wrapped.Type) -> Bool { valuesOf(type, areValuesOf: wrapped) }
    return check(wrapped)
}
