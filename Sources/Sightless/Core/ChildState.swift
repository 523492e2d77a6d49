/// What one child made from a ``ChildTemplate`` has of its own: the values it was made with, and
/// what its scopes keep. The template's nodes are compiled once and shared by all its children;
/// whatever differs from child to child lives here, and the nodes find it through the injector
/// running them.
final class ChildState {
    /// The values the child was made with, in the template's order.
    let values: [AnyProvidedValue]
    /// The scoped provisions of the template's nodes, made for this child on first use, by the
    /// identity of the node's scope. Guarded by `lock`.
    private var provisions: [ObjectIdentifier: AnyObject] = [:]
    /// The storages of those provisions that keep an instance, in the order they were made, for
    /// `shutDown()`. Guarded by `lock`.
    private var storages: [InstanceStorage] = []
    private let lock = Lock()

    init(values: [AnyProvidedValue]) {
        self.values = values
    }

    /// This child's provision for the node whose scope has identity `slot`, made by `make` on
    /// first use.
    func provision<Value>(for slot: ObjectIdentifier, make: () -> Provision<Value>) -> Provision<Value> {
        lock.withLock {
            if let kept = provisions[slot] as? ProvisionBox<Value> { return kept.provision }
            let made = make()
            provisions[slot] = ProvisionBox(made)
            if let storage = made.storage { storages.append(storage) }
            return made
        }
    }

    /// The storages this child's scopes keep instances in.
    var keptStorages: [InstanceStorage] { lock.withLock { storages } }
}

/// One value a child was made with, of the type `valueType` identifies.
class AnyProvidedValue {
    /// `ObjectIdentifier(Value.self)` of the `ProvidedValue<Value>` this is.
    let valueType: ObjectIdentifier

    init(valueType: ObjectIdentifier) {
        self.valueType = valueType
    }
}

final class ProvidedValue<Value>: AnyProvidedValue {
    let value: Value

    init(_ value: Value) {
        self.value = value
        super.init(valueType: ObjectIdentifier(Value.self))
    }
}

private final class ProvisionBox<Value> {
    let provision: Provision<Value>
    init(_ provision: Provision<Value>) { self.provision = provision }
}

extension Injector {
    /// The value at `index` among those this injector's child of `owner` was made with: this
    /// injector's, or the nearest parent's made from that template.
    func providedValue<Value>(at index: Int, of owner: CompilationOwner, as type: Value.Type) throws(InjectionError) -> Value {
        var current = self
        while current.compilation.owner !== owner || current.childState == nil {
            guard let parent = current.parent else { throw providedValueMissing(Value.self) }
            current = parent
        }
        guard let state = current.childState, state.values.indices.contains(index),
              let value = state.values[index].typed(as: Value.self) else {
            throw providedValueMissing(Value.self)
        }
        return value
    }

    /// The child state of this injector's child of `owner`, if one made from that template runs.
    func childState(of owner: CompilationOwner) -> ChildState? {
        var current: Injector? = self
        while let injector = current {
            if injector.compilation.owner === owner, let state = injector.childState { return state }
            current = injector.parent
        }
        return nil
    }

    @inline(never)
    private func providedValueMissing(_ type: Any.Type) -> InjectionError {
        let key = AnyKey(type: type, name: nil)
        return InjectionError(.internalInconsistency(.providedValue(key: key)), path: [key])
    }
}
