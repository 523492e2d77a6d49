extension Resolution {
    /// Runs `body` on the main actor, with this resolution, at once: the main-actor region of a
    /// main-actor initializer's plan (`onMainActor`), entered once the request was found there.
    /// `MainActor.assumeIsolated` checks that it is, as the runtime tells it, and stops the
    /// process if not.
    ///
    /// Invariant: `MainActor.assumeIsolated` runs its closure synchronously, on the calling
    /// thread, and returns only after it; the closure does not escape. The resolution is used
    /// by that closure alone, in its caller's place and while its caller waits, exactly as an
    /// `inout` argument would be: the pointer is not kept past the call. Swift's region checking
    /// does not let a main-actor closure take a nonisolated `inout` value, since it cannot see
    /// that the closure runs in the caller's place; the pointer says so instead.
    @safe @inlinable @inline(__always)
    mutating func runOnMainActor<Result>(_ body: @MainActor (inout Resolution) throws -> Result) throws -> Result {
        try unsafe withUnsafeMutablePointer(to: &self) { pointer in
            let lent = unsafe Transfer(pointer)
            return try mainActorRegion { unsafe Transfer(try body(&lent.value.pointee)) }.value
        }
    }
}
