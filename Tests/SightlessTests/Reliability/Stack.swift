#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `body` on one new thread with a stack of `stackSize` bytes, and waits for it.
/// A test thread's own stack size is the runtime's choice; this one is the test's.
func onThread(stackSize: Int, _ body: @escaping @Sendable () -> Void) {
    let thread = startThread(stackSize: stackSize, detached: false, body)
    #if canImport(Darwin)
    if let thread { pthread_join(thread, nil) }
    #else
    pthread_join(thread, nil)
    #endif
}

#if canImport(Darwin)
/// A started thread, as `pthread_create` gives it on this platform.
typealias ThreadHandle = pthread_t?
#else
/// A started thread, as `pthread_create` gives it on this platform.
typealias ThreadHandle = pthread_t
#endif

/// Starts `body` on a new thread with a stack of `stackSize` bytes: detached, for a thread that
/// may never finish (a watchdog gives up on it), or to be joined.
@discardableResult
func startThread(stackSize: Int, detached: Bool, _ body: @escaping @Sendable () -> Void) -> ThreadHandle {
    final class Box {
        let body: @Sendable () -> Void
        init(body: @escaping @Sendable () -> Void) { self.body = body }
    }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setstacksize(&attributes, stackSize)
    if detached { pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED)) }
    let context = Unmanaged.passRetained(Box(body: body)).toOpaque()
    var thread = ThreadHandle()
    let created = pthread_create(&thread, &attributes, { raw in
        #if canImport(Darwin)
        let box = Unmanaged<Box>.fromOpaque(raw).takeRetainedValue()
        #else
        guard let raw else { return nil }
        let box = Unmanaged<Box>.fromOpaque(raw).takeRetainedValue()
        #endif
        box.body()
        return nil
    }, context)
    precondition(created == 0, "pthread_create failed")
    return thread
}
