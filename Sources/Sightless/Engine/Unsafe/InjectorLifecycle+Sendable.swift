/// Invariant: `provisions`, `kept`, `children`, `registrations` and `closed` are read and
/// written only under `lock`, `slot` and `order` only under the parent's; `table` and `parent`
/// never change; `bodies` and `draining` are atomics.
extension InjectorLifecycle: @unchecked Sendable {}
