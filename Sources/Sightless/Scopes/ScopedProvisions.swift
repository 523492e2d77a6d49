/// The scoped provisions of a template's nodes for one child, by the identity of the node's
/// scope, and the storages among them that keep an instance, in the order they were made.
final class ScopedProvisions {
    private let lock = Lock()
    private var provisions: [ObjectIdentifier: AnyObject] = [:]
    private var kept: [InstanceStorage] = []

    func provision<Value>(for slot: ObjectIdentifier, make: () -> Provision<Value>) -> Provision<Value> {
        lock.withLock {
            if let box = provisions[slot] as? ProvisionBox<Value> { return box.provision }
            let made = make()
            provisions[slot] = ProvisionBox(made)
            if let storage = made.storage { kept.append(storage) }
            return made
        }
    }

    func storage(for slot: ObjectIdentifier, key: AnyKey) -> InstanceStorage {
        lock.withLock {
            if let storage = provisions[slot] as? InstanceStorage { return storage }
            let storage = InstanceStorage(key)
            provisions[slot] = storage
            kept.append(storage)
            return storage
        }
    }

    var storages: [InstanceStorage] { lock.withLock { kept } }
}

private final class ProvisionBox<Value> {
    let provision: Provision<Value>
    init(_ provision: Provision<Value>) { self.provision = provision }
}
