/// What a dependency's type says about the dependency, learnt once per type for the life of the
/// process: whether it is an `Optional` (and of what), or a `Lazy` or `Factory` (and of what).
/// The type says so itself, through its conformance to `DependencyWrapper`, asked of the runtime
/// when the graph first meets the type (while it compiles a graph, or a type states its
/// initializer), never by a request. The first lookup of a conformance for a type scans every
/// conformance record of the process; an injector of 100,000 bindings would make one for every
/// dependency it records, so the answer is kept here, under the type's identity (see
/// Performance.md, "The types a graph asks about").
struct DependencyTraits: Sendable {
    /// What the type wraps, when it is an `Optional`, a `Lazy` or a `Factory`.
    let wrapping: DependencyWrapping?
    /// The wrapped type of an `Optional`.
    let optionalWrapped: Any.Type?
    /// The `Lazy<T>` or `Factory<T, …>` type itself, as what makes its plan.
    let deferred: (any DeferredDependency.Type)?
    /// The target of a `Lazy<T>` or `Factory<T, …>`.
    let deferredTarget: Any.Type?
    /// The argument types of a `Factory<T, A…>`'s `make`, gathered once: the rules read them for
    /// every edge to a factory.
    let factoryArguments: [Any.Type]?

    private init(asking type: Any.Type) {
        wrapping = (type as? any DependencyWrapper.Type)?.wrapping
        switch wrapping {
        case .optional(let wrapped)?:
            optionalWrapped = wrapped
            deferred = nil
        case .deferred(let deferred)?:
            optionalWrapped = nil
            self.deferred = deferred
        case nil:
            optionalWrapped = nil
            deferred = nil
        }
        deferredTarget = deferred?.targetType
        factoryArguments = deferred?.factoryArguments
    }

    /// The traits of `type`, looked up once per type for the life of the process.
    static func of(_ type: Any.Type) -> DependencyTraits {
        let identity = ObjectIdentifier(type)
        if let known = known.value(for: identity) { return known }
        let traits = DependencyTraits(asking: type)
        known.set(traits, for: identity)
        return traits
    }

    /// The wrapped type of `type` when it is an `Optional`.
    static func optionalWrapped(_ type: Any.Type) -> Any.Type? {
        of(type).optionalWrapped
    }

    /// Whether `type` may declare itself to the injector (``Injectable``,
    /// ``MainActorInjectable``, or a member injector): not an `Optional`, a `Lazy` or a
    /// `Factory`, which an error then does not suggest making conform.
    static func mayDeclareItself(_ type: Any.Type) -> Bool {
        of(type).wrapping == nil
    }

    /// Whether `type` is an `Optional`, a `Lazy` or a `Factory`: the types a request may be
    /// given a wrapper for when nothing binds them.
    static func isWrapper(_ type: Any.Type) -> Bool {
        of(type).wrapping != nil
    }

    /// Facts about types, which never change: shared by every injector, like the runtime's own
    /// conformance cache.
    private static let known = LockedDictionary<ObjectIdentifier, DependencyTraits>()
}
