/// Shares a value while someone holds it; see ``Scope/weak``.
struct WeakScope: ScopeStrategy {
    var lifetime: ScopeLifetime { .weak }

    func scope<Value>(_ unscoped: Provision<Value>) -> Provision<Value> {
        let held = WeakReference()
        return Provision(unscoped.key) { resolution in
            if let existing = held.object as? Value { return existing }
            let built = try unscoped.get(&resolution)
            // Two threads may both find nothing and build: the first one stored wins, so that
            // every consumer shares one instance.
            return held.keep(built as AnyObject) as? Value ?? built
        }
    }
}

/// A weak reference two threads may read and write.
final class WeakReference: Sendable {
    /// The object, held weakly.
    private struct Held {
        weak var object: AnyObject?
    }

    private let held = Locked(Held())

    var object: AnyObject? { held.withLock { $0.object } }

    /// Stores `object` unless another one is alive; returns the one kept.
    func keep(_ object: AnyObject) -> AnyObject {
        held.withLock { held in
            if let existing = held.object { return existing }
            held.object = object
            return object
        }
    }
}
