/// What a dependency's type says about the dependency, learnt once per type: whether it is a
/// `Lazy` or `Factory` (and of what). That is a conformance check in the runtime, whose first
/// lookup for a type scans every conformance record of the process; an injector of 100,000
/// bindings would otherwise make one for every dependency it records. Whether a type is an
/// `Optional` (and of what) its metadata tells at once (`optionalWrappedType`).
struct DependencyTraits: Sendable {
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
        let deferred = Self.mayBeDeferred(type) ? type as? any DeferredDependency.Type : nil
        deferredTarget = deferred?.targetType
        factoryArguments = deferred?.factoryArguments
    }

    /// Whether `type` may be a `Lazy` or a `Factory`: not a protocol type or an `Optional`, and
    /// not a type that declares itself, which is asked first because the graph compiler asks
    /// the same of every type it builds just in time, so the runtime looks it up once.
    private static func mayBeDeferred(_ type: Any.Type) -> Bool {
        guard !isExistential(type), optionalWrappedType(type) == nil else { return false }
        return !(type is any Injectable.Type) && !(type is any MainActorInjectable.Type)
    }

    /// Whether `type` may declare itself to the injector (``Injectable``,
    /// ``MainActorInjectable``, or a member injector): not a protocol type or an `Optional`,
    /// which the runtime is then not asked about.
    static func mayDeclareItself(_ type: Any.Type) -> Bool {
        !isExistential(type) && optionalWrappedType(type) == nil
    }

    /// Whether `type` is an `Optional`, a `Lazy` or a `Factory`: the types a request may be
    /// given a wrapper for when nothing binds them.
    static func isWrapper(_ type: Any.Type) -> Bool {
        optionalWrappedType(type) != nil || of(type).deferredTarget != nil
    }

    /// Facts about types, which never change: shared by every injector, like the runtime's own
    /// conformance cache.
    private static let known = LockedDictionary<ObjectIdentifier, DependencyTraits>()
}
