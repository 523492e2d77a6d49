/// A type a module offers as an implementation of a protocol (CDI's auto-wiring, where Swift
/// cannot list the types that conform to a protocol): a protocol key that nothing binds, with
/// exactly one candidate, is bound to it.
///
/// The conversion from the implementation to the protocol is a closure the compiler checks
/// (`{ $0 }` compiles only when the type conforms), so no dynamic cast decides anything.
struct Candidate: Sendable {
    let interface: AnyKey
    let implementation: AnyKey
    let location: SourceLocation
    /// The binding of the interface to this implementation.
    let recipe: @Sendable () -> Recipe
}

extension Binder {
    /// Offers a type as an implementation of a protocol: when nothing binds the protocol's key
    /// and this is its only candidate, the key is bound to the type, as
    /// `bind(Interface.self).to(Implementation.self)` would bind it.
    ///
    /// ```swift
    /// binder.candidate(HttpApi.self, for: Api.self) { $0 }
    /// ```
    ///
    /// The closure converts an implementation to the protocol; `{ $0 }` compiles only when the
    /// type conforms, so the conformance is proved by the compiler. Two or more candidates of
    /// one protocol that nothing binds are an ``InjectionError/Kind/ambiguousBinding`` error
    /// listing each of them; an explicit binding or an override of the protocol always wins
    /// over its candidates.
    public func candidate<Implementation, Interface>(
        _ implementation: Implementation.Type, for interface: Interface.Type,
        fileID: String = #fileID, line: Int = #line,
        _ convert: @escaping @Sendable (Implementation) -> Interface
    ) {
        let location = SourceLocation(fileID: fileID, line: line)
        record(.candidate(Candidate(
            interface: Key<Interface>().erased, implementation: Key<Implementation>().erased, location: location,
            recipe: { .autoWired(Key<Interface>(), to: Key<Implementation>(), location: location, convert: convert) })))
    }
}

extension Recipe {
    /// The binding of a protocol to its only candidate: an alias whose values are converted by
    /// the compiler-checked closure instead of a cast.
    static func autoWired<Value, Target>(
        _ key: Key<Value>, to target: Key<Target>, location: SourceLocation,
        convert: @escaping @Sendable (Target) -> Value
    ) -> Recipe {
        let dependency = Dependency(role: .target, key: target.erased, isDynamic: false, location: location)
        return Recipe(key, source: .alias(target.erased), location: location, dependencies: [dependency]) { linker in
            let plan = try linker.plan(for: dependency, as: Target.self)
            return { resolution in convert(try plan(&resolution)) }
        }
    }
}
