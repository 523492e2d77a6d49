/// Guards a closure or provider binding: the one kind of binding whose dependencies the graph
/// cannot see, and so a place a dependency cycle can appear at run time. What entering it again
/// means is the graph's decision (`Meaning.Reentry`): a closure that takes creation-time
/// arguments may ask for its own key with others, a recursion bounded by the stack guard and
/// `tooDeep`, like a `Factory`'s; any other is a cycle.
final class ReentryGuard: Sendable {
    private let reentry: Meaning.Reentry

    init(_ reentry: Meaning.Reentry = .cycle) {
        self.reentry = reentry
    }

    func enter<Value>(
        _ resolution: inout Resolution, key: AnyKey, rethrow: @Sendable (any Error) -> InjectionError,
        _ body: (Injector) throws -> Value
    ) throws -> Value {
        let frame = resolution.frame ?? resolution.publishFrame()
        guard reentry == .cycle else { return try run(&resolution, frame: frame, rethrow: rethrow, body) }
        let id = ObjectIdentifier(self)
        if frame.active.contains(id) {
            throw rethrow(InjectionError(.reentered(key: key, through: .closure)))
        }
        frame.active.append(id)
        defer { frame.active.removeLast() }
        return try run(&resolution, frame: frame, rethrow: rethrow, body)
    }

    /// Runs the closure one level deeper, with the requests it makes continuing this one.
    private func run<Value>(
        _ resolution: inout Resolution, frame: RequestFrame, rethrow: @Sendable (any Error) -> InjectionError,
        _ body: (Injector) throws -> Value
    ) throws -> Value {
        do {
            try resolution.enterLevel()
            defer { resolution.leaveLevel() }
            // Requests the closure makes continue from here.
            let enclosing = (frame.nesting, frame.keeper)
            frame.nesting = resolution.nesting
            frame.keeper = resolution.keeper
            defer { (frame.nesting, frame.keeper) = enclosing }
            return try body(resolution.handedInjector)
        } catch {
            throw rethrow(error)
        }
    }
}
