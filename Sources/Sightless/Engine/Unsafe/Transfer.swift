/// A value handed from the task that built it to the one that awaits it: an awaited
/// dependency's value, built in a child task, to the consumer's; a singleton's, built in its own
/// task, to the requests waiting for it.
///
/// Invariant: the task that built the value keeps no reference to it once it hands the box
/// over, so the value is used by one task at a time, as if it had been built there (a
/// singleton's value is then shared like every singleton; see the Concurrency article).
/// A kept value boxed for its binding's awaiting closer (`ValueCloser`) when it is stored is
/// opened only by the shutdown, once its storage was retired and no request reads it again:
/// the closer is then the injector's one user of it, as an ``AsyncClosable`` value's
/// `close()` is.
@usableFromInline
struct Transfer<Value>: @unchecked Sendable {
    @usableFromInline let value: Value
    @unsafe @inlinable init(_ value: Value) { self.value = value }
}

extension AsyncBuild {
    /// The arguments a plan gathered, as the step sends them on to the initializer, closure or
    /// provider it awaits (`AsyncBuild.arguments(_:as:)`).
    ///
    /// Invariant: a plan gathers the arguments of each build anew, into the `AsyncBuild` it
    /// returns; the caller awaits that build's step once and keeps nothing else of it, so once
    /// the step has read them, nothing but what it sends them to uses them.
    @inlinable @inline(__always)
    static func sent<Arguments>(_ arguments: Arguments) -> sending Arguments {
        nonisolated(unsafe) let arguments = arguments
        return unsafe arguments
    }
}
