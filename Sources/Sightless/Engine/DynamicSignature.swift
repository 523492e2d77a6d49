import Synchronization

/// The dynamic arguments a request must bring: their types, in order, and where each one
/// lies in the buffer a request fills. Requests place arguments of the exact slot type with a
/// comparison of type identities, and anything else (a `String` for a `String?` slot, a
/// subclass, a protocol's conformer) with one checked conversion.
@usableFromInline
final class DynamicSignature: Sendable {
    @safe struct Slot: Sendable {
        let role: DependencyRole
        /// The slot's type as a key with no name.
        let key: AnyKey
        let location: SourceLocation
        let type: Any.Type
        let offset: Int
        /// Converts a value of another type into the slot's type and stores it; `false` when it
        /// is not convertible.
        let store: @Sendable (Any, UnsafeMutableRawPointer) -> Bool
        let destroy: @Sendable (UnsafeMutableRawPointer) -> Void

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
            unsafe slots.append(Slot(
                role: role, key: key, location: location, type: Value.self, offset: offset,
                store: { value, pointer in
                    guard let value = value as? Value else { return false }
                    unsafe pointer.initializeMemory(as: Value.self, to: value)
                    return true
                },
                destroy: { pointer in unsafe ArgumentBuffer.destroy(pointer, as: Value.self) }))
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

/// The dynamic arguments of one request, placed by `ArgumentPlacer`.
@usableFromInline
@safe struct ArgumentBuffer {
    @usableFromInline let base: UnsafeRawPointer
    /// The identity of the signature that laid the arguments out.
    @usableFromInline let token: ObjectIdentifier

    @usableFromInline
    init(base: UnsafeRawPointer, token: ObjectIdentifier) {
        unsafe self.base = base
        self.token = token
    }
}

/// Places the arguments of one request into the buffer its signature describes, and destroys
/// them afterwards. A struct, so that a request allocates nothing for it.
@safe struct ArgumentPlacer {
    private let signature: DynamicSignature
    private let buffer: UnsafeMutableRawPointer
    private let key: AnyKey
    private var placed = 0

    init(signature: DynamicSignature, buffer: UnsafeMutableRawPointer, key: AnyKey) {
        self.signature = signature
        unsafe self.buffer = buffer
        self.key = key
    }

    var arguments: ArgumentBuffer { unsafe ArgumentBuffer(base: UnsafeRawPointer(buffer), token: ObjectIdentifier(signature.token)) }

    mutating func place<Argument>(_ argument: Argument) throws(InjectionError) {
        // Read the two fields the common case needs rather than copying the whole slot.
        let pointer = unsafe buffer + signature.slots[placed].offset
        if ObjectIdentifier(Argument.self) == ObjectIdentifier(signature.slots[placed].type) {
            unsafe pointer.initializeMemory(as: Argument.self, to: argument)
            placed += 1
            return
        }
        let slot = signature.slots[placed]
        if unsafe !slot.store(argument, pointer) {
            throw InjectionError(
                .argumentType(key: key, position: placed + 1, slot: slot.described,
                              passed: AnyKey.name(of: Argument.self), slots: signature.described),
                path: [key], location: slot.location)
        }
        placed += 1
    }

    func destroyPlaced() {
        for slot in signature.slots.prefix(placed) {
            unsafe slot.destroy(buffer + slot.offset)
        }
    }
}

/// The number of values in a parameter pack, counted from their types (no value is copied).
func packCount<each Value>(_ values: repeat each Value) -> Int {
    var count = 0
    func one<Item>(_ type: Item.Type) { count += 1 }
    repeat one((each Value).self)
    return count
}

/// The type names of a parameter pack, for error messages.
func packTypeNames<each Value>(_ values: repeat each Value) -> [String] {
    var names: [String] = []
    func one<Item>(_ value: Item) { names.append(AnyKey.name(of: Item.self)) }
    repeat one(each values)
    return names
}
