#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Building an object runs the plans of its dependencies nested inside its own, so a deep
// enough graph would overflow the thread's stack: a crash, not an error. Every plan that
// builds something counts one level and adds its weight (the stack it takes, roughly); each
// time the weight grows by `StackGuard.interval` the remaining stack is compared with
// `StackGuard.reserve`, and a request that would run out throws `tooDeep`. Shallow requests
// (nearly all) only count; the thread's stack bounds are looked up once per request, when it
// first gets deep.

@usableFromInline
enum StackGuard {
    /// Weight between two checks of the stack. A level of weight 1 (an initializer) takes
    /// about 1.3 KiB in a debug build, a closure or provider binding (weight `closureWeight`)
    /// about 5 KiB, so `reserve` covers what runs between two checks three times over, with
    /// room for the initializers at the bottom and for unwinding.
    @usableFromInline static let interval = 32
    /// The weight of a closure or provider binding's level, which runs a whole request.
    static let closureWeight = 4
    /// The stack left free when a request gives up.
    static let reserve = 128 * 1024
    /// What one unit of weight is taken to cost where the stack cannot be probed.
    static let bytesPerWeight: UInt = 4 * 1024

    /// The lowest stack address nested building may reach on this thread, and the lowest and
    /// highest addresses of the thread's stack; `nil` when the stack's bounds are not known,
    /// and then nothing is checked.
    static func limits() -> StackLimits? {
        guard let bounds = bounds(), let base = bounds.base, bounds.size > reserve else { return nil }
        let low = UInt(bitPattern: base)
        return StackLimits(floor: low + UInt(reserve), low: low, high: low + UInt(bounds.size))
    }

    /// The stack pointer itself, read from the registers: where an addressed local does not
    /// lie on the thread's stack (AddressSanitizer moves such locals to a fake stack of its own),
    /// this still tells how deep the thread is. `nil` where it cannot be read.
    @inline(never)
    static func stackPointer() -> UInt? {
        #if canImport(Glibc) && (arch(x86_64) || arch(arm64))
        guard let getContext else { return nil }
        var context = ucontext_t()
        guard getContext(&context) == 0 else { return nil }
        #if arch(x86_64)
        return UInt(bitPattern: Int(context.uc_mcontext.gregs.15))   // REG_RSP
        #else
        return UInt(context.uc_mcontext.sp)
        #endif
        #else
        return nil
        #endif
    }

    /// An address in the caller's stack frame.
    @inline(never)
    static func current() -> UInt {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1) { UInt(bitPattern: $0.baseAddress) }
    }

    private static func bounds() -> (base: UnsafeMutableRawPointer?, size: Int)? {
        #if canImport(Darwin)
        let thread = pthread_self()
        let size = pthread_get_stacksize_np(thread)
        return (pthread_get_stackaddr_np(thread) - size, size)
        #elseif canImport(Glibc) || canImport(Musl)
        guard let getAttributes = threadAttributes else { return nil }
        var attributes = pthread_attr_t()
        guard getAttributes(pthread_self(), &attributes) == 0 else { return nil }
        defer { pthread_attr_destroy(&attributes) }
        var base: UnsafeMutableRawPointer?
        var size = 0
        guard pthread_attr_getstack(&attributes, &base, &size) == 0 else { return nil }
        return (base, size)
        #else
        return nil
        #endif
    }

}

/// How deep a request's plans are nested, and what is known of the stack they run on.
@usableFromInline
struct Nesting: Sendable {
    /// Levels of plans that build something.
    @usableFromInline var depth = 0
    /// The stack those levels take, roughly, in units of an initializer's level.
    @usableFromInline var weight = 0
    /// The weight at which the stack is checked next.
    @usableFromInline var nextCheck = StackGuard.interval
    /// The lowest address nested building may reach: 0 until the thread's stack is looked up
    /// (when the request first gets deep), 1 when its bounds are unknown.
    var floor: UInt = 0
    /// The highest address of the thread's stack, once looked up.
    var ceiling: UInt = 0
}

/// What is known of a thread's stack.
struct StackLimits: Sendable {
    /// The lowest address nested building may reach.
    let floor: UInt
    /// The thread's stack lies in `low..<high`.
    let low: UInt
    let high: UInt
}

extension Resolution {
    /// Counts one more level of nested building, of the given weight; throws `tooDeep` when the
    /// stack is nearly used up. Pair with `leaveLevel(weight:)`.
    @usableFromInline @inline(__always)
    mutating func enterLevel(weight: Int = 1) throws(InjectionError) {
        // Wrapping arithmetic: the stack runs out long before a count of levels could overflow,
        // and an overflow check on every level of every request is not free.
        nesting.depth &+= 1
        nesting.weight &+= weight
        if nesting.weight >= nesting.nextCheck { try checkStack() }
    }

    @usableFromInline @inline(__always)
    mutating func leaveLevel(weight: Int = 1) {
        nesting.depth &-= 1
        nesting.weight &-= weight
        // A later branch as deep as this one is checked again on its way down.
        nesting.nextCheck = min(nesting.nextCheck, nesting.weight &+ StackGuard.interval)
    }

    @usableFromInline @inline(never)
    mutating func checkStack() throws(InjectionError) {
        nesting.nextCheck = nesting.weight + StackGuard.interval
        try nesting.checkStack()
    }
}

extension Nesting {
    /// Goes on from the nesting of an enclosing request of another injector on this thread:
    /// its levels are added to this request's, and the stack is checked at the next level.
    mutating func `continue`(from enclosing: Nesting) {
        depth += enclosing.depth
        weight += enclosing.weight
        nextCheck = min(nextCheck, weight)
        if floor == 0 {
            floor = enclosing.floor
            ceiling = enclosing.ceiling
        }
    }

    /// Throws `tooDeep` when the calling frame lies below the floor of this thread's stack.
    mutating func checkStack() throws(InjectionError) {
        if floor == 0 {
            let limits = StackGuard.limits()
            floor = limits?.floor ?? 1
            ceiling = limits?.high ?? 0
        }
        guard floor > 1 else { return }
        let low = floor - UInt(StackGuard.reserve)
        var here = StackGuard.current()
        if here < low || here >= ceiling, let pointer = StackGuard.stackPointer() { here = pointer }
        let tooDeep: Bool
        if here >= low, here < ceiling {
            tooDeep = here < floor
        } else {
            // Not on the thread's stack (AddressSanitizer keeps addressed locals on a fake
            // stack of its own): estimate from the weight instead, generously per level.
            let size = ceiling - low, margin = UInt(StackGuard.reserve) * 2
            tooDeep = UInt(max(weight, 0)) * StackGuard.bytesPerWeight > (size > margin ? size - margin : 0)
        }
        guard tooDeep else { return }
        throw InjectionError(.tooDeep(depth: depth, stackSize: Int(ceiling - low)))
    }
}
