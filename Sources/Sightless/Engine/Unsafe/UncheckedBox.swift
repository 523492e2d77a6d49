/// Holds a value bound with `to(uncheckedInstance:)`, which the injector hands out on any thread.
///
/// Invariant: the user who bound it promised, by choosing that method, that sharing the value is
/// safe; the injector itself never mutates it.
@usableFromInline
final class UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
