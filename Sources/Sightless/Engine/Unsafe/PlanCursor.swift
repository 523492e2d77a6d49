/// Runs the argument plans of one request in order.
///
/// Invariant: it reads the `FrozenPlans` it was made from, which the plan running it keeps
/// alive, at positions below `count` only: the initializer's parameter pack has as many
/// arguments as the plans, in the same order (see `withBox`).
@usableFromInline
@safe struct PlanCursor {
    @usableFromInline let base: UnsafeMutablePointer<PlanEntry>
    @usableFromInline let count: Int
    @usableFromInline var index = 0

    @inlinable @inline(__always)
    init(_ plans: FrozenPlans) {
        unsafe base = plans.base
        count = plans.count
    }

    /// Runs the next plan; an existing instance of a storing scope is read here, specialized
    /// for its type.
    @inlinable @inline(__always)
    mutating func next<Value>(_ resolution: inout Resolution, as type: Value.Type) throws -> Value {
        let entry = unsafe base[index]
        index += 1
        // A kept argument is read from its cell, with the box neither retained nor borrowed.
        if let value = unsafe entry.instance?.existingVerified(as: Value.self) { return value }
        return try Self.withBox(entry.box, as: Value.self) { box in try box.plan(&resolution) }
    }
}

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
