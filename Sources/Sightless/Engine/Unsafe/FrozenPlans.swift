/// The linked argument plans of an initializer, in one allocation that `PlanCursor` reads
/// without reference counting or bounds checks.
///
/// Invariant: `base` holds `count` entries, one for each of `boxes` (its reference, and the cell
/// of its kept instance when a scope keeps it), written in `init` and freed in `deinit`;
/// `boxes` keeps every box they point to, and so every storage whose cell they hold, alive as
/// long as the entries can be read.
@usableFromInline
@safe final class FrozenPlans {
    let boxes: [AnyPlanBox]
    @usableFromInline let count: Int
    @usableFromInline let base: UnsafeMutablePointer<PlanEntry>

    init(_ boxes: [AnyPlanBox]) {
        self.boxes = boxes
        count = boxes.count
        unsafe base = .allocate(capacity: max(boxes.count, 1))
        for (index, box) in boxes.enumerated() {
            unsafe (base + index).initialize(to: PlanEntry(box: UnownedReference(box), instance: box.instance))
        }
    }

    deinit {
        unsafe base.deinitialize(count: boxes.count)
        unsafe base.deallocate()
    }

    /// Whether the boxes are plans of these types, in this order.
    func matches(_ types: [ObjectIdentifier]) -> Bool {
        boxes.count == types.count && zip(boxes, types).allSatisfy { box, type in box.valueType == type }
    }
}

/// Invariant: the boxes are immutable once frozen and `base` points into memory owned by this
/// object, written in `init` and freed in `deinit`.
extension FrozenPlans: @unchecked Sendable {}

/// Invariant: `AnyPlanBox` and its subclass hold only immutable `let`s of `Sendable` types.
extension AnyPlanBox: @unchecked Sendable {}
extension PlanBox: @unchecked Sendable {}
