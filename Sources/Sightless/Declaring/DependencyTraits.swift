/// What a dependency's type says about the dependency, learnt once per type: whether it is a
/// `Lazy` or `Factory` (and of what). Asked of the runtime, that is a conformance check, whose
/// first lookup for a type scans every conformance record of the process; an injector of 100,000
/// bindings would otherwise make one for every dependency it records. A `Lazy` or `Factory` is
/// told from its metadata instead (`DeferredTypes`), as an `Optional` is (`optionalWrappedType`).
struct DependencyTraits: Sendable {
    /// The `Lazy<T>` or `Factory<T, …>` type itself, as what makes its plan.
    let deferred: (any DeferredDependency.Type)?
    /// The target of a `Lazy<T>` or `Factory<T, …>`.
    let deferredTarget: Any.Type?
    /// The argument types of a `Factory<T, A…>`'s `make`, gathered once: the rules read them for
    /// every edge to a factory.
    let factoryArguments: [Any.Type]?

    private init(deferred: (any DeferredDependency.Type)?) {
        self.deferred = deferred
        deferredTarget = deferred?.targetType
        factoryArguments = deferred?.factoryArguments
    }

    /// The traits of `type`, looked up once per type for the life of the process.
    static func of(_ type: Any.Type) -> DependencyTraits {
        let identity = ObjectIdentifier(type)
        if let known = known.value(for: identity) { return known }
        let traits = DependencyTraits(deferred: DeferredTypes.deferred(type))
        known.set(traits, for: identity)
        return traits
    }

    /// Whether `type` may declare itself to the injector (``Injectable``,
    /// ``MainActorInjectable``, or a member injector): not a protocol type, an `Optional`, a
    /// `Lazy` or a `Factory`, which the runtime is then not asked about.
    static func mayDeclareItself(_ type: Any.Type) -> Bool {
        !isExistential(type) && optionalWrappedType(type) == nil && !DeferredTypes.isDeferred(type)
    }

    /// Whether `type` is an `Optional`, a `Lazy` or a `Factory`: the types a request may be
    /// given a wrapper for when nothing binds them.
    static func isWrapper(_ type: Any.Type) -> Bool {
        optionalWrappedType(type) != nil || of(type).deferred != nil
    }

    /// Facts about types, which never change: shared by every injector, like the runtime's own
    /// conformance cache.
    private static let known = LockedDictionary<ObjectIdentifier, DependencyTraits>()
}
