import CSightlessStack

// Building an object runs the plans of its dependencies nested inside its own, so a deep
// enough graph would overflow the thread's stack: a crash, not an error. Every plan that
// builds something compares the address of its frame with the floor of the thread's stack (the
// lowest address plus `StackGuard.reserve`), which the request read from the thread's record
// when it started: a subtraction and a comparison per level. A level found outside the range
// (below the floor, or not on the thread's stack at all, as under AddressSanitizer's fake
// stacks) takes the slow path, which finds the stack pointer itself and throws `tooDeep` when
// the stack is nearly used up. Each level is checked, so no branch of a graph, and no request
// started by an initializer on an injector of its own, can go deeper unseen.

@usableFromInline
enum StackGuard {
    /// The stack left free when a request gives up: room for the initializer running at the
    /// deepest level, and for unwinding. A thread whose stack is smaller than twice this keeps
    /// half of it free instead (see `reserve(of:)`).
    static let reserve = 128 * 1024
    /// The stack a key compiled on its first request may need below the request's frame
    /// (about 45 KiB in a debug build). Compiling runs before the level that asked is checked,
    /// so a compile inside another request must find this much free, or it would overflow a
    /// small stack whose floor keeps less in reserve.
    static let compilingRoom: UInt = 64 * 1024
    /// The stack nested `install` calls leave free: room for the module's `configure(_:)`
    /// running at the deepest level, and for compiling the graph after.
    static let installRoom: UInt = 128 * 1024
    /// What one level is taken to cost where the stack cannot be probed.
    static let bytesPerLevel: UInt = 4 * 1024

    /// The address of the calling frame, or near it: a local's address, which costs an
    /// instruction where a function call would cost several (and the stack protector's check
    /// four more: the frame address of the package's C target, inlined, cost more than that).
    @inlinable @inline(__always)
    static func here() -> UInt { StackProbe.here() }

    /// The lowest stack address nested building may reach on this thread, and the highest
    /// address of the thread's stack; `nil` when the stack's bounds are not known, and then
    /// nothing is checked.
    static func limits() -> StackLimits? {
        guard errorMetadataReady, let (low, size) = StackProbe.threadStack() else { return nil }
        // A small stack (128 KiB, a secondary thread's default under musl; 64 KiB in some
        // pools) keeps half of itself free rather than going unchecked: unchecked, a recursion
        // through an injector overflows it.
        let reserve = min(UInt(reserve), size / 2)
        return StackLimits(floor: low + reserve, high: low + size)
    }

    /// `true` once the error a level throws when the stack is nearly used up has been made, and
    /// carried up a level as every level carries it: the first time a process makes one, the
    /// Swift runtime instantiates the metadata of the types in it, which takes several KiB of
    /// stack of its own (many more under AddressSanitizer), more than the reserve of a small
    /// stack holds at the depth where the error is thrown. Read by `limits()`, when a thread's
    /// stack is first measured, near its top, once per process.
    static let errorMetadataReady: Bool = {
        let key = AnyKey(type: Nesting.self, name: nil)
        let error = InjectionError.wrap(InjectionError(.tooDeep(depth: 1, stackSize: 1)), at: key)
        return !error.problems.isEmpty
    }()

    /// The stack `limits()` keeps free below a thread's floor, told from the size of the range
    /// above it: `reserve`, or half of a stack smaller than twice that, where the range above
    /// the floor is the other half.
    static func reserve(of span: UInt) -> UInt {
        min(UInt(reserve), span)
    }

    /// Whether at least `room` bytes of the thread's stack lie below the caller's frame, or half
    /// of a stack smaller than twice `room`; `true` when the stack's bounds are not known. Asks
    /// the thread's bounds on every call: for the rare nesting that is not a request's.
    static func hasRoom(_ room: UInt) -> Bool {
        guard let (low, size) = StackProbe.threadStack() else { return true }
        let stack = low..<(low + size)
        var frame = here()
        if !stack.contains(frame) {
            guard let pointer = stackPointer(), stack.contains(pointer) else { return true }
            frame = pointer
        }
        return frame - low >= min(room, size / 2)
    }

    /// The address of a frame on the thread's real stack, just below the caller's: where an
    /// addressed local does not lie on the thread's stack (AddressSanitizer moves such locals to
    /// a fake stack of its own), this still tells how deep the thread is.
    @inline(never)
    static func stackPointer() -> UInt? {
        UInt(sightless_stack_pointer())
    }
}

/// How deep a request's plans are nested, and the part of the thread's stack they may use.
@usableFromInline
struct Nesting: Sendable {
    /// Levels of plans that build something (with the requests running below this one on the
    /// thread): what `tooDeep` reports.
    @usableFromInline var depth = 0
    /// The lowest address a level may start at without the slow path: the bottom of the
    /// thread's stack plus `StackGuard.reserve` (half a small stack); 0 when the stack's bounds
    /// are unknown.
    @usableFromInline var floor: UInt = 0
    /// The size of the range above `floor` a level may start in; `UInt.max` when the stack's
    /// bounds are unknown, so that no level takes the slow path.
    @usableFromInline var span: UInt = .max

    init() {}

    /// The nesting of a request starting on a thread: `running` requests below it, and the
    /// thread's stack as its record keeps it (`floor` and `span`).
    @usableFromInline
    init(running: Int, floor: UInt, span: UInt) {
        self.depth = running
        self.floor = floor
        self.span = span
    }
}

/// What is known of a thread's stack.
struct StackLimits: Sendable {
    /// The lowest address nested building may reach (`StackGuard.reserve` above the bottom, or
    /// half a small stack).
    let floor: UInt
    /// The end of the thread's stack.
    let high: UInt
}

extension Resolution {
    /// Counts one more level of nested building; throws `tooDeep` when the stack is nearly
    /// used up. Pair with `leaveLevel()`.
    @usableFromInline @inline(__always)
    mutating func enterLevel() throws(InjectionError) {
        // Wrapping arithmetic: the stack runs out long before a count of levels could overflow,
        // and an overflow check on every level of every request is not free.
        nesting.depth &+= 1
        try checkFrame()
    }

    /// Throws `tooDeep` when the calling frame lies below the thread's floor: a subtraction and
    /// a comparison, and the slow path only for a frame outside the range. `mutating` though it
    /// changes nothing: the request's state is then used in place, where a non-mutating call
    /// copied it first (about 12 instructions per level).
    @usableFromInline @inline(__always)
    mutating func checkFrame() throws(InjectionError) {
        let here = StackGuard.here()
        if here &- nesting.floor >= nesting.span { try checkStack(at: here) }
    }

    @usableFromInline @inline(__always)
    mutating func leaveLevel() {
        nesting.depth &-= 1
    }

    @usableFromInline @inline(never)
    func checkStack(at here: UInt) throws(InjectionError) {
        try nesting.checkStack(at: here)
    }
}

extension Injector {
    /// Throws `tooDeep` when `key`, about to be compiled inside a request running on this
    /// thread, would find less than `StackGuard.compilingRoom` of the stack free: an
    /// initializer asking for ever new types on a 64 KiB stack would otherwise overflow it while
    /// compiling, before any level checked the stack. A compile with no request running on the
    /// thread starts near the top of its stack, and is not checked.
    func checkStackForCompiling(_ key: AnyKey) throws(InjectionError) {
        let thread = ThreadNestingCell.current(in: threadSlot).record
        guard thread.running != 0 else { return }
        var nesting = Nesting(running: thread.running, floor: thread.floor, span: thread.span)
        if let enclosing = RequestFrame.topmost() { nesting.depth = max(nesting.depth, enclosing.nesting.depth) }
        try nesting.checkRoom(StackGuard.compilingRoom, at: StackGuard.here(), for: key)
    }
}

extension Nesting {
    /// Throws `tooDeep` when fewer than `room` bytes of the thread's stack lie below the frame at
    /// `here` (or, when `here` is not on the thread's stack, the stack pointer); nothing when
    /// neither can be placed on it.
    func checkRoom(_ room: UInt, at here: UInt, for key: AnyKey) throws(InjectionError) {
        guard floor != 0 else { return }
        let (frame, stack) = placed(here)
        guard let frame, frame - stack.lowerBound < room else { return }
        throw InjectionError(.tooDeep(depth: depth, stackSize: stack.count), path: [key])
    }

    /// The thread's stack, and the frame at `here` placed on it: `here`, or the stack pointer
    /// when `here` is not on the stack (AddressSanitizer keeps addressed locals on a fake stack
    /// of its own); `nil` for the frame when neither is. For a nesting whose `floor` is known.
    private func placed(_ here: UInt) -> (frame: UInt?, stack: Range<UInt>) {
        let stack = (floor - StackGuard.reserve(of: span))..<(floor &+ span)
        if stack.contains(here) { return (here, stack) }
        if let pointer = StackGuard.stackPointer(), stack.contains(pointer) { return (pointer, stack) }
        return (nil, stack)
    }

    /// Goes on from the nesting of an enclosing request of another injector on this thread:
    /// its levels are added to this request's.
    mutating func `continue`(from enclosing: Nesting) {
        depth += enclosing.depth
    }

    /// Throws `tooDeep` when the frame at `here` (or, when `here` is not on the thread's stack,
    /// the stack pointer) lies below the floor of this thread's stack.
    func checkStack(at here: UInt) throws(InjectionError) {
        guard floor != 0 else { return }
        let (frame, stack) = placed(here)
        let tooDeep: Bool
        if let frame {
            tooDeep = frame < floor
        } else {
            // Neither on the thread's stack: estimate from the depth instead, generously per
            // level.
            let size = UInt(stack.count), margin = min(UInt(StackGuard.reserve) * 2, size / 2)
            tooDeep = UInt(max(depth, 0)) * StackGuard.bytesPerLevel > (size > margin ? size - margin : 0)
        }
        guard tooDeep else { return }
        throw InjectionError(.tooDeep(depth: depth, stackSize: stack.count))
    }
}
