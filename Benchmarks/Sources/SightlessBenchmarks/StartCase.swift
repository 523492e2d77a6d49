import Foundation
import Sightless

// The `start` case: `Injector.start` of 200 eager singletons that open with `await` (each sleeps
// 1 to 4 ms, as a connection might), each needing up to three of those before it in a fixed
// random graph. Independent ones build at the same time, so the start-up should take about the
// critical path: the longest chain of sleeps through the graph, printed beside it, with the same
// start-up wired by hand (a task per service), measured in the same rounds: what the sleeps
// themselves overshoot on this machine. By wall clock only: what is measured is waiting, not
// instructions.

/// A service of the start graph.
final class StartedService: Sendable {
    let name: String
    init(name: String) { self.name = name }
}

/// The start graph: for each service, its sleep and the services it needs (all before it).
struct StartGraph {
    let sleeps: [Int]
    let needs: [[Int]]

    /// 200 services from a fixed seed.
    static let reference: StartGraph = {
        var state: UInt64 = 0x5747_4152_5400_0001
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        var sleeps: [Int] = [], needs: [[Int]] = []
        for index in 0..<200 {
            sleeps.append(1 + next() % 4)
            let count = index == 0 ? 0 : next() % 4
            needs.append(Array(Set((0..<count).map { _ in next() % index })).sorted())
        }
        return StartGraph(sleeps: sleeps, needs: needs)
    }()

    /// The longest chain of sleeps, in milliseconds: what no start-up can beat.
    var criticalPath: Int {
        var finish: [Int] = []
        for index in sleeps.indices {
            finish.append(sleeps[index] + (needs[index].map { finish[$0] }.max() ?? 0))
        }
        return finish.max() ?? 0
    }

    /// The sum of all sleeps: what a start-up that builds one service at a time takes.
    var sequential: Int { sleeps.reduce(0, +) }
}

struct StartModule: Module {
    let graph: StartGraph
    func configure(_ binder: Binder) {
        for index in graph.sleeps.indices {
            let sleep = graph.sleeps[index], needs = graph.needs[index]
            binder.bind(Key<StartedService>(named: "service\(index)")).to { resolver async throws in
                for need in needs { _ = try await resolver.instance(Key<StartedService>(named: "service\(need)")) }
                try await Task.sleep(nanoseconds: UInt64(sleep) * 1_000_000)
                return StartedService(name: "service\(index)")
            }.in(.eagerSingleton)
        }
    }
}

/// The same start-up wired by hand: a task per service that awaits the tasks of the services it
/// needs, then sleeps. What concurrency itself allows with these sleeps on this machine, the
/// floor against which `Injector.start` is read, beside the critical path.
func handWiredStart(_ graph: StartGraph) async throws -> [StartedService] {
    var tasks: [Task<StartedService, any Error>] = []
    for index in graph.sleeps.indices {
        let needs = graph.needs[index].map { tasks[$0] }
        let sleep = graph.sleeps[index]
        tasks.append(Task {
            for need in needs { _ = try await need.value }
            try await Task.sleep(nanoseconds: UInt64(sleep) * 1_000_000)
            return StartedService(name: "service\(index)")
        })
    }
    var services: [StartedService] = []
    for task in tasks { services.append(try await task.value) }
    return services
}

/// Times `Injector.start` of the start graph and the same start-up wired by hand, `rounds` times
/// each, interleaved (one of each per round, in alternating order); the milliseconds of each.
func startTimes(rounds: Int) throws -> (sightless: [Double], handWired: [Double]) {
    let graph = StartGraph.reference
    let sightless = StartTimes(), handWired = StartTimes()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        func timeSightless() async {
            let start = DispatchTime.now().uptimeNanoseconds
            do {
                let injector = try await Injector.start(modules: [StartModule(graph: graph)])
                sightless.add(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
                withExtendedLifetime(injector) {}
            } catch {
                sightless.fail("\(error)")
            }
        }
        func timeHandWired() async {
            let start = DispatchTime.now().uptimeNanoseconds
            do {
                let services = try await handWiredStart(graph)
                handWired.add(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
                withExtendedLifetime(services) {}
            } catch {
                handWired.fail("\(error)")
            }
        }
        for round in 0..<rounds {
            if round.isMultiple(of: 2) {
                await timeSightless()
                await timeHandWired()
            } else {
                await timeHandWired()
                await timeSightless()
            }
        }
        done.signal()
    }
    done.wait()
    return (try sightless.all(), try handWired.all())
}

final class StartTimes: @unchecked Sendable {
    private let lock = NSLock()
    private var times: [Double] = []
    private var failure: String?
    func add(_ time: Double) { lock.lock(); times.append(time); lock.unlock() }
    func fail(_ message: String) { lock.lock(); failure = message; lock.unlock() }
    func all() throws -> [Double] {
        lock.lock()
        defer { lock.unlock() }
        if let failure { throw BenchmarkFailure(description: failure) }
        return times
    }
}

/// The line the benchmark prints for the start case.
func startReport(rounds: Int) throws -> String {
    let graph = StartGraph.reference
    let (sightless, handWired) = try startTimes(rounds: rounds)
    let median = sightless.sorted()[sightless.count / 2]
    let floor = handWired.sorted()[handWired.count / 2]
    return String(format: "start: 200 eager singletons awaited by Injector.start: median %.1f ms of %d rounds; "
                  + "wired by hand with a task each: %.1f ms (%.2f ×); critical path %d ms (%.2f ×); "
                  + "one at a time %d ms", median, rounds, floor, median / floor, graph.criticalPath,
                  median / Double(graph.criticalPath), graph.sequential)
}
