/// Tells a `Lazy` or a `Factory` from any other type by its metadata, without asking the runtime
/// for a conformance: a `Lazy<T>` type's first lookup would scan every conformance record of the
/// process three times (``Injectable``, ``MainActorInjectable``, then `DeferredDependency`),
/// once for each `Lazy` type an app's initializers take.
///
/// Neither type declares itself to the injector: each is always the wrapper that defers its
/// target. The layouts are learnt from known instances and checked against them; where they are
/// not as expected, every type is asked of the runtime, as before.
enum DeferredTypes {
    /// The `Lazy<T>` or `Factory<T, …>` type `type` is, with what makes its plan; `nil` for any
    /// other type.
    static func deferred(_ type: Any.Type) -> (any DeferredDependency.Type)? {
        guard let recognized else {
            // Asked of the runtime. A type that declares itself is asked that first, as the graph
            // compiler asks every type it builds just in time, so the runtime looks it up once.
            guard !isExistential(type), optionalWrappedType(type) == nil,
                  !(type is any Injectable.Type), !(type is any MainActorInjectable.Type) else { return nil }
            return type as? any DeferredDependency.Type
        }
        if let target = recognized.lazy.argument(of: type) {
            func lazy<Target>(of _: Target.Type) -> any DeferredDependency.Type { Lazy<Target>.self }
            return lazy(of: target)
        }
        // A `Factory`'s arguments are a parameter pack, which its metadata does not hold where a
        // plain argument is: its conformance is looked up, once the type is known to have one.
        guard nominalTypeIdentity(of: type) == recognized.factory else { return nil }
        return type as? any DeferredDependency.Type
    }

    /// Whether `type` is a `Lazy` or a `Factory`, when the metadata tells; `false` when it
    /// cannot (and the runtime is asked whether the type declares itself).
    static func isDeferred(_ type: Any.Type) -> Bool {
        guard let recognized, let identity = nominalTypeIdentity(of: type) else { return false }
        return identity == recognized.factory || identity == recognized.lazy.identity
    }

    /// How `Lazy` and `Factory` types are recognized, or `nil` where their metadata is not laid
    /// out as expected.
    private static let recognized: (lazy: GenericClassLayout, factory: UInt)? = {
        guard let lazy = GenericClassLayout(Lazy<Int>.self, argument: Int.self, Lazy<String>.self, argument: String.self),
              let factory = nominalTypeIdentity(of: Factory<Int>.self),
              nominalTypeIdentity(of: Factory<String, Int>.self) == factory else { return nil }
        return (lazy, factory)
    }()
}
