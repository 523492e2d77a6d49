import Synchronization

/// An injector's `InjectorLifecycle`, made on first use by whichever thread asks first and
/// published through an atomic word, so that a template's child that keeps nothing allocates
/// nothing for it (the standard library's `AtomicLazyReference` asks the runtime for its generic
/// type every time one is made).
///
/// Invariant: `address` holds 0 or the address of an `InjectorLifecycle` retained once, by the
/// thread whose compare-and-exchange stored it; that retain is released once, in `deinit`, when
/// nothing can read the word any more.
struct LazyLifecycle: ~Copyable {
    private let address = Atomic<UInt>(0)

    init() {}

    /// The lifecycle, made by `make` now if no thread made it before.
    func get(_ make: () -> InjectorLifecycle) -> InjectorLifecycle {
        if let existing { return existing }
        let made = make()
        let candidate = unsafe UInt(bitPattern: Unmanaged.passRetained(made).toOpaque())
        let (stored, original) = address.compareExchange(expected: 0, desired: candidate, ordering: .sequentiallyConsistent)
        if stored { return made }
        made.leaveParent()
        unsafe Self.object(at: candidate)?.release()
        return unsafe Self.object(at: original)?.takeUnretainedValue() ?? made
    }

    /// The lifecycle, if a thread made it.
    var existing: InjectorLifecycle? {
        unsafe Self.object(at: address.load(ordering: .acquiring))?.takeUnretainedValue()
    }

    /// The injector is released: its lifecycle leaves its parent's.
    deinit {
        guard let lifecycle = unsafe Self.object(at: address.load(ordering: .acquiring)) else { return }
        unsafe lifecycle.takeUnretainedValue().leaveParent()
        unsafe lifecycle.release()
    }

    private static func object(at address: UInt) -> Unmanaged<InjectorLifecycle>? {
        unsafe UnsafeRawPointer(bitPattern: address).map { unsafe Unmanaged<InjectorLifecycle>.fromOpaque($0) }
    }
}
