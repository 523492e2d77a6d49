import Synchronization

/// What a root injector and every injector made from it share: whether one of them with
/// children was shut down, and the drain of the family's `withChild` bodies.
///
/// The build state of the instances they keep is not the family's: a storage may be shared by
/// several families (a custom scope that keeps one for the process), so the one
/// `BuildCoordinator` of the process guards it.
@usableFromInline
final class InjectorFamily: Sendable {
    /// How many injectors of the family that made a child or a template have been shut down:
    /// while none has, a request of a child need not ask its parents whether one was.
    @usableFromInline let parentShutdowns = Atomic<Int>(0)
    /// The family's draining shutdowns, and the tasks waiting for its `withChild` bodies.
    let drain = Drain()

    init() {}
}
