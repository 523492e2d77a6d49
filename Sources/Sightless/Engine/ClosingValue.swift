/// A value a shutdown closes: kept under `key`, stored `creation`-th in its family, closed by
/// its binding's `closer` when it has one, else by its own `close()`.
struct ClosingValue {
    let key: AnyKey
    /// The value, when it is an object: closed once, however many storages keep it.
    let object: AnyObject?
    let closer: BoundCloser.Close?
    let creation: Int

    /// `values` with each object once, in their order: a binding's closer wins over the
    /// object's own `close()` (a singleton alias of a value closed by its binding keeps the
    /// object too, without the closer).
    static func once(_ values: [ClosingValue]) -> [ClosingValue] {
        var byBinding: Set<ObjectIdentifier> = []
        for value in values where value.closer != nil {
            if let object = value.object { byBinding.insert(ObjectIdentifier(object)) }
        }
        var seen: Set<ObjectIdentifier> = []
        return values.filter { value in
            guard let object = value.object else { return true }
            let identity = ObjectIdentifier(object)
            if value.closer == nil, byBinding.contains(identity) { return false }
            return seen.insert(identity).inserted
        }
    }

    /// Closes the value without awaiting: by its closer unless that one awaits, else by its
    /// `close()` if it is ``Closable``.
    func closeSynchronously() throws {
        switch closer {
        case .synchronous(let close): try close()
        case .awaited: break
        case nil: try (object as? any Closable)?.close()
        }
    }
}
