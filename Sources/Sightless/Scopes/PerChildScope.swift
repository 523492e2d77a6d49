/// The scope of a node a ``ChildTemplate`` compiles: the node is compiled once for all the
/// template's children, so the scope it was declared in (a singleton, say) wraps its unscoped
/// provision anew for each child, on first use, and each child keeps its own values.
struct PerChildScope: ScopeStrategy {
    /// The scope the binding declared.
    let declared: Scope
    /// The template's graph: the child running a node is the nearest injector made from it.
    let owner: CompilationOwner
    /// How the binding closes each child's value, if it says (`onShutdown`).
    var closer: ValueCloser?

    var sharesValues: Bool { declared.strategy.sharesValues }
    var lifetime: ScopeLifetime { declared.strategy.lifetime }
    var isEager: Bool { declared.strategy.isEager }
    var awaitedScoping: AwaitedScoping { declared.strategy.awaitedScoping }

    func scope<Value>(_ unscoped: Provision<Value>) -> Provision<Value> {
        let slot = ScopeSlot(owner)
        let declared = declared, owner = owner, closer = closer
        return Provision(unscoped.key) { resolution in
            let child = try resolution.injector.templateChild(of: owner, building: unscoped.key)
            let provision = child.provision(for: slot) {
                let made = declared.scope(unscoped)
                if let closer, let storage = made.storage { storage.closer = closer }
                return made
            }
            return try provision.get(&resolution)
        }
    }

    /// Wraps `scope` for the nodes of a template: a scope that keeps nothing is left as it is.
    /// A per-request scope is left as it is too: a request runs in one child, so the values it
    /// keeps are that child's already.
    static func wrapping(_ scope: Scope, owner: CompilationOwner, closer: ValueCloser? = nil) -> Scope {
        guard scope.strategy.lifetime > .none || scope.strategy.isEager, !(scope.strategy is PerRequestScope) else {
            return scope
        }
        return Scope(scope.name, PerChildScope(declared: scope, owner: owner, closer: closer))
    }
}
