/// The scope of a node a ``ChildTemplate`` compiles: the node is compiled once for all the
/// template's children, so the scope it was declared in (a singleton, say) wraps its unscoped
/// provision anew for each child, on first use, and each child keeps its own values.
struct PerChildScope: ScopeStrategy {
    /// The scope the binding declared.
    let declared: Scope
    /// The template's graph: the child running a node is the nearest injector made from it.
    let owner: CompilationOwner

    var sharesValues: Bool { declared.strategy.sharesValues }
    var lifetime: ScopeLifetime { declared.strategy.lifetime }
    var isEager: Bool { declared.strategy.isEager }
    var awaitedScoping: AwaitedScoping { declared.strategy.awaitedScoping }

    func scope<Value>(_ unscoped: Provision<Value>) -> Provision<Value> {
        let slot = ScopeSlot()
        let declared = declared, owner = owner
        return Provision(unscoped.key) { resolution in
            let child = try resolution.injector.templateChild(of: owner, building: unscoped.key)
            let provision = child.provision(for: ObjectIdentifier(slot)) { declared.scope(unscoped) }
            return try provision.get(&resolution)
        }
    }

    /// Wraps `scope` for the nodes of a template: a scope that keeps nothing is left as it is.
    static func wrapping(_ scope: Scope, owner: CompilationOwner) -> Scope {
        guard scope.strategy.lifetime > .none || scope.strategy.isEager else { return scope }
        return Scope(scope.name, PerChildScope(declared: scope, owner: owner))
    }
}

/// The identity of one scoped node of a template, under which each child keeps its provision.
final class ScopeSlot: Sendable {}
