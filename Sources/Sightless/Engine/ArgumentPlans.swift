// The argument plans of a typed initializer, linked once while the initializer's parameter pack
// is walked and run, in the same order, on every request. They are kept as an array of boxes
// rather than a tuple of the pack, which would need its tuple type at every request.

/// One argument's plan, boxed so plans of different types share an array.
@usableFromInline
class AnyPlanBox {
    /// `ObjectIdentifier(Value.self)` of the `PlanBox<Value>` this is.
    @usableFromInline let valueType: ObjectIdentifier
    /// The cell of the argument's kept instance, when a scope keeps it (`PlanBox.storage`).
    let instance: InstanceCell?

    init(valueType: ObjectIdentifier, instance: InstanceCell?) {
        self.valueType = valueType
        self.instance = instance
    }
}

/// One argument's plan as a request reads it: its box, and the cell of its kept instance, read
/// first and without touching the box.
@usableFromInline
struct PlanEntry {
    @usableFromInline let box: UnownedReference<AnyPlanBox>
    @usableFromInline let instance: InstanceCell?
}

@usableFromInline
final class PlanBox<Value>: AnyPlanBox {
    @usableFromInline let plan: Plan<Value>
    /// The dependency's instance storage, when its scope keeps one.
    @usableFromInline let storage: InstanceStorage?

    init(_ plan: @escaping Plan<Value>, storage: InstanceStorage?) {
        self.plan = plan
        let storage = storage?.valueType == ObjectIdentifier(Value.self) ? storage : nil
        self.storage = storage
        super.init(valueType: ObjectIdentifier(Value.self), instance: storage?.stored)
    }
}

/// The error of an argument plan that is not of its argument's type, made out of line so that
/// the inlined request path stays small.
@usableFromInline @inline(never)
func argumentPlanMismatch(_ type: Any.Type) -> InjectionError {
    InjectionError(.internalInconsistency(.argumentPlanType(expected: AnyKey.name(of: type))))
}

/// The linked plan of one argument of a fixed-arity initializer, captured by the initializer's
/// plan with its type known: no box, no cursor, no downcast.
@usableFromInline
struct ArgumentPlan<Value>: Sendable {
    @usableFromInline let plan: Plan<Value>
    /// The dependency's instance storage, when its scope keeps one and it holds a `Value`.
    @usableFromInline let storage: TypedStorage<Value>?

    @usableFromInline
    init(_ plan: @escaping Plan<Value>, storage: InstanceStorage?) {
        self.plan = plan
        self.storage = TypedStorage(storage)
    }

    /// A dynamic argument, read from the request's buffer by a plan made (and specialized)
    /// where the argument's type is known.
    @inlinable
    init(slot: DynamicSlot) {
        self.init({ resolution in try slot.read(&resolution, as: Value.self) }, storage: nil)
    }

    /// The argument's value: an existing instance of a storing scope, read in place, or a run of
    /// its plan.
    @inlinable @inline(__always)
    func value(_ resolution: inout Resolution) throws -> Value {
        if let value = storage?.existing { return value }
        return try plan(&resolution)
    }
}
