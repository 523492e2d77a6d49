/// Keeps one value per top-level request; see ``Scope/perRequest``.
struct PerRequestScope: ScopeStrategy {
    var lifetime: ScopeLifetime { .request }

    func scope<Value>(_ unscoped: Provision<Value>) -> Provision<Value> {
        let slot = RequestSlot()
        return Provision(unscoped.key) { resolution in
            // The frame lives as long as the outermost request on this thread.
            let frame = resolution.frame ?? resolution.publishFrame()
            let id = ObjectIdentifier(slot)
            if let existing = frame.requestValues[id] as? Value { return existing }
            let built = try unscoped.get(&resolution)
            frame.requestValues[id] = built
            return built
        }
    }
}

/// The identity of one per-request binding, under which a request keeps its value.
final class RequestSlot: Sendable {}
