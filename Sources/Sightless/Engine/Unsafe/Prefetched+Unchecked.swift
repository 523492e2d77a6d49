/// Invariant: the entries of its `prefetched` are read and written by one synchronous section at
/// a time; the sections of one node run one after the other, ordered by the await between them
/// (see `Prefetched`, a `ManagedBuffer`, which the standard library makes not `Sendable`).
extension AsyncSection: @unchecked Sendable {}

/// One awaited value and the key it was awaited for.
@usableFromInline
struct PrefetchedEntry {
    let key: AnyKey
    /// The value until it is taken, then `()`: the plan that took it owns it.
    var value: Any
    var isTaken = false

    init(_ key: AnyKey, _ value: Any) {
        self.key = key
        self.value = value
    }
}

/// What a `Prefetched` holds before its entries.
@usableFromInline
struct PrefetchedHeader {
    /// How many entries it has room for.
    let capacity: Int
    /// How many are awaited: entries `0..<count` are initialized.
    var count = 0
    /// The first entry not taken yet: the plans read the values in the order they were
    /// awaited, so the value a plan takes is nearly always this one.
    var first = 0
}

/// The storage of a `Prefetched`, read through pointers: no check of exclusive access at run
/// time, which a class's stored `var`s pay on every access (some 80 instructions each).
///
/// Invariant: entries `0..<header.count` are initialized, each once, by `append`, which never
/// writes beyond `header.capacity`, the room `make` allocated; `destroyEntries` is called once,
/// by `deinit`; one section at a time reads and writes them (see `Prefetched`).
extension Prefetched {
    /// Room for `capacity` values, none awaited yet: one allocation.
    static func make(capacity: Int) -> Prefetched {
        let buffer = create(minimumCapacity: max(capacity, 1)) { _ in PrefetchedHeader(capacity: capacity) }
        return unsafe unsafeDowncast(buffer, to: Prefetched.self)
    }

    /// Adds the value awaited next; one more than `capacity` is dropped.
    func append(_ entry: Entry) {
        unsafe withUnsafeMutablePointers { header, entries in
            guard unsafe header.pointee.count < header.pointee.capacity else { return }
            unsafe (entries + header.pointee.count).initialize(to: entry)
            unsafe header.pointee.count += 1
        }
    }

    /// Takes the next value awaited for `key`, if one is left; `cast(_:_:as:)` gives it its
    /// type. Untyped, so that no optional `Value` is held: unspecialized, its type would be
    /// looked up at run time.
    @usableFromInline
    func take(_ key: AnyKey) -> Any? {
        unsafe withUnsafeMutablePointers { header, entries in
            var index = unsafe header.pointee.first
            while unsafe index < header.pointee.count {
                if unsafe !entries[index].isTaken, unsafe entries[index].key == key {
                    unsafe entries[index].isTaken = true
                    if unsafe index == header.pointee.first {
                        unsafe header.pointee.first += 1
                        while unsafe header.pointee.first < header.pointee.count, unsafe entries[header.pointee.first].isTaken {
                            unsafe header.pointee.first += 1
                        }
                    }
                    // Moved out, not copied: the plan that takes it owns it, and a copy would be
                    // retained here and released once the plan has cast it.
                    return unsafe Self.moveValue(out: entries + index)
                }
                index += 1
            }
            return nil
        }
    }

    /// Destroys the entries awaited; from `deinit`.
    func destroyEntries() {
        unsafe withUnsafeMutablePointers { header, entries in
            _ = unsafe entries.deinitialize(count: header.pointee.count)
        }
    }

    /// Moves the value out of a taken entry, leaving `()` in its place (trivially destroyed).
    private static func moveValue(out entry: UnsafeMutablePointer<Entry>) -> Any {
        unsafe withUnsafeMutablePointer(to: &entry.pointee.value) { value in
            let taken = unsafe value.move()
            unsafe value.initialize(to: ())
            return taken
        }
    }
}

extension Prefetched {
    /// Whether `value` holds exactly a `Value`: its dynamic type, which Swift gives of any value
    /// (`type(of:)`), is `Value` itself, so that `reinterpreted(_:as:)` may give it that type
    /// without a cast. A cast of an `Any` to a type parameter asks the runtime to compare the
    /// types and look through every kind of type, some 700 instructions for each value an awaited
    /// section reads; a subclass instance, an existential `Value`'s concrete value, or anything
    /// else is cast.
    @inlinable @inline(__always)
    static func holdsExactly<Value>(_ value: Any, _ type: Value.Type) -> Bool {
        ObjectIdentifier(Swift.type(of: value)) == ObjectIdentifier(Value.self)
    }

    /// `opened`, whose type is `Value` itself, as a `Value`. Called with an `Any`, which Swift
    /// opens (SE-0352), so that `Opened` is the type of the value it holds.
    ///
    /// Invariant: `Opened` is `Value` (`holdsExactly(_:_:)` said so of the `Any` it was opened
    /// from): the cast reinterprets a value as its own type, which `unsafeBitCast` allows for any
    /// type of the same size, and no layout is read.
    @usableFromInline
    static func reinterpreted<Opened, Value>(_ opened: Opened, as type: Value.Type) -> Value {
        unsafe unsafeBitCast(opened, to: Value.self)
    }
}
