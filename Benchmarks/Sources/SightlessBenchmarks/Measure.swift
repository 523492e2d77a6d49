import Foundation
import Synchronization

/// Keeps what a benchmark builds alive until the next one, so the optimizer can neither drop
/// the work nor move the objects to the stack. One per thread: no shared writes.
final class Sink: @unchecked Sendable {
    private var last: AnyObject?
    private(set) var checksum: UInt = 0

    @inline(never)
    func take(_ object: AnyObject) {
        checksum &+= UInt(bitPattern: Int(bitPattern: ObjectIdentifier(object)))
        last = object
    }

    func clear() { last = nil }
}

/// How long and how often to measure.
struct Settings {
    var roundNanoseconds: UInt64
    var rounds: Int
    var memoryRequests: Int
    var compileSizes: [Int]
    var compileRounds: Int
    var contendedNanoseconds: UInt64

    static let full = Settings(roundNanoseconds: 150_000_000, rounds: 7, memoryRequests: 1_000_000,
                               compileSizes: [1_000, 10_000, 100_000], compileRounds: 5,
                               contendedNanoseconds: 300_000_000)
    static let quick = Settings(roundNanoseconds: 10_000_000, rounds: 5, memoryRequests: 100_000,
                                compileSizes: [1_000, 10_000, 100_000], compileRounds: 2,
                                contendedNanoseconds: 20_000_000)
}

/// The nanoseconds of each round, per operation.
struct Sample {
    var perOperation: [Double]

    var median: Double {
        let sorted = perOperation.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    var best: Double { perOperation.min() ?? .nan }
}

@inline(__always)
func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Finds how many runs of `batch` fill a round; calibrating doubles as the warm-up.
func calibrate(_ settings: Settings, _ batch: (Int) throws -> Void) rethrows -> Int {
    var iterations = 1
    while true {
        let start = now()
        try batch(iterations)
        let elapsed = now() - start
        if elapsed >= settings.roundNanoseconds / 10 {
            let perOperation = Double(elapsed) / Double(iterations)
            return max(1, Int(Double(settings.roundNanoseconds) / perOperation))
        }
        iterations *= elapsed == 0 ? 16 : min(16, max(2, Int(settings.roundNanoseconds / 10 / elapsed) + 1))
    }
}

/// Times `batch(n)`, which must run the operation `n` times: warms up, then measures
/// `settings.rounds` rounds that each fill `settings.roundNanoseconds`.
func measure(_ settings: Settings, _ batch: (Int) throws -> Void) throws -> Sample {
    try withoutActuallyEscaping(batch) { batch in try measure(settings, [batch])[0] }
}

/// Times several batches of the same case, one round of each in turn, so that a change in the
/// machine's load while the case runs falls on every contender alike; each round starts with
/// the next contender (hand-wired first, then Sightless first, …), so that none always runs
/// right after the same neighbour. Round `r` of every sample was measured together: ratios are
/// taken round by round (see `Report.roundRatio`).
func measure(_ settings: Settings, _ batches: [(Int) throws -> Void]) throws -> [Sample] {
    var iterations: [Int] = []
    for batch in batches {
        let count = try calibrate(settings, batch)
        try batch(count)
        iterations.append(count)
    }
    var samples = Array(repeating: Sample(perOperation: []), count: batches.count)
    for round in 0..<settings.rounds {
        for turn in batches.indices {
            let index = (round + turn) % batches.count
            let batch = batches[index]
            let start = now()
            try batch(iterations[index])
            let elapsed = now() - start
            samples[index].perOperation.append(Double(elapsed) / Double(iterations[index]))
        }
    }
    return samples
}

/// Runs `body(thread)` on `count` new threads that start together; returns the wall time from
/// the start to the last one's end.
func runThreads(_ count: Int, stackSize: Int = 8 << 20, _ body: @escaping @Sendable (Int) -> Void) -> UInt64 {
    let done = DispatchSemaphore(value: 0)
    let gate = Gate()
    for index in 0..<count {
        let thread = Thread {
            gate.arrive()
            body(index)
            done.signal()
        }
        thread.stackSize = stackSize
        thread.start()
    }
    gate.waitForAll(count)
    let start = now()
    gate.open()
    for _ in 0..<count { done.wait() }
    return now() - start
}

/// Lets threads start their work at the same moment.
final class Gate: Sendable {
    private let arrived = Atomic<Int>(0)
    private let opened = Atomic<Bool>(false)

    func arrive() {
        arrived.add(1, ordering: .sequentiallyConsistent)
        while !opened.load(ordering: .acquiring) { sched_yield() }
    }

    func waitForAll(_ count: Int) {
        while arrived.load(ordering: .acquiring) < count { sched_yield() }
    }

    func open() { opened.store(true, ordering: .releasing) }
}

/// Runs `body` on a thread with a large stack (deep chains recurse once per link, in every
/// contender), and waits for it.
func onLargeStack<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
    let result = Mutex<T?>(nil)
    _ = runThreads(1, stackSize: 1 << 30) { _ in
        let value = body()
        result.withLock { $0 = value }
    }
    return result.withLock { $0 }!
}

/// The process's resident memory, in bytes, from /proc/self/statm.
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}
