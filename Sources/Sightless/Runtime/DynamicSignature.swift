/// The creation-time arguments a request must bring: their types, in order, and where each one
/// lies in the buffer a request fills. Requests place arguments of the exact slot type with a
/// comparison of type identities, and anything else (a `String` for a `String?` slot, a
/// subclass, a protocol's conformer) with one checked conversion.
@usableFromInline
final class DynamicSignature: Sendable {
    struct Slot: Sendable {
        let dependency: Dependency
        let type: Any.Type
        let offset: Int
        /// Converts a value of another type into the slot's type and stores it; `false` when it
        /// is not convertible.
        let store: @Sendable (Any, UnsafeMutableRawPointer) -> Bool
        let destroy: @Sendable (UnsafeMutableRawPointer) -> Void
    }

    let slots: [Slot]
    let byteCount: Int
    let alignment: Int

    init(slots: [Slot], byteCount: Int, alignment: Int) {
        self.slots = slots
        self.byteCount = byteCount
        self.alignment = alignment
    }

    /// The slots as a user reads them: `argument 3: String`.
    var slotList: String {
        slots.map { "\($0.dependency.role): \($0.dependency.key.typeName)" }.joined(separator: ", ")
    }

    /// Lays out the creation-time arguments of one node while it links.
    struct Builder {
        private var slots: [Slot] = []
        private var byteCount = 0
        private var alignment = 1

        mutating func add<Value>(_ dependency: Dependency, as type: Value.Type) -> Int {
            let layout = MemoryLayout<Value>.self
            let offset = (byteCount + layout.alignment - 1) / layout.alignment * layout.alignment
            byteCount = offset + layout.size
            alignment = max(alignment, layout.alignment)
            slots.append(Slot(
                dependency: dependency, type: Value.self, offset: offset,
                store: { value, pointer in
                    guard let value = value as? Value else { return false }
                    pointer.initializeMemory(as: Value.self, to: value)
                    return true
                },
                destroy: { pointer in _ = pointer.assumingMemoryBound(to: Value.self).deinitialize(count: 1) }))
            return offset
        }

        func build() -> DynamicSignature? {
            slots.isEmpty ? nil : DynamicSignature(slots: slots, byteCount: byteCount, alignment: alignment)
        }
    }
}

/// Places the arguments of one request into the buffer its signature describes, and destroys
/// them afterwards. A struct, so that a request allocates nothing for it.
struct ArgumentPlacer {
    private let signature: DynamicSignature
    private let buffer: UnsafeMutableRawPointer
    private let key: AnyKey
    private var placed = 0

    init(signature: DynamicSignature, buffer: UnsafeMutableRawPointer, key: AnyKey) {
        self.signature = signature
        self.buffer = buffer
        self.key = key
    }

    mutating func place<Argument>(_ argument: Argument) throws(InjectionError) {
        // Read the two fields the common case needs rather than copying the whole slot.
        let pointer = buffer + signature.slots[placed].offset
        if ObjectIdentifier(Argument.self) == ObjectIdentifier(signature.slots[placed].type) {
            pointer.initializeMemory(as: Argument.self, to: argument)
            placed += 1
            return
        }
        let slot = signature.slots[placed]
        if !slot.store(argument, pointer) {
            throw InjectionError(
                .argumentType, key: key, path: [key],
                message: "Creation-time argument \(placed + 1) of \(key) fills \(slot.dependency.role), of type \(slot.dependency.key.typeName), but the value passed is of type \(Argument.self).",
                fix: "Pass a \(slot.dependency.key.typeName) in position \(placed + 1): \(key) takes (\(signature.slotList)).",
                location: slot.dependency.location)
        }
        placed += 1
    }

    func destroyPlaced() {
        for slot in signature.slots.prefix(placed) {
            slot.destroy(buffer + slot.offset)
        }
    }
}

/// The number of values in a parameter pack, counted from their types (no value is copied).
func packCount<each Value>(_ values: repeat each Value) -> Int {
    var count = 0
    func one<Element>(_ type: Element.Type) { count += 1 }
    repeat one((each Value).self)
    return count
}

/// The type names of a parameter pack, for error messages.
func packTypeNames<each Value>(_ values: repeat each Value) -> [String] {
    var names: [String] = []
    func one<Element>(_ value: Element) { names.append(AnyKey.name(of: Element.self)) }
    repeat one(each values)
    return names
}
