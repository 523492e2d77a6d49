import Synchronization

/// The dynamic arguments a request must bring: their types, in order, and where each one
/// lies in the buffer a request fills. Requests place arguments of the exact slot type with a
/// comparison of type identities, and anything else (a `String` for a `String?` slot, a
/// subclass, a protocol's conformer) with one checked conversion.
@usableFromInline
final class DynamicSignature: Sendable {
    struct Slot: Sendable {
        let role: DependencyRole
        /// The slot's type as a key with no name.
        let key: AnyKey
        let location: SourceLocation
        let type: Any.Type
        let offset: Int
        /// Stores a value of another type converted to the slot's, and destroys the argument.
        let storage: ArgumentSlotStorage

        var described: InjectionError.Problem.Slot { .init(role: role, key: key) }
    }

    let slots: [Slot]
    @usableFromInline let byteCount: Int
    @usableFromInline let alignment: Int
    /// Identifies the layout: the plans that read these arguments compare it with the token
    /// of the buffer they are handed.
    let token: SignatureToken
    /// `ObjectIdentifier(token)`, what an `ArgumentBuffer` carries.
    @usableFromInline let tokenIdentity: ObjectIdentifier
    /// The identity of each slot's type, in order: a request whose arguments are of exactly
    /// these types places them without a conversion (see `Injector.requestPlacing`).
    @usableFromInline let types: [ObjectIdentifier]
    /// Where each slot lies in the buffer, in order.
    @usableFromInline let offsets: [Int]
    /// `ObjectIdentifier` of the one tuple type whose elements are exactly the slots' types, in
    /// order, as bits; 0 until a request brought its arguments as that tuple (see
    /// `places(_:matching:)`, in ArgumentPlacement.swift). Only that type can match, so whichever
    /// thread stores it stores the same word.
    @usableFromInline let placedTuple = Atomic<UInt>(0)

    init(slots: [Slot], byteCount: Int, alignment: Int, token: SignatureToken) {
        self.slots = slots
        self.byteCount = byteCount
        self.alignment = alignment
        self.token = token
        self.tokenIdentity = ObjectIdentifier(token)
        self.types = slots.map { ObjectIdentifier($0.type) }
        self.offsets = slots.map(\.offset)
    }

    var described: [InjectionError.Problem.Slot] { slots.map(\.described) }

    /// Lays out the dynamic arguments of one node while it links.
    struct Builder {
        private var slots: [Slot] = []
        private var byteCount = 0
        private var alignment = 1
        private let token = SignatureToken()

        /// Adds a slot and returns the plan that reads it from a request's buffer.
        mutating func plan<Value>(
            role: DependencyRole, key: AnyKey, location: SourceLocation, owner: AnyKey, as type: Value.Type
        ) -> Plan<Value> {
            let slot = slot(role: role, key: key, location: location, owner: owner, as: Value.self)
            return { resolution in try slot.read(&resolution, as: Value.self) }
        }

        /// Adds a slot and returns where it lies, for a plan that reads it itself.
        mutating func slot<Value>(
            role: DependencyRole, key: AnyKey, location: SourceLocation, owner: AnyKey, as type: Value.Type
        ) -> DynamicSlot {
            let layout = MemoryLayout<Value>.self
            let offset = (byteCount + layout.alignment - 1) / layout.alignment * layout.alignment
            byteCount = offset + layout.size
            alignment = max(alignment, layout.alignment)
            slots.append(Slot(
                role: role, key: key, location: location, type: Value.self, offset: offset,
                storage: ArgumentSlotStorage(Value.self)))
            return DynamicSlot(offset: offset, token: ObjectIdentifier(token), owner: owner)
        }

        func build() -> DynamicSignature? {
            slots.isEmpty ? nil : DynamicSignature(slots: slots, byteCount: byteCount, alignment: alignment, token: token)
        }
    }
}

/// Where one dynamic argument lies in the buffers laid out by one signature.
@usableFromInline
struct DynamicSlot: Sendable {
    @usableFromInline let offset: Int
    /// The identity of the signature's token (kept alive by the signature, which the node keeps).
    @usableFromInline let token: ObjectIdentifier
    /// The key of the node whose signature this is, for the error of a wrong buffer.
    @usableFromInline let owner: AnyKey

    init(offset: Int, token: ObjectIdentifier, owner: AnyKey) {
        self.offset = offset
        self.token = token
        self.owner = owner
    }

    /// The argument, read from the request's buffer.
    @inlinable @inline(__always)
    func read<Value>(_ resolution: inout Resolution, as type: Value.Type) throws -> Value {
        // The one comparison that makes the unchecked read safe: the buffer was laid out by
        // this very signature.
        guard let arguments = resolution.arguments, arguments.token == token else { throw layoutError() }
        return arguments.read(at: offset, as: Value.self)
    }

    @usableFromInline @inline(never)
    func layoutError() -> InjectionError {
        InjectionError(.internalInconsistency(.argumentLayout(key: owner)), path: [owner])
    }
}

/// The identity of one argument layout, kept alive by the signature and by every plan that
/// reads it, so that it cannot be reused by another layout while either exists.
final class SignatureToken: Sendable {}

/// The number of values in a parameter pack, counted from their types (no value is copied).
func packCount<each Value>(_ values: repeat each Value) -> Int {
    var count = 0
    func one<Item>(_ type: Item.Type) { count += 1 }
    repeat one((each Value).self)
    return count
}

/// The types of a parameter pack, as keys with no name, for error messages.
func packTypes<each Value>(_ values: repeat each Value) -> [AnyKey] {
    var names: [AnyKey] = []
    func one<Item>(_ value: Item) { names.append(AnyKey(type: Item.self, name: nil)) }
    repeat one(each values)
    return names
}
