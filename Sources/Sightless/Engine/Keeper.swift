import Synchronization

/// The identity of one compiled graph: an injector's, or a child template's, which all the
/// children made from the template share. A node built for a kept value finds the injector
/// that owns it by this identity.
@usableFromInline
final class CompilationOwner: Sendable {
    /// How many scoped nodes of a template's graph were given a `ScopeSlot`.
    private let scopeSlots = Atomic<Int>(0)

    init() {}

    /// The index of a scoped node of this template's graph, one more than the last one given.
    func nextScopeSlot() -> Int {
        scopeSlots.add(1, ordering: .relaxed).oldValue
    }
}

/// The injector that keeps the value being built, while a storing scope builds it.
///
/// A value kept beyond the request that built it (a singleton, a weak-scoped value) belongs to
/// the injector whose binding it comes from, even when a child asked for it first: a `Lazy`,
/// `Factory`, ``Resolver`` or `Injector` handed to it while it is built is that injector, never a
/// child's, or a parent's value would keep a child alive and use its bindings. And a value the
/// injector keeps for its whole life must not keep the injector alive in turn: a `Lazy` or
/// `Factory` given to it holds the injector weakly (`weakly`), where any other one holds it
/// strongly, so that nothing forms a cycle through the injector.
@usableFromInline
struct Keeper {
    /// The injector owning the value being built; alive for the request, since the requesting
    /// injector keeps its parents.
    let borrowed: BorrowedInjector
    /// `true` while the value being built is kept for the injector's whole life.
    let weakly: Bool

    var injector: Injector { borrowed.injector }

    init(_ injector: Injector, weakly: Bool) {
        self.borrowed = BorrowedInjector(injector)
        self.weakly = weakly
    }
}

extension Injector {
    /// This injector, or the nearest of its parents, whose graph is `owner`'s; this injector
    /// when none is (a plan always runs for an injector of its own graph's family).
    func owner(_ owner: CompilationOwner) -> Injector {
        var current = self
        while current.owner !== owner {
            guard let parent = current.parent else { return self }
            current = parent
        }
        return current
    }
}

/// The plan of a value a scope keeps beyond one request: it runs `plan` with the owning
/// injector as the request's keeper (see `Keeper`), held `weakly` when the value lives as long
/// as the injector.
func keptPlan<Value>(_ plan: @escaping Plan<Value>, owner: CompilationOwner, weakly: Bool) -> Plan<Value> {
    { resolution in
        let enclosing = resolution.keeper
        resolution.keeper = Keeper(resolution.injector.owner(owner), weakly: weakly)
        defer { resolution.keeper = enclosing }
        return try plan(&resolution)
    }
}
