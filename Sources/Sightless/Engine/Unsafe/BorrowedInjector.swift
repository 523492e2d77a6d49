/// The injector of a request, held without reference counting.
///
/// Invariant: a `Resolution` lives only inside a call on its injector (`getInstance`, a handle,
/// a `Lazy` or `Factory` whose injector is alive for the call), which holds the injector; a
/// `Keeper` lives only inside the build of a value its injector keeps, which a call on that
/// injector runs. So the injector is alive whenever `injector` is read.
@safe @usableFromInline
struct BorrowedInjector {
    @usableFromInline unowned(unsafe) let reference: Injector

    @inlinable @inline(__always)
    init(_ injector: Injector) { unsafe self.reference = injector }

    /// The injector, retained by the caller from here on.
    @inlinable @inline(__always)
    var injector: Injector { unsafe reference }

    /// Runs `body` with the injector, retaining nothing (the request's caller keeps it alive).
    @inlinable @inline(__always)
    func reading<Result>(_ body: (Injector) -> Result) -> Result {
        unsafe Unmanaged.passUnretained(reference).borrowing(body)
    }
}
