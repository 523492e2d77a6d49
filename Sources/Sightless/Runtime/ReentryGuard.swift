/// Guards a closure or provider binding: the one kind of binding whose dependencies the graph
/// cannot see, and so the one place a dependency cycle can appear at run time.
final class ReentryGuard: Sendable {
    func enter<Value>(
        _ resolution: inout Resolution, key: AnyKey, rethrow: @Sendable (any Error) -> InjectionError,
        _ body: (Resolver) throws -> Value
    ) throws -> Value {
        let id = ObjectIdentifier(self)
        if resolution.active.contains(id) {
            throw rethrow(InjectionError(
                .cyclicDependency, key: key,
                message: "\(key) needs itself while it is being built, through a closure or provider binding.",
                fix: "Remove the request that leads back to \(key), or resolve it later instead of while building."))
        }
        resolution.active.append(id)
        defer { resolution.active.removeLast() }
        do {
            try resolution.enterLevel(weight: StackGuard.closureWeight)
            defer { resolution.leaveLevel(weight: StackGuard.closureWeight) }
            return try body(Resolver(injector: resolution.injector, active: resolution.active, nesting: resolution.nesting))
        } catch {
            throw rethrow(error)
        }
    }
}
