/// The values awaited for a section, in the order its plans read them; each plan of a
/// dependency that awaits in place takes the next one left for its key. Carried by the section's
/// `Resolution`, so that only the plans of that section see them.
///
/// One allocation: a header (`PrefetchedHeader`: how many values it has room for, how many are
/// awaited, the first not taken) and the entries after it, written as each value is awaited and
/// read by one section at a time: the section's plans run synchronously, and two sections of one
/// node (its arguments, then its properties) run one after the other, ordered by the await
/// between. Its storage is read and written in `Engine/Unsafe/Prefetched+Unchecked.swift`
/// (`make`, `append`, `take`).
@usableFromInline
final class Prefetched: ManagedBuffer<PrefetchedHeader, PrefetchedEntry> {
    typealias Entry = PrefetchedEntry

    deinit { destroyEntries() }

    /// Values already awaited, as a section's plans take them (for tests and tools).
    static func make(_ entries: [Entry]) -> Prefetched {
        let prefetched = make(capacity: entries.count)
        for entry in entries { prefetched.append(entry) }
        return prefetched
    }

    /// A value built for `key`, as the `Value` its node built.
    @inlinable
    static func cast<Value>(_ value: Any, _ key: AnyKey, as type: Value.Type) throws(InjectionError) -> Value {
        try cast(value, as: Value.self) { castFailure(key, as: Value.self) }
    }

    /// A value built for `key` was not the `Value` its node built.
    @usableFromInline @inline(never)
    static func castFailure<Value>(_ key: AnyKey, as type: Value.Type) -> InjectionError {
        InjectionError(.internalInconsistency(.nodeType(key: key, expected: "\(Value.self)")), path: [key])
    }

    /// The plan through which a consumer's argument reads a dependency that awaits in place
    /// (`AnyNode.awaitsInPlace`): in a section, the value awaited for `key`, cast where the
    /// consumer knows its type; anywhere else, or when none is left, the dependency's own
    /// `plan`, which takes the value first too, and otherwise builds or fails as it always does.
    ///
    /// The node's own plan is made where `Value` is a type parameter of the library's code, and
    /// there a cast of the untyped value goes through the runtime's value witnesses: about 100
    /// instructions more for each value a section reads (`async-graph` reads three).
    @inlinable
    static func takingPlan<Value>(_ key: AnyKey, otherwise plan: @escaping Plan<Value>) -> Plan<Value> {
        { resolution in
            if let prefetched = resolution.prefetchedReference,
               let value = prefetched.reading({ $0.take(key) }) {
                return try cast(value, key, as: Value.self)
            }
            return try plan(&resolution)
        }
    }

    /// An untyped value as the `Value` it is: opened and given its own type when it is exactly a
    /// `Value` (`holdsExactly(_:_:)`, `reinterpreted(_:as:)`), else cast by a pattern, which holds
    /// no optional `Value`: unspecialized, its type would be looked up at run time (see
    /// Performance.md, "The types a graph asks about").
    @inlinable @inline(__always)
    static func cast<Value>(
        _ value: Any, as type: Value.Type, otherwise failure: () -> InjectionError
    ) throws(InjectionError) -> Value {
        if holdsExactly(value, Value.self) { return reinterpreted(value, as: Value.self) }
        return try castByPattern(value, as: Value.self, otherwise: failure)
    }

    @usableFromInline
    static func castByPattern<Value>(
        _ value: Any, as type: Value.Type, otherwise failure: () -> InjectionError
    ) throws(InjectionError) -> Value {
        switch value {
        case let value as Value:
            return value
        default:
            throw failure()
        }
    }
}
