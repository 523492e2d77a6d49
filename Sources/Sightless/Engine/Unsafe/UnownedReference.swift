/// A reference that does not keep its object alive: reading it costs no retain or release.
///
/// Invariant: whoever makes one keeps the object alive by a strong reference of its own for as
/// long as the `UnownedReference` can be read. `NodeIndex` and `NodeTable` keep the nodes and
/// later indexes they point to in collections that live as long as the table; `FrozenPlans` keeps its
/// boxes; a `Resolution`'s injector is kept alive by the caller of the request, and its
/// `prefetchedReference` by the `AsyncSection` running it, for as long as the section's body runs;
/// a `Factory`'s node by the table of the injector it was made by, which `make` holds (or finds
/// released, and then reads nothing) before it reads the node.
@usableFromInline
@safe struct UnownedReference<Object: AnyObject> {
    @usableFromInline let unmanaged: Unmanaged<Object>

    @unsafe @inlinable @inline(__always)
    init(_ object: Object) {
        unsafe unmanaged = .passUnretained(object)
    }

    /// The object, retained by the caller from here on.
    @inlinable @inline(__always)
    var object: Object { unsafe unmanaged.takeUnretainedValue() }

    @inlinable @inline(__always)
    init(unmanaged: Unmanaged<Object>) {
        unsafe self.unmanaged = unmanaged
    }

    /// Runs `body` with the object, retaining nothing.
    @inlinable @inline(__always)
    func withObject<Result>(_ body: (Object) throws -> Result) rethrows -> Result {
        unsafe try unmanaged.borrowing(body)
    }

    /// Runs `body` with the object, retaining nothing; for a body that cannot throw.
    @inlinable @inline(__always)
    func reading<Result>(_ body: (Object) -> Result) -> Result {
        unsafe unmanaged.borrowing(body)
    }

    /// A reference that keeps its object alive until `release()`: for an owner that cannot hold
    /// a strong reference (a trivially destroyed struct).
    ///
    /// Invariant: exactly one `release()` follows, by the owner, after its last read.
    @unsafe @inlinable @inline(__always)
    static func retaining(_ object: Object) -> UnownedReference {
        unsafe UnownedReference(unmanaged: .passRetained(object))
    }

    /// Ends the life `retaining(_:)` gave the object.
    @unsafe func release() { unsafe unmanaged.release() }

    /// The object's address, to publish through an atomic or a thread's slot.
    var address: UnsafeMutableRawPointer { unsafe unmanaged.toOpaque() }

    /// The reference published at `address`.
    ///
    /// Invariant: `address` is the `address` of an `UnownedReference<Object>` whose object is
    /// still alive.
    @inlinable @inline(__always)
    static func at(_ address: UnsafeRawPointer) -> UnownedReference {
        unsafe UnownedReference(unmanaged: Unmanaged.fromOpaque(address))
    }
}

extension UnownedReference: @unchecked Sendable where Object: Sendable {}
