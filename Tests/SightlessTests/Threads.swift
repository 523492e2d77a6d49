#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Runs `body` on `count` new threads that start together, and waits for all of them.
/// Real threads, not tasks: the cooperative pool has as many threads as cores, and a race needs
/// more contenders than that.
func race(threads count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    final class Start: Sendable {
        let waiting = Atomic<Int>(0)
        let count: Int
        let body: @Sendable (Int) -> Void
        init(count: Int, body: @escaping @Sendable (Int) -> Void) { self.count = count; self.body = body }
    }
    final class Context {
        let start: Start
        let index: Int
        init(start: Start, index: Int) { self.start = start; self.index = index }
    }
    let start = Start(count: count, body: body)
    var threads: [pthread_t] = []
    for index in 0..<count {
        let context = Unmanaged.passRetained(Context(start: start, index: index)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let created = pthread_create(&thread, nil, { raw in
            #if canImport(Darwin)
            let context = Unmanaged<Context>.fromOpaque(raw).takeRetainedValue()
            #else
            guard let raw else { return nil }
            let context = Unmanaged<Context>.fromOpaque(raw).takeRetainedValue()
            #endif
            context.start.waiting.add(1, ordering: .acquiringAndReleasing)
            // Yield while waiting: with more threads than cores, a busy spin would keep the
            // threads not yet started off the cores for a whole time slice.
            while context.start.waiting.load(ordering: .acquiring) < context.start.count { sched_yield() }
            context.start.body(context.index)
            return nil
        }, context)
        precondition(created == 0, "pthread_create failed")
        #if canImport(Darwin)
        if let thread { threads.append(thread) }
        #else
        threads.append(thread)
        #endif
    }
    for thread in threads { pthread_join(thread, nil) }
}

/// Runs `body` on `count` new threads that start together, and returns what each returned, in
/// thread order. Each thread writes only its own slot; `pthread_join` orders those writes
/// before the reads.
func race<Result: Sendable>(threads count: Int, _ body: @escaping @Sendable (Int) -> Result) -> [Result] {
    let slots = RaceSlots<Result>(count: count)
    race(threads: count) { index in slots.set(index, body(index)) }
    return slots.values
}

/// One slot per racing thread; each thread writes only its own.
private final class RaceSlots<Result>: @unchecked Sendable {
    private let buffer: UnsafeMutableBufferPointer<Result?>
    init(count: Int) { buffer = .allocate(capacity: count); buffer.initialize(repeating: nil) }
    deinit { buffer.deinitialize(); buffer.deallocate() }
    func set(_ index: Int, _ value: Result) { buffer[index] = value }
    var values: [Result] { buffer.compactMap { $0 } }
}
