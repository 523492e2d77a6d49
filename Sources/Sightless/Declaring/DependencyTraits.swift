/// What a dependency's type says about the dependency, learnt once per type: whether it is an
/// `Optional` (and of what) and whether it is a `Lazy` or `Factory` (and of what). Each of
/// these is a conformance check in the runtime, which costs several hundred instructions;
/// an injector of 100,000 bindings would otherwise make them for every dependency it records.
struct DependencyTraits: Sendable {
    /// The wrapped type of an `Optional`.
    let wrappedType: Any.Type?
    /// The target of a `Lazy<T>` or `Factory<T, …>`.
    let deferredTarget: Any.Type?
    /// The argument types of a `Factory<T, A…>`'s `make`.
    let factoryArguments: [Any.Type]?

    /// The traits of `type`, looked up once per type for the life of the process.
    static func of(_ type: Any.Type) -> DependencyTraits {
        let identity = ObjectIdentifier(type)
        if let known = known.value(for: identity) { return known }
        let traits = DependencyTraits(type)
        known.set(traits, for: identity)
        return traits
    }

    private init(_ type: Any.Type) {
        let deferred = type as? any DeferredDependency.Type
        wrappedType = (type as? any OptionalDependency.Type)?.wrappedType
        deferredTarget = deferred?.targetType
        factoryArguments = deferred?.factoryArguments
    }

    /// Facts about types, which never change: shared by every injector, like the runtime's own
    /// conformance cache.
    private static let known = LockedDictionary<ObjectIdentifier, DependencyTraits>()
}
