extension Unmanaged {
    /// Runs `body` with the object: the reference is read where it lies in memory, which
    /// borrows it, where `takeUnretainedValue()` would retain it and release it after `body`
    /// (some 40 instructions a read). The compiler keeps the borrow only while nothing in
    /// `body` may write memory; across an atomic operation it retains the object after all, so
    /// a body reads what it needs and leaves the atomic work to its caller where it can
    /// (`NodeTable.laterMemory`).
    ///
    /// Invariant: an `Unmanaged<Instance>` is the bits of one reference to the object (its one
    /// stored property is an `unowned(unsafe)` reference), so its memory holds what an
    /// `Instance` variable would, and is read as one only for the duration of `body`; whoever
    /// made the `Unmanaged` keeps the object alive by a strong reference of its own until `body`
    /// returns (see `UnownedReference`, `GraphNodes`, `BorrowedInjector`).
    @inlinable @inline(__always)
    func borrowing<Result>(_ body: (Instance) throws -> Result) rethrows -> Result {
        unsafe try withUnsafePointer(to: self) { unmanaged in
            unsafe try unmanaged.withMemoryRebound(to: Instance.self, capacity: 1) { object in unsafe try body(object.pointee) }
        }
    }
}
