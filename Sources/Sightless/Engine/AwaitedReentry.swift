/// The keys being built with `await` in this task and the tasks it started: asking for one of
/// them again, from inside its own build, would otherwise await itself for ever; and nesting
/// more than `deepest` of them ends in `tooDeep`, since an awaited build nests on no thread's
/// stack and a build that asks for a new type at every level would otherwise grow until memory
/// runs out.
enum AwaitedReentry {
    /// One key being built, and the builds it runs inside: each level adds one link, and
    /// shares the rest. A level's link is released when that level ends, its outer links still
    /// held by the levels outside it, so no release runs down the chain.
    final class Link: Sendable {
        /// The key being built, or `nil` for an awaited request that counts one level and
        /// builds nothing itself yet (see `request(_:)`).
        let key: AnyKey?
        let outer: Link?
        /// How many links there are, this one included.
        let depth: Int

        init(_ key: AnyKey?, outer: Link?) {
            self.key = key
            self.outer = outer
            self.depth = (outer?.depth ?? 0) + 1
        }

        /// `true` when `key` is this link's or an outer one's.
        func contains(_ key: AnyKey) -> Bool {
            var link: Link? = self
            while let current = link {
                if current.key == key { return true }
                link = current.outer
            }
            return false
        }
    }

    /// The link of an outermost awaited request: one level, no key.
    private static let outermost = Link(nil, outer: nil)

    /// The most awaited builds one request may nest: far more than a graph declares, few enough
    /// that a runaway recursion stops in well under a second.
    static let deepest = 10_000

    // Every function here runs where its caller runs (`nonisolated(nonsending)`), and so does
    // the binding of a link: `withValue` is handed the caller's isolation (`#isolation`), so that
    // it neither leaves for the generic executor nor comes back.
    @TaskLocal static var active: Link?

    /// The storage whose awaited build this task runs, innermost, if any
    /// (`InstanceStorage.awaitInstance`): the chain tells the keys this task builds, this the one
    /// build other tasks may be waiting for, for the wait-for circle across tasks.
    @TaskLocal static var building: InstanceStorage?

    /// Runs the build of `key`, which must not be running already when re-entering it is a
    /// cycle (`Meaning.Reentry`); a recursion through creation-time arguments is bounded by
    /// `deepest` alone.
    nonisolated(nonsending)
    static func enter<Value>(_ key: AnyKey, _ reentry: Meaning.Reentry, _ body: () async throws -> Value) async throws -> Value {
        let active = active
        if reentry == .cycle { try check(key, through: .request) }
        let depth = (active?.depth ?? 0) + 1
        guard depth <= deepest else {
            throw InjectionError(.tooDeep(depth: depth, stackSize: nil), path: [key])
        }
        return try await bound(Link(key, outer: active), body)
    }

    /// Runs an awaited request that builds, its plan awaited off the caller's isolation
    /// (`Injector.awaitPlan`): one level more of the task's chain. A build handed
    /// no way back into the injector is not recorded (`Recipe.node`), yet it can still reach
    /// the injector out of band, through a global; each such request nests one level deeper
    /// and ends in `tooDeep`, as a synchronous one ends on its thread's stack. Inlined where the
    /// request is made: no async frame of its own.
    @inline(__always) nonisolated(nonsending)
    static func request<Value>(_ key: AnyKey, _ plan: AsyncPlan<Value>, _ request: AsyncRequest) async throws -> Value {
        let active = active
        let depth = (active?.depth ?? 0) + 1
        guard depth <= deepest else {
            throw InjectionError(.tooDeep(depth: depth, stackSize: nil), path: [key])
        }
        // The outermost request's link is the same every time: no allocation for it.
        let link = if let active { Link(nil, outer: active) } else { outermost }
        return try await bound(link) { try await request.injector.awaitPlan(plan, request) }
    }

    /// Runs `body` with `link` as the task's innermost link, where the caller runs.
    @inline(__always) nonisolated(nonsending)
    private static func bound<Value>(_ link: Link, _ body: () async throws -> Value) async throws -> Value {
        try await $active.withValue(link, operation: body, isolation: #isolation)
    }

    /// Throws when `key` is being built in this task or one that started it.
    static func check(_ key: AnyKey, through reentry: InjectionError.Problem.Reentry) throws {
        if let active, active.contains(key) {
            throw InjectionError(.reentered(key: key, through: reentry), path: [key])
        }
    }
}
