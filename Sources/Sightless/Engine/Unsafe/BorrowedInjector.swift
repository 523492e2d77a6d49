/// The injector of a request, held without reference counting.
///
/// Invariant: a `Resolution` lives only inside a call on its injector (`getInstance`, a handle,
/// a `Lazy` or `Factory` whose injector is alive for the call), which holds the injector.
@usableFromInline
struct BorrowedInjector {
    @usableFromInline unowned(unsafe) let injector: Injector

    @inlinable @inline(__always)
    init(_ injector: Injector) { unsafe self.injector = injector }

    /// Runs `body` with the injector, retaining nothing (the request's caller keeps it alive).
    @inlinable @inline(__always)
    func reading<Result>(_ body: (Injector) -> Result) -> Result {
        unsafe Unmanaged.passUnretained(injector).borrowing(body)
    }
}
