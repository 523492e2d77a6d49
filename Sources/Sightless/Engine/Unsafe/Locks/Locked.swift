/// A value of `State` that several threads read and write, behind a pthread mutex the cell owns:
/// `withLock` is the only way to the state, so nothing reads it unlocked.
///
/// Why pthread and not `Synchronization.Mutex`: a pthread mutex is understood by every
/// sanitizer, so apps that run their tests under ThreadSanitizer see no false reports from
/// Sightless. The suite runs under ThreadSanitizer in CI (`.ci/run`): the tests that race
/// threads on a shared injector (`Tests/SightlessTests/Reliability/`) would report the state
/// guarded here as racing if the lock did not order its accesses. It is taken only off the hot
/// path: while a singleton is first built, and while a type is compiled on its first request.
///
/// Invariant: `state` is read and written only while `mutex` is held, in `withLock`. Two
/// accesses to it therefore never overlap: a `body` that asked for the lock again would wait for
/// itself rather than reach the state, so the runtime does not check each access for
/// exclusivity (`@exclusivity(unchecked)`), which would cost about 80 instructions apiece.
///
/// A class whose state is all behind one lock may be a subclass, so that it and its lock are one
/// allocation (`InjectorLifecycle`): the state stays private here, reached only by `withLock`, and
/// a subclass adds only constants of `Sendable` types and atomics, which is what its inherited
/// `Sendable` conformance relies on.
@safe class Locked<State>: @unchecked Sendable {
    private let mutex = PthreadMutex()
    @exclusivity(unchecked) private var state: State

    /// A cell holding `state`.
    init(_ state: State) {
        unsafe self.state = state
    }

    /// Runs `body` with the state, under the lock.
    final func withLock<Result, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try mutex.withLocked { () throws(Failure) -> Result in try unsafe body(&state) }
    }
}
