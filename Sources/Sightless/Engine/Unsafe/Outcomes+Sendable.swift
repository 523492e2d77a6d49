/// Invariant: `slots` is read and written only under `lock`.
extension Outcomes: @unchecked Sendable {}
