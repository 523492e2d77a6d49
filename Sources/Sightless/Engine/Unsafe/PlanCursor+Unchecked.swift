extension PlanCursor {
    /// The next argument plan as the box of its type.
    ///
    /// Invariant: `FrozenPlans` was built by `linkArguments(as:)` walking the same parameter
    /// pack, in the same order, that the cursor walks, so the box at each position is a
    /// `PlanBox` of that position's type; `linkArguments` checks, once, that the boxes it froze
    /// have the pack's types in order (`FrozenPlans.matches`), so there are exactly as many
    /// boxes as the cursor reads.
    @inlinable @inline(__always)
    static func withBox<Value, Result>(
        _ reference: UnownedReference<AnyPlanBox>, as type: Value.Type,
        _ body: (PlanBox<Value>) throws -> Result
    ) throws -> Result {
        unsafe try reference.unmanaged.borrowing { box in unsafe try body(unsafeDowncast(box, to: PlanBox<Value>.self)) }
    }
}

/// Invariant: `AnyPlanBox` and its subclass hold only immutable `let`s of `Sendable` types.
extension AnyPlanBox: @unchecked Sendable {}
extension PlanBox: @unchecked Sendable {}

/// Invariant: the boxes are immutable once frozen and `base` points into memory owned by this
/// object, written in `init` and freed in `deinit`.
extension FrozenPlans: @unchecked Sendable {}
