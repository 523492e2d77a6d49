/// Keeps one value per top-level request; see ``Scope/perRequest``.
///
/// A request keeps the values it builds itself, each under the identity of its binding's slot:
/// the first class instance in its `Resolution` (`RequestObject`), any other in a
/// `RequestValues` made when it needs one, and, once the request publishes a frame for the
/// requests nested in it, in the frame. No dictionary, no hashing and no type looked up at run
/// time per request.
/// A template's child needs no provision of its own (`PerChildScope` leaves this scope as it is):
/// a request runs in one child, so its values are already that child's.
struct PerRequestScope: ScopeStrategy {
    var lifetime: ScopeLifetime { .request }

    func scope<Value>(_ unscoped: Provision<Value>) -> Provision<Value> {
        let slot = RequestSlot()
        // Decided once: a class instance is kept as its object and read back without a cast,
        // anything else (a class-bound existential with witness tables, too) is kept as `Any`.
        let isReference = Value.self is AnyObject.Type && MemoryLayout<Value>.size == MemoryLayout<AnyObject>.size
        let key = unscoped.key
        // The plan, not the provision: calling a generic provision would look its type up.
        let plan = unscoped.plan
        return Provision(unscoped.key) { resolution in
            let id = ObjectIdentifier(slot)
            if isReference, let kept = resolution.requestObject, kept.slot == id { return kept.value(as: Value.self) }
            if resolution.frameReference != nil || resolution.valuesReference != nil {
                let values = resolution.requestValues()
                let index = values.index(of: id)
                if index >= 0 {
                    return try values.value(at: index, as: Value.self, isReference: isReference) {
                        Prefetched.castFailure(key, as: Value.self)
                    }
                }
            }
            let built = try plan(&resolution)
            if isReference {
                if resolution.keepRequestObject(built, for: id) { return built }
                resolution.requestValues().append(reference: built, for: id)
            } else {
                resolution.requestValues().append(built, for: id)
            }
            return built
        }
    }
}

/// The identity of one per-request binding, under which a request keeps its value.
final class RequestSlot: Sendable {}
