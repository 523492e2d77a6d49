/// The position of each key in a graph being compiled: an open-addressing table probed from the
/// identity of the key's type, which hashes a key's name only when it has one. A `Dictionary`
/// of ``AnyKey`` hashes the type and the name with SipHash on every lookup, and discovery looks
/// up every dependency of every node.
///
/// At most half full, so that most keys are found at the first entry probed, and a key not
/// there is most often told by an empty first entry.
struct KeyIndex: Sendable {
    private struct Entry: Sendable {
        let key: AnyKey
        var value: Int
    }

    private var entries: [Entry?]
    private var mask: Int
    /// How many keys the index holds.
    private(set) var count = 0

    /// An index with room for `capacity` keys before it grows.
    init(capacity: Int = 8) {
        var size = 16
        while size < capacity * 2 { size *= 2 }
        entries = Self.empty(size)
        mask = size - 1
    }

    /// The value of `key`, or `nil` when the index does not hold it.
    subscript(key: AnyKey) -> Int? {
        guard let slot = slot(of: key) else { return nil }
        return entries[slot]?.value
    }

    /// Stores `value` for `key`, in place of the value it had.
    mutating func set(_ value: Int, for key: AnyKey) {
        if let slot = slot(of: key) {
            entries[slot]?.value = value
            return
        }
        if (count + 1) * 2 > entries.count { resize(to: entries.count * 2) }
        var slot = Self.start(of: key, mask: mask)
        while entries[slot] != nil { slot = (slot + 1) & mask }
        entries[slot] = Entry(key: key, value: value)
        count += 1
    }

    /// Makes room for `capacity` keys, so that an index of known size grows without rehashing.
    mutating func reserveCapacity(_ capacity: Int) {
        var size = entries.count
        while size < capacity * 2 { size *= 2 }
        if size > entries.count { resize(to: size) }
    }

    /// The slot that holds `key`, if any.
    private func slot(of key: AnyKey) -> Int? {
        let identity = ObjectIdentifier(key.type)
        var slot = Self.start(of: key, mask: mask)
        while let entry = entries[slot] {
            // The type first: an unnamed key, the common case, is matched without a name compared.
            if ObjectIdentifier(entry.key.type) == identity && entry.key.name == key.name { return slot }
            slot = (slot + 1) & mask
        }
        return nil
    }

    private mutating func resize(to size: Int) {
        let old = entries
        entries = Self.empty(size)
        mask = size - 1
        for case let entry? in old {
            var slot = Self.start(of: entry.key, mask: mask)
            while entries[slot] != nil { slot = (slot + 1) & mask }
            entries[slot] = entry
        }
    }

    /// `size` empty entries, each made in place: `Array(repeating:count:)` copies one through
    /// its value witness, a call per entry.
    private static func empty(_ size: Int) -> [Entry?] {
        var entries: [Entry?] = []
        entries.reserveCapacity(size)
        for _ in 0..<size { entries.append(nil) }
        return entries
    }

    /// The first slot probed for `key`. Type identities are aligned addresses: Fibonacci
    /// hashing mixes the high bits down. Only a named key (many may share a type) pays for
    /// hashing its name, as `String` hashes it, so that equal names hash alike.
    private static func start(of key: AnyKey, mask: Int) -> Int {
        var mixed = UInt(bitPattern: ObjectIdentifier(key.type))
        if let name = key.name { mixed ^= UInt(bitPattern: name.hashValue) }
        return Int(truncatingIfNeeded: (mixed &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }
}
