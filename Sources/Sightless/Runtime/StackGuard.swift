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

    /// The lowest stack address nested building may reach on this thread; `0` when the stack's
    /// bounds are not known, and then nothing is checked.
    static func floor() -> UInt {
        guard let base = lowestAddress(), base > 0 else { return 0 }
        return base + UInt(reserve)
    }

    /// An address in the caller's stack frame.
    @inline(never)
    static func current() -> UInt {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1) { UInt(bitPattern: $0.baseAddress) }
    }

    /// The size of the current thread's stack in bytes, for the message; `nil` when unknown.
    static func size() -> Int? {
        bounds()?.size
    }

    private static func lowestAddress() -> UInt? {
        bounds().map { UInt(bitPattern: $0.base) }
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

    #if canImport(Glibc) || canImport(Musl)
    private typealias GetAttributes = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
    // `pthread_getattr_np` is the one way to read a running thread's stack bounds, but the C
    // module does not export it (it needs _GNU_SOURCE); the C library itself has it.
    private static let threadAttributes: GetAttributes? =
        dlsym(nil, "pthread_getattr_np").map { unsafeBitCast($0, to: GetAttributes.self) }
    #endif
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
    /// The lowest stack address the request may reach; `0` until it first gets deep.
    @usableFromInline var floor: UInt = 0
}

extension Resolution {
    /// Counts one more level of nested building, of the given weight; throws `tooDeep` when the
    /// stack is nearly used up. Pair with `leaveLevel(weight:)`.
    @usableFromInline @inline(__always)
    mutating func enterLevel(weight: Int = 1) throws(InjectionError) {
        nesting.depth += 1
        nesting.weight += weight
        if nesting.weight >= nesting.nextCheck { try checkStack() }
    }

    @usableFromInline @inline(__always)
    mutating func leaveLevel(weight: Int = 1) {
        nesting.depth -= 1
        nesting.weight -= weight
        // A later branch as deep as this one is checked again on its way down.
        nesting.nextCheck = min(nesting.nextCheck, nesting.weight + StackGuard.interval)
    }

    @usableFromInline @inline(never)
    mutating func checkStack() throws(InjectionError) {
        nesting.nextCheck = nesting.weight + StackGuard.interval
        if nesting.floor == 0 { nesting.floor = max(StackGuard.floor(), 1) }
        guard StackGuard.current() < nesting.floor else { return }
        let stack = StackGuard.size().map { "the \($0 / 1024) KiB stack of this thread" } ?? "this thread's stack"
        throw InjectionError(
            .tooDeep, key: nil,
            message: "Building this object nests \(nesting.depth) levels of dependencies, more than \(stack) holds.",
            fix: "Request it on a thread with a larger stack, or make the graph shallower: have a type inject the Injector and build a deep part when it needs it.")
    }
}
