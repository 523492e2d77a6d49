/// Guards a closure or provider binding: the one kind of binding whose dependencies the graph
/// cannot see, and so a place a dependency cycle can appear at run time.
final class ReentryGuard: Sendable {
    func enter<Value>(
        _ resolution: inout Resolution, key: AnyKey, rethrow: @Sendable (any Error) -> InjectionError,
        _ body: (Injector) throws -> Value
    ) throws -> Value {
        let frame = resolution.frame ?? resolution.publishFrame()
        let id = ObjectIdentifier(self)
        if frame.active.contains(id) {
            throw rethrow(InjectionError(.reentered(key: key, through: .closure)))
        }
        frame.active.append(id)
        defer { frame.active.removeLast() }
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
