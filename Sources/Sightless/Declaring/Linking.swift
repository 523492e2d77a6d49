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
    /// The plan of `dependency`'s node that a main-actor consumer's region runs in place of the
    /// one `plan(for:as:)` returned for it, when the node has one (`Node.mainActorPlan`); asked
    /// right after `plan(for:as:)` for the same dependency.
    func mainActorPlan<Value>(for dependency: Dependency, as type: Value.Type) -> MainActorPlan<Value>?
    /// What the plan of a main-actor object runs in its main-actor region, left by its type
    /// recipe for the node (`Recipe.isolatedNode`), when the initializer's plan is all the build.
    var mainActorBody: Any? { get set }
}

/// A type that wraps a dependency: `Optional`, and through ``DeferredDependency`` `Lazy` and
/// `Factory`. The type says so itself, through a conformance the graph asks of the runtime once
/// per type for the life of the process (`DependencyTraits.of`): public Swift tells an instance
/// of a generic type no other way, and a conformance lookup is the language's promise, where a
/// type's metadata is the runtime's own business. The first lookup for a type scans the
/// conformance records of the process (see Performance.md, "The types a graph asks about").
protocol DependencyWrapper {
    /// What the type wraps: an optional's wrapped type, or the `Lazy` or `Factory` type itself.
    static var wrapping: DependencyWrapping { get }
}

/// What a ``DependencyWrapper`` wraps.
enum DependencyWrapping {
    /// An `Optional`, and the type it wraps.
    case optional(Any.Type)
    /// A `Lazy` or `Factory`, as what makes its plan.
    case deferred(any DeferredDependency.Type)
}

extension Optional: DependencyWrapper {
    static var wrapping: DependencyWrapping { .optional(Wrapped.self) }
}

protocol DeferredDependency: DependencyWrapper, SendableMetatype {
    static var targetType: Any.Type { get }
    /// The argument types of a factory's `make`; `nil` for `Lazy`.
    static var factoryArguments: [Any.Type]? { get }
    /// The plan that makes the `Lazy` or `Factory` of the dependency's deferred key.
    static func deferredPlan(for dependency: Dependency) -> Any
}

extension DeferredDependency {
    static var wrapping: DependencyWrapping { .deferred(Self.self) }
}

/// Whether every value of the concrete type `type` is a value of `Value`, as far as public Swift
/// tells before any value is built: a subclass, the wrapped type of an optional, or, when
/// `instance` is a value of `type`, whether it casts. Without a value, Swift checks a
/// conformance to a protocol only on a metatype cast to the protocol's own existential metatype
/// (`any Api.Type`), which generic code cannot name, and tells a protocol type from a struct or
/// an enum by nothing it promises: for a key of a class (`Value.self is AnyObject.Type`, `false`
/// for a class-bound protocol type), an `Optional`, a `Lazy` or a `Factory`
/// (`DependencyWrapper`) the answer is exact; for any other key (a protocol type, a struct, an
/// enum) it is yes, and the value is checked when it is built. Asked when a graph is compiled,
/// of an alias's key whose target is not of its type: the wrapper's conformance is looked up
/// once per type for the life of the process, one scan of the conformance records for each
/// protocol key an app aliases (see Performance.md, "The types a graph asks about").
func valuesOf<Value>(_ type: Any.Type, instance: Any? = nil, areValuesOf target: Value.Type) -> Bool {
    if type is Value.Type { return true }
    if let instance { return instance is Value }
    if Value.self is AnyObject.Type { return false }
    switch DependencyTraits.of(Value.self).wrapping {
    case .optional(let wrapped)?:
        func check<Wrapped>(_ wrapped: Wrapped.Type) -> Bool { valuesOf(type, areValuesOf: wrapped) }
        return check(wrapped)
    case .deferred?:
        return false
    case nil:
        return true
    }
}
