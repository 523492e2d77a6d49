/// The values of the per-request bindings one request built, each under the identity of its
/// binding's slot (`PerRequestScope`): made by the request the first time it builds one, and
/// released when the request ends. A few entries in the object itself, found by comparing
/// identities (a request builds few such values): no dictionary, no hashing.
///
/// Read through pointers: no check of exclusive access at run time, which a class's stored
/// `var`s pay on every access.
///
/// Invariant: entries `0..<header.count` are initialized, each once, by `append`, which writes
/// below `header.capacity` (the room `make` allocated) and puts any further entry in
/// `header.overflow`; `destroyEntries` is called once, by `deinit`. One request at a time uses
/// it, on one thread: the request that made it and the requests nested in it through its
/// frame. Under a slot, only the plan `PerRequestScope` made with that slot stores a value,
/// always of its own `Value`, and that plan decided once, when it was linked, whether `Value` is
/// a class (`isReference`): a class instance is kept as the object it is (`append(object:for:)`)
/// and read back as that `Value` without a cast (`unsafeBitCast` of a reference to a class type,
/// which a public rule makes sound: a class reference has one representation, whatever class its
/// static type names, and the object is an instance of `Value` or of a subclass of it); anything
/// else is kept as `Any` and cast.
@usableFromInline
final class RequestValues: ManagedBuffer<RequestValues.Header, RequestValues.Entry> {
    /// One value, and the slot it was built for: a class instance as its object, anything else
    /// as `Any` (and `object` `nil`).
    @usableFromInline
    struct Entry {
        let value: Any
        let object: AnyObject?
        let slot: ObjectIdentifier
    }

    /// What a `RequestValues` holds before its entries.
    @usableFromInline
    struct Header {
        let capacity: Int
        var count = 0
        /// The entries beyond `capacity`.
        var overflow: [Entry] = []
    }

    deinit { destroyEntries() }

    /// No values yet, with room for `capacity` of them in place: one allocation.
    static func make(capacity: Int = 4) -> RequestValues {
        let buffer = create(minimumCapacity: capacity) { _ in Header(capacity: capacity) }
        return unsafe unsafeDowncast(buffer, to: RequestValues.self)
    }

    /// The position of the value built for `slot`, or -1: untyped, so that no optional `Value`
    /// is made (unspecialized, its type would be looked up at run time).
    func index(of slot: ObjectIdentifier) -> Int {
        unsafe withUnsafeMutablePointers { header, entries in
            let count = unsafe header.pointee.count
            var index = 0
            while index < count {
                if unsafe entries[index].slot == slot { return index }
                index += 1
            }
            guard unsafe header.pointee.capacity == count else { return -1 }
            for (offset, entry) in unsafe header.pointee.overflow.enumerated() where entry.slot == slot {
                return count + offset
            }
            return -1
        }
    }

    /// Keeps `value`, which is not a class instance, as the one built for `slot`.
    func append<Value>(_ value: Value, for slot: ObjectIdentifier) {
        append(Entry(value: value, object: nil, slot: slot))
    }

    /// Keeps `object`, a class instance, as the one built for `slot`, whose plan reads it back
    /// as its `Value` with `isReference`.
    func append(object: AnyObject, for slot: ObjectIdentifier) {
        append(Entry(value: (), object: object, slot: slot))
    }

    /// Keeps a class instance built as a `Value` for `slot`, whose plan decided, when it was
    /// linked, that `Value` is a class (`isReference`).
    func append<Value>(reference value: Value, for slot: ObjectIdentifier) {
        append(object: unsafe unsafeBitCast(value, to: AnyObject.self), for: slot)
    }

    private func append(_ entry: Entry) {
        unsafe withUnsafeMutablePointers { header, entries in
            if unsafe header.pointee.count < header.pointee.capacity {
                unsafe (entries + header.pointee.count).initialize(to: entry)
                unsafe header.pointee.count += 1
            } else {
                unsafe header.pointee.overflow.append(entry)
            }
        }
    }

    /// The value at `index` (from `index(of:)`), as the `Value` it was built as: a class
    /// instance (`isReference`, decided once when the binding is linked, says `Value` is a class)
    /// is read back from the object kept, anything else is cast.
    func value<Value>(
        at index: Int, as type: Value.Type, isReference: Bool, otherwise failure: () -> InjectionError
    ) throws(InjectionError) -> Value {
        let entry = entry(at: index)
        if isReference, let object = entry.object {
            return unsafe unsafeBitCast(object, to: Value.self)
        }
        return try Prefetched.castByPattern(entry.value, as: Value.self, otherwise: failure)
    }

    /// The entry at `index`, in place or beyond.
    private func entry(at index: Int) -> Entry {
        unsafe withUnsafeMutablePointers { header, entries in
            unsafe index < header.pointee.count ? entries[index] : header.pointee.overflow[index - header.pointee.count]
        }
    }

    /// Destroys the entries; from `deinit`.
    private func destroyEntries() {
        unsafe withUnsafeMutablePointers { header, entries in
            _ = unsafe entries.deinitialize(count: header.pointee.count)
        }
    }
}

/// The first per-request value a request builds, when it is a class instance: kept in the
/// request's `Resolution` itself, so that a request that builds one such value allocates nothing
/// to keep it. Two words, trivially copied: the reference is retained once when it is kept and
/// released once by `release()`.
///
/// Invariant: made only by `keeping(_:for:)` from a `Value` that is a class reference, one word
/// (the plan `PerRequestScope` made for `slot`, which decided `Value.self is AnyObject.Type`, and
/// its size a reference's, when it was linked), so a reader that found the same `slot` reads it back as that `Value`; its owner (the
/// `Resolution`) calls `release()` exactly once, when the request ends or hands the value to its
/// frame (`object`, retained for the frame's own keeping).
@usableFromInline
@safe struct RequestObject {
    @usableFromInline let slot: ObjectIdentifier
    @usableFromInline let unmanaged: Unmanaged<AnyObject>

    /// Keeps `value`, a class instance, as the one built for `slot`.
    @inlinable @inline(__always)
    static func keeping<Value>(_ value: Value, for slot: ObjectIdentifier) -> RequestObject {
        unsafe RequestObject(slot: slot, unmanaged: .passRetained(unsafeBitCast(value, to: AnyObject.self)))
    }

    @inlinable @inline(__always)
    init(slot: ObjectIdentifier, unmanaged: Unmanaged<AnyObject>) {
        self.slot = slot
        unsafe self.unmanaged = unmanaged
    }

    /// The value, as the `Value` the plan of its slot built.
    @inlinable @inline(__always)
    func value<Value>(as type: Value.Type) -> Value {
        unsafe unsafeBitCast(unmanaged.takeUnretainedValue(), to: Value.self)
    }

    /// The instance, retained by the caller.
    var object: AnyObject { unsafe unmanaged.takeUnretainedValue() }

    /// Ends the keeping `keeping(_:for:)` began.
    func release() { unsafe unmanaged.release() }
}
