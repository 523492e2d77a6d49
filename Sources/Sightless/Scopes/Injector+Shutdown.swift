extension Injector {
    /// Shuts the injector down: closes every ``Closable`` value its storing scopes kept, in the
    /// reverse order of their creation, after those of its live children, and refuses requests
    /// and children from then on, in the injector and in every injector below it.
    ///
    /// ```swift
    /// let injector = try Injector(modules: [ServerModule()])
    /// defer { try? injector.shutDown() }
    /// ```
    ///
    /// Each value is closed exactly once, however many threads shut the injector down at the
    /// same time: the first call closes them, later calls return at once. A value whose
    /// `close()` throws does not stop the others; every error is reported together, each as
    /// ``InjectionError/Kind/closeFailed``.
    ///
    /// The family below the injector is shut down with it, and first: the values of its live
    /// children (and theirs) are closed before its own, the newest child first (a plain child
    /// counts from when it was made, a template's child from when it first kept a value or made a
    /// child), since a child's values may use its parent's. A child shuts down only its own
    /// values and those of the injectors below it; its parent and its siblings go on. After
    /// shutdown, a request of the injector or of any injector below it throws
    /// ``InjectionError/Kind/injectorShutDown``, and so does making a child of one; so does a
    /// request that was building a kept value when its injector was shut down, and the value it
    /// built is closed. A value handed out before the shutdown stays with whoever holds it:
    /// stop using the injector's values (a server stops taking requests and lets those in
    /// flight end) before shutting it down, or let ``awaitShutDown(draining:)`` wait for the
    /// `withChild` bodies in flight.
    public func shutDown() throws(InjectionError) {
        guard let values = beginShutdown() else { return }
        var problems: [InjectionError.Problem] = []
        // One object may be kept twice (a singleton, and a singleton alias of it): closed once.
        for closing in ClosingValue.once(values) {
            do {
                try closing.closeSynchronously()
            } catch {
                problems.append(Self.closeFailed(closing, error))
            }
        }
        if let error = InjectionError(problems: problems) { throw error }
    }

    /// Marks the injector shut down and returns the values to close, the family's below it
    /// first (`InjectorLifecycle.close`); `nil` when it was shut down before, or when it is a
    /// template's child that kept nothing and made no child.
    func beginShutdown() -> [ClosingValue]? {
        guard !isShutDown.exchange(true, ordering: .sequentiallyConsistent) else { return nil }
        guard let lifecycle = provided.isTemplateChild ? scoped.existing : lifecycle(closingLate: false) else { return nil }
        if lifecycle.hasChildren { family.parentShutdowns.add(1, ordering: .sequentiallyConsistent) }
        return lifecycle.close()
    }

    /// The problem of a value whose `close()` threw.
    static func closeFailed(_ closing: ClosingValue, _ error: any Error) -> InjectionError.Problem {
        InjectionError.Problem(
            .closeFailed(key: closing.key, error: String(describing: error)), path: [closing.key], underlying: error)
    }
}
