import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Every operation in Sightless that the compiler cannot check lives in this file, each with the
// invariant that makes it sound and, where a check costs little, the check itself, so that a
// broken invariant (a bug in a validation rule, say) ends in a thrown `InjectionError` rather
// than in memory corruption. Nothing outside this file writes `Unmanaged`, `unsafeDowncast`,
// `assumingMemoryBound`, `unsafeBitCast`, `unowned(unsafe)` or `@unchecked Sendable`; CI checks
// that with a grep.

// MARK: - References held without reference counting

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

    @inlinable @inline(__always)
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
    @inlinable @inline(__always)
    static func retaining(_ object: Object) -> UnownedReference {
        unsafe UnownedReference(unmanaged: .passRetained(object))
    }

    /// Ends the life `retaining(_:)` gave the object.
    func release() { unsafe unmanaged.release() }

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

/// The node table of an injector's graph, held by the injector without reference counting: a
/// child made from a template retains and releases only its graph.
///
/// Invariant: an injector holds its `graph` for its whole life, and the graph holds this table
/// (`InjectorGraph.nodes`); only that injector reads it, during a call on it.
@usableFromInline
@safe struct GraphNodes: Sendable {
    @usableFromInline let unmanaged: Unmanaged<NodeTable>

    @inlinable @inline(__always)
    init(_ graph: InjectorGraph) { unsafe unmanaged = .passUnretained(graph.nodes) }

    /// The table, retained by the caller from here on.
    @inlinable @inline(__always)
    var table: NodeTable { unsafe unmanaged.takeUnretainedValue() }

    /// Runs `body` with the table, retaining nothing.
    @inlinable @inline(__always)
    func reading<Result>(_ body: (NodeTable) -> Result) -> Result {
        unsafe unmanaged.borrowing(body)
    }
}

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

// MARK: - Typed views of type-erased nodes and storages

extension AnyNode {
    /// This node as a `Node<Value>`.
    ///
    /// Invariant: the node of a key whose type is `Value` is a `Node<Value>`. Checked with one
    /// comparison of type identities; a mismatch throws rather than reinterprets the node.
    @inlinable @inline(__always)
    func typed<Value>(as type: Value.Type) throws(InjectionError) -> Node<Value> {
        guard valueType == ObjectIdentifier(Value.self) else { throw nodeTypeMismatch(Value.self) }
        return unsafe unsafeDowncast(self, to: Node<Value>.self)
    }

    /// This node as a `Node<Value>`, without comparing types.
    ///
    /// Invariant: the caller found the node in a `NodeIndex` by the identity of `Value`, and
    /// `NodeIndex` indexes a node only under the type it produces (checked when it is built).
    @inlinable @inline(__always)
    func typedVerified<Value>(as type: Value.Type) -> Node<Value> {
        unsafe unsafeDowncast(self, to: Node<Value>.self)
    }

    @usableFromInline @inline(never)
    func nodeTypeMismatch(_ type: Any.Type) -> InjectionError {
        InjectionError(.internalInconsistency(.nodeType(key: key, expected: AnyKey.name(of: type))))
    }
}

extension InstanceStorage {
    /// The stored instance, read in place.
    ///
    /// Invariant: `pointer` came from this storage's `instancePointer`, whose memory was
    /// initialized with a `Value`: every reader was handed the storage by a `TypedStorage<Value>`,
    /// made by `typed(as:)` after comparing `valueType`, or compares it itself.
    @inlinable @inline(__always)
    static func read<Value>(_ pointer: UnsafeMutableRawPointer, as type: Value.Type) -> Value {
        unsafe pointer.assumingMemoryBound(to: Value.self).pointee
    }

    /// Frees an instance stored by `store`.
    static func destroy<Value>(_ pointer: UnsafeMutableRawPointer, as type: Value.Type) {
        let typed = unsafe pointer.assumingMemoryBound(to: Value.self)
        unsafe typed.deinitialize(count: 1)
        unsafe typed.deallocate()
    }
}

extension InstanceStorage {
    /// The instance, if it exists, read without comparing types.
    ///
    /// Invariant: the caller holds this storage as the storage of a `Node<Value>` or a
    /// `PlanBox<Value>`, which keep only a storage whose `valueType` is `Value` (checked when
    /// they are made), or found the node by the identity of `Value` in a `NodeIndex`, which
    /// indexes a node only under the type it produces.
    @inlinable @inline(__always)
    func existingVerified<Value>(as type: Value.Type) -> Value? {
        guard let pointer = unsafe instancePointer else { return nil }
        return unsafe Self.read(pointer, as: Value.self)
    }
}

extension ArgumentBuffer {
    /// Reads the dynamic argument at `offset`.
    ///
    /// Invariant: the buffer was filled by `ArgumentPlacer` from the signature whose token the
    /// caller compared with `token`, and that signature put a `Value` at `offset`. The plan that
    /// reads compares tokens first (see `DynamicSlot.read`), so a request whose arguments were
    /// laid out for another node throws instead of reading them.
    @inlinable @inline(__always)
    func read<Value>(at offset: Int, as type: Value.Type) -> Value {
        unsafe (base + offset).assumingMemoryBound(to: Value.self).pointee
    }

    /// Places an argument of a request's fast path (`Injector.runPlacing`, and
    /// `Injector.awaitedRequestPlacing` for an awaited request), or all of a parameter pack's
    /// arguments as one tuple at the buffer's start (`DynamicSignature.places(_:matching:)`
    /// found the tuple's elements to be exactly the slots' types, in order, so each lies at its
    /// slot's offset).
    @inlinable @inline(__always)
    static func place<Value>(_ value: Value, at pointer: UnsafeMutableRawPointer) {
        unsafe pointer.initializeMemory(as: Value.self, to: value)
    }

    /// Destroys an argument placed by `place(_:at:)`.
    ///
    /// Invariant: `Injector.runPlacing` (or `Injector.awaitedRequestPlacing`) placed a `Value`
    /// (one argument, or the tuple of a parameter pack's) at `pointer` with `place(_:at:)` in the
    /// same request, walking the same arguments in the same order, and destroys it once, after
    /// the plan has returned or thrown (an awaited plan is awaited to its end before, so nothing
    /// reads the arguments after).
    @inlinable @inline(__always)
    static func destroyPlaced<Value>(_ pointer: UnsafeMutableRawPointer, as type: Value.Type) {
        _ = unsafe pointer.assumingMemoryBound(to: Value.self).move()
    }

    /// Destroys the argument at `offset`, placed there as a `Value` by `ArgumentPlacer`.
    static func destroy<Value>(_ pointer: UnsafeMutableRawPointer, as type: Value.Type) {
        _ = unsafe pointer.assumingMemoryBound(to: Value.self).deinitialize(count: 1)
    }
}

extension PlanCursor {
    /// The next argument plan as the box of its type.
    ///
    /// Invariant: `FrozenPlans` was built by `linkArguments(as:)` walking the same parameter
    /// pack, in the same order, that the cursor walks, so the box at each position is a
    /// `PlanBox` of that position's type; `linkArguments` checks, once, that the boxes it froze
    /// have the pack's types in order (`FrozenPlans.matches`), so there are exactly as many
    /// boxes as the cursor reads.
    @inlinable @inline(__always)
    static func withBox<Value, Result>(
        _ reference: UnownedReference<AnyPlanBox>, as type: Value.Type,
        _ body: (PlanBox<Value>) throws -> Result
    ) throws -> Result {
        unsafe try reference.unmanaged.borrowing { box in unsafe try body(unsafeDowncast(box, to: PlanBox<Value>.self)) }
    }
}

// MARK: - Type metadata

/// Whether `type` is an existential (a protocol type such as `any Api`, a composition, `Any`).
///
/// Invariant: Swift's stable ABI lays out every type's metadata with its kind in the first
/// word; existential types have kind 0x303 (`Existential`) or 0x307 (`ExtendedExistential`).
/// Class metadata begins with 0 or an isa pointer, never one of these small values.
func isExistential(_ type: Any.Type) -> Bool {
    let kind = unsafe unsafeBitCast(type, to: UnsafePointer<UInt>.self).pointee
    return kind == 0x303 || kind == 0x307
}

/// Whether values of `Value` may be moved by copying their bytes, as far as public Swift tells:
/// a class reference may. Nearly every Swift type may, but only the runtime knows which (a
/// `BitwiseCopyable` cast succeeds for every type), so any other type is taken not to be, and
/// the code that asks keeps it where it never moves by bytes.
@inlinable @inline(__always)
func isMovableByBytes<Value>(_ type: Value.Type) -> Bool {
    Value.self is AnyObject.Type
}

// MARK: - Sendable conformances the compiler cannot prove

/// Invariant: every stored property is an immutable `let` of a `Sendable` type; subclasses add
/// only such properties. (A class that is not final cannot be checked as `Sendable`.)
extension AnyNode: @unchecked Sendable {}
extension Node: @unchecked Sendable {}

/// Invariant: `AnyPlanBox` and its subclass hold only immutable `let`s of `Sendable` types.
extension AnyPlanBox: @unchecked Sendable {}
extension PlanBox: @unchecked Sendable {}


/// Invariant: `stored` is an atomic; `builder`, `awaitedBuild`, `sealed` and `destroy` are read
/// and written only under the lock of the injector's `BuildCoordinator` (`destroy` also in
/// `deinit`); `destroy` is written once, before `stored` publishes the instance, and read only in
/// `deinit`; `closable` and `asyncClosable` are written under that lock before `stored`
/// publishes the instance, and `creation` under it just after; a shutdown reads them after it has
/// sealed the storage under that lock, so it sees all three; the instance stored is always of
/// type `valueType`.
extension InstanceStorage: @unchecked Sendable {}



extension ChildValues {
    /// Moves `values`, the tuple of all the layout's values, in place or to `heap`.
    ///
    /// Invariant: `Values` is the layout's tuple, whose type the caller compared (`place`) and
    /// which lies exactly as the positions do (`ProvidedLayout.tuple`); nothing is placed yet;
    /// `heap` is sized and aligned for the layout when there is one, and otherwise the layout
    /// fits `inline` (`ProvidedLayout.fitsInline`).
    @inlinable @inline(__always)
    mutating func move<Values>(_ values: consuming Values) {
        if let heap = unsafe heap {
            unsafe Self.initialize(heap, to: values)
        } else {
            unsafe Self.initialize(&inline, to: values)
        }
    }

    /// Moves `values` to `base`: the memory of `heap`, or of `inline` for the duration of the call.
    @inlinable @inline(__always)
    static func initialize<Values>(_ base: UnsafeMutableRawPointer, to values: consuming Values) {
        unsafe base.assumingMemoryBound(to: Values.self).initialize(to: values)
    }

    /// The value lying at `offset`.
    ///
    /// Invariant: `isComplete` is true, which it is only in a child made from a template, and the
    /// caller found this injector's owner to be that template's, whose layout put a `Value` at
    /// `offset` (`ProvidedValues.add` gave the plan reading it that offset). Values in place are
    /// movable by copying their bytes, so a copy of `inline` holds them as well, for as long as
    /// the child does.
    @inlinable @inline(__always)
    func value<Value>(atOffset offset: Int, as type: Value.Type) -> Value {
        if let heap = unsafe heap { return unsafe (heap + offset).assumingMemoryBound(to: Value.self).pointee }
        return unsafe withUnsafeBytes(of: inline) { inline in unsafe inline.load(fromByteOffset: offset, as: Value.self) }
    }

    /// The value at `index`.
    ///
    /// Invariant: `holds(Value.self, at: index)` returned true just before, which it does only
    /// for a template child's values (`layout` set) and for a position below `count`, placed as
    /// a `Value`.
    @inlinable @inline(__always)
    func value<Value>(at index: Int, as type: Value.Type) -> Value {
        unsafe value(atOffset: layoutReference.unsafelyUnwrapped.reading { unsafe $0.positions[index].offset }, as: Value.self)
    }

    /// Releases the `count` class references lying in place, one per word of `inline`.
    ///
    /// Invariant: called once, from `deinit`, for values whose layout is `referencesInline`, with
    /// their own `count` (0, or all of them once placed) and `inline`: word `i` of `inline`, for
    /// each `i` below `count`, holds one strong reference to a class instance.
    static func releaseReferences(_ count: Int, in inline: Inline) {
        unsafe withUnsafeBytes(of: inline) { words in
            for index in 0..<count {
                let word = unsafe words.load(fromByteOffset: index * MemoryLayout<UInt>.stride, as: UInt.self)
                guard let address = unsafe UnsafeRawPointer(bitPattern: word) else { continue }
                unsafe Unmanaged<AnyObject>.fromOpaque(address).release()
            }
        }
    }

    /// Destroys the values of `layout`, all placed, in `heap` or in (a copy of) `inline`.
    ///
    /// Invariant: called once, from `deinit`, when the values were placed (as the layout's
    /// `tuple`, which is then set), with their own `inline` and `heap`; a copy of `inline` holds
    /// the same values, each movable by copying its bytes.
    static func destroy(_ layout: ProvidedLayout, inline: Inline, heap: UnsafeMutableRawPointer?) {
        guard let tuple = layout.tuple else { return }
        if let heap = unsafe heap { return unsafe tuple.destroy(heap) }
        var inline = inline
        unsafe withUnsafeMutableBytes(of: &inline) { inline in
            guard let base = inline.baseAddress else { return }
            unsafe tuple.destroy(base)
        }
    }

    /// Destroys the value at `address`, placed there as a `Value` (the layout's tuple made this
    /// destroyer with the tuple's type, and `deinit` calls it only once the tuple is placed).
    @inlinable
    static func destroy<Value>(_ address: UnsafeMutableRawPointer, as type: Value.Type) {
        _ = unsafe address.assumingMemoryBound(to: Value.self).deinitialize(count: 1)
    }
}

/// Invariant: `positions` is allocated and initialized in `init`, never written afterwards,
/// and freed in `deinit`; the positions hold offsets, types and `Sendable` destroyers.
extension ProvidedLayout: @unchecked Sendable {}

/// Invariant: `layout`, `heap` and `expected` never change; `count` and the values are written
/// only while the child is made, before the values are handed to the child injector, and
/// read-only afterwards; values are placed only when `Sendable` (`ChildTemplate` requires it of
/// every value).
extension ChildValues: @unchecked Sendable {}

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


/// Invariant: `provisions`, `kept`, `children`, `registrations` and `closed` are read and
/// written only under `lock`, `slot` and `order` only under the parent's; `table` and `parent`
/// never change.
extension InjectorLifecycle: @unchecked Sendable {}

/// Invariant: the base index is immutable once made; `latest` is an atomic; `laterIndexes`,
/// `laterNodes` and `inherited` are only touched under `compiling`.
extension NodeTable: @unchecked Sendable {}

/// Invariant: entries are added only under the owning `NodeTable`'s `compiling` lock, each
/// written before its type word is stored with release ordering, and never changed after; a
/// reader loads the type word with acquire ordering before it reads the entry. The memory is
/// allocated in `init` and freed in `deinit`, and the table keeps every node it points to alive
/// through the `NodeTable`'s `laterNodes`.
extension LaterIndex: @unchecked Sendable {}

/// Invariant: the entries and the nodes array are immutable once made, and the nodes array keeps
/// alive every node an entry points to.
extension NodeIndex: @unchecked Sendable {}

/// Invariant: the boxes are immutable once frozen and `base` points into memory owned by this
/// object, written in `init` and freed in `deinit`.
extension FrozenPlans: @unchecked Sendable {}

/// Holds a value bound with `to(uncheckedInstance:)`, which the injector hands out on any thread.
///
/// Invariant: the user who bound it promised, by choosing that method, that sharing the value is
/// safe; the injector itself never mutates it.
@usableFromInline
final class UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// A value handed from the task that built it to the one that awaits it: an awaited
/// dependency's value, built in a child task, to the consumer's; a singleton's, built in its own
/// task, to the requests waiting for it.
///
/// Invariant: the task that built the value keeps no reference to it once it hands the box
/// over, so the value is used by one task at a time, as if it had been built there (a
/// singleton's value is then shared like every singleton; see the Concurrency article).
struct Transfer<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

extension AsyncBuild {
    /// The arguments a plan gathered, as the step sends them on to the initializer, closure or
    /// provider it awaits (`AsyncBuild.arguments(_:as:)`).
    ///
    /// Invariant: a plan gathers the arguments of each build anew, into the `AsyncBuild` it
    /// returns; the caller awaits that build's step once and keeps nothing else of it, so once
    /// the step has read them, nothing but what it sends them to uses them.
    @inlinable @inline(__always)
    static func sent<Arguments>(_ arguments: Arguments) -> sending Arguments {
        nonisolated(unsafe) let arguments = arguments
        return unsafe arguments
    }
}

/// The dynamic arguments of an awaited request, read by the requested node's synchronous
/// section, possibly on another thread than the one that placed them.
///
/// Invariant: the request that placed the arguments awaits the plan that reads them and
/// destroys them only after it returns; only the requested node's own section reads them, one
/// read at a time, never concurrently.
struct SharedArguments: @unchecked Sendable {
    let buffer: ArgumentBuffer
}

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
    /// Whether `value` holds exactly a `Value` kept in the existential's own buffer, which
    /// `readInPlace(_:as:)` then reads where it lies: a cast of an `Any` to a type parameter asks
    /// the runtime to compare the types, some 300 instructions for each value an awaited section
    /// reads. Two functions, not one returning an optional: an optional `Value` in unspecialized
    /// code has its type looked up at run time, as costly.
    ///
    /// Invariant: an `Any` is three words of buffer followed by the metadata of the type of what
    /// it holds; a value of that type lies at the start of the buffer when its size is at most
    /// three words, its alignment at most a word's and it is bitwise takable (the runtime's rule
    /// for keeping it inline; anything else is boxed, and the buffer holds the box): a class
    /// reference is, and public Swift tells no other type's (`isMovableByBytes`), so any other
    /// type takes the cast. The stored metadata is compared with `Value`'s, so a subclass
    /// instance, the concrete value of an existential `Value` or a boxed value is never read as
    /// `Value`.
    @inlinable @inline(__always)
    static func holdsInPlace<Value>(_ value: Any, exactly type: Value.Type) -> Bool {
        let word = MemoryLayout<Int>.size
        guard MemoryLayout<Value>.size <= 3 * word, MemoryLayout<Value>.alignment <= MemoryLayout<Int>.alignment,
              isMovableByBytes(Value.self) else { return false }
        let metadata = unsafe unsafeBitCast(Value.self as Any.Type, to: UnsafeRawPointer.self)
        // `as Any` keeps the existential closed: passed as it is, it would be opened, and the
        // bytes would be those of the value it holds.
        return unsafe withUnsafeBytes(of: value as Any) { bytes in
            unsafe bytes.load(fromByteOffset: 3 * word, as: UnsafeRawPointer.self) == metadata
        }
    }

    /// The `Value` `value` holds in place.
    ///
    /// Invariant: `holdsInPlace(value, exactly: Value.self)` is `true`.
    @inlinable @inline(__always)
    static func readInPlace<Value>(_ value: Any, as type: Value.Type) -> Value {
        unsafe withUnsafeBytes(of: value as Any) { bytes in unsafe bytes.load(as: Value.self) }
    }
}

/// Invariant: `slots` is read and written only under `lock`.
extension Outcomes: @unchecked Sendable {}

// MARK: - Where the caller runs

/// Runs `body`, isolated to the main actor, here and now.
///
/// Invariant: the caller found `ActorIsolation.mainActor.isCurrent`: the code runs on the main
/// dispatch queue, the main actor's executor, or on a queue that targets it and so runs one block
/// at a time with it. `MainActor.assumeIsolated` would ask the runtime again, and trap where its
/// answer differs (a queue that targets the main queue); this runs the closure as it does once
/// it has its answer.
func runOnMainActor<Result>(_ body: @MainActor () throws -> Result) rethrows -> Result {
    try withoutActuallyEscaping(body) { body in
        unsafe try unsafeBitCast(body, to: (() throws -> Result).self)()
    }
}

/// A key path to a property of a ``MainActorInjectable`` type, which Swift does not let be
/// `Sendable` when the property is isolated to the main actor.
///
/// Invariant: `Properties` keeps it to compare and name it on any thread, and applies it only in
/// the plan of a `MainActorInjectable` type, which sets the properties after Sightless
/// confirmed that it runs on the main actor (`ActorIsolation.isCurrent`, see `IsolatedRecipe.swift`). A composition of a
/// class with a marker protocol is represented as the class reference alone.
func mainActorKeyPath<Root, Value>(
    _ keyPath: ReferenceWritableKeyPath<Root, Value>
) -> ReferenceWritableKeyPath<Root, Value> & Sendable {
    unsafe unsafeBitCast(keyPath, to: (ReferenceWritableKeyPath<Root, Value> & Sendable).self)
}
