import Foundation

// Sightless against hand-wired code and Swinject, on the reference workload of
// Documentation/Performance.md:
//
//     swift run -c release --package-path Benchmarks [--quick] [--json FILE] [--svg FILE] [--cases a,b]

var arguments = CommandLine.arguments.dropFirst()
var settings = Settings.full
var mode = "full"
var jsonPath: String?
var svgPath: String?
var selected: Set<String>?
var profile: (name: String, contender: String, count: Int)?
while let argument = arguments.popFirst() {
    switch argument {
    case "--quick":
        settings = .quick
        mode = "quick"
    case "--json": jsonPath = arguments.popFirst()
    case "--svg": svgPath = arguments.popFirst()
    case "--profile":
        // Runs one case of one contender a given number of times, untimed: for instruction
        // counts under valgrind --tool=callgrind.
        profile = (arguments.popFirst() ?? "", arguments.popFirst() ?? "", Int(arguments.popFirst() ?? "") ?? 0)
    case "--cases": selected = Set((arguments.popFirst() ?? "").split(separator: ",").map(String.init))
    case "--help", "-h":
        print("""
        usage: SightlessBenchmarks [--quick] [--json FILE] [--svg FILE] [--cases graph,leaf,singleton,factory,app-graph,compile,contended,memory,start]
                   (--cases app-launch, only when named: the first and a later build of an app's injector, by wall clock)
               SightlessBenchmarks --profile CASE CONTENDER COUNT
                   runs one case COUNT times, untimed, for valgrind --tool=callgrind
                   (CASE: graph, leaf, singleton, singleton-handle, factory, app-graph, async-graph, async-factory,
                    async-graph-by-value (hand-wired only), async-singleton,
                    server, server-async, child, child-large,
                    app-launch (COUNT 0 builds nothing: the baseline of the first build), app-launch-screen,
                    app-launch-check,
                    per-request-value, per-request-unscoped, server-pool, server-pool-sync,
                    child-adhoc, child-adhoc-large, composition-alias, composition-contextual, composition-auto-wired,
                    composition-decorated, composition-decorated-resolver, main-actor, launch-path, compile-chain, compile-fan;
                    CONTENDER: hand-wired, Sightless, Swinject)
               SightlessBenchmarks --profile read-where-it-stands WAY COUNT
                   (WAY: constructor-first, constructor-later, injected-first, injected-later, injection-later,
                    dependency-first, dependency-later, child-shutdown, with-child)
        """)
        exit(0)
    default:
        FileHandle.standardError.write(Data("unknown argument \(argument); see --help\n".utf8))
        exit(2)
    }
}

@MainActor func wants(_ name: String) -> Bool { selected?.contains(name) ?? true }

/// A compile case's injector and deepest object in `--profile` mode, never freed.
nonisolated(unsafe) var keptUntilExit: Built?

if let profile {
    // The cases that need none of the reference contenders run before they are made: the first
    // app-launch build must be the first of its process.
    let early = ["app-launch", "app-launch-screen", "app-launch-check", "per-request-value", "per-request-unscoped", "server-pool",
                 "server-pool-sync"]
    if early.contains(profile.name) {
        let sink = Sink()
        let contender = Contender(rawValue: profile.contender) ?? .sightless
        do {
            switch profile.name {
            case "app-launch": try appLaunch(contender, profile.count, sink)
            case "app-launch-screen": try appLaunch(contender, profile.count, sink, screen: true)
            case "app-launch-check": try appLaunchCheck()
            case "per-request-value": try perRequestValues(contender, scoped: true, profile.count, sink)
            case "per-request-unscoped": try perRequestValues(contender, scoped: false, profile.count, sink)
            default: try runServerPool(profile.name, contender, profile.count, sink)
            }
            print(sink.checksum)
        } catch let fails as CaseFails {
            print("fails: \(fails.reason)")
        } catch {
            print("failed: \(error)")
        }
        exit(0)
    }
    do {
        let contenders = try Contenders()
        let sink = Sink()
        let contender = Contender(rawValue: profile.contender) ?? .sightless
        switch profile.name {
        case "graph": try contenders.graph(contender, profile.count, sink)
        case "leaf": try contenders.leaf(contender, profile.count, sink)
        case "singleton": try contenders.singleton(contender, profile.count, sink)
        case "singleton-handle": try contenders.singletonHandle(profile.count, sink)
        case "factory": try contenders.factory(contender, profile.count, sink)
        case "app-graph": try contenders.appGraph(contender, profile.count, sink)
        case "async-graph": try runAsyncGraph(contenders, contender, profile.count, sink)
        case "async-factory": try runAsyncGraph(contenders, contender, throughFactory: true, profile.count, sink)
        case "async-graph-by-value": try runAsyncGraphByValue(contenders, profile.count, sink)
        case "async-singleton", "server", "server-async": try runServer(profile.name, contender, profile.count, sink)
        case "child": try childRequests(contender, parentBindings: 10, profile.count, sink)
        case "per-request-handler": try scopedWorkHandlers(contender, scoped: true, profile.count, sink)
        case "per-request-handler-unscoped": try scopedWorkHandlers(contender, scoped: false, profile.count, sink)
        case "child-large": try childRequests(contender, parentBindings: 10_000, profile.count, sink)
        case "child-adhoc": try childRequests(contender, parentBindings: 10, adHoc: true, profile.count, sink)
        case "child-adhoc-large": try childRequests(contender, parentBindings: 10_000, adHoc: true, profile.count, sink)
        case "composition-alias": try compositionRequests("alias", contender, profile.count, sink)
        case "composition-contextual": try compositionRequests("contextual", contender, profile.count, sink)
        case "composition-auto-wired": try compositionRequests("auto-wired", contender, profile.count, sink)
        case "composition-decorated": try compositionRequests("decorated", contender, profile.count, sink)
        case "composition-decorated-resolver": try compositionRequests("decorated-resolver", contender, profile.count, sink)
        case "main-actor": try mainActorRequests(contender, profile.count, sink)
        case "launch-path": try launchPathRequests(contender, profile.count, sink)
        case "read-where-it-stands": try standingReads(profile.contender, profile.count, sink)
        // What a compile case built is kept until the process exits, so that tearing it down is
        // never counted (as the timed mode frees it off the clock); dropped here, whether its
        // release came before `exit` or not depended on the optimizer.
        case "compile-chain": keptUntilExit = onLargeStack { try? compileSightless(.chain, size: profile.count) }
        case "compile-fan": keptUntilExit = onLargeStack { try? compileSightless(.fan, size: profile.count) }
        default: print("unknown case \(profile.name)")
        }
        print(sink.checksum)
    } catch {
        print("failed: \(error)")
    }
    exit(0)
}

do {
    var report = Report(mode: mode, settings: settings)
    // Only when named, and before anything else is made: its first builds are the process's.
    let launchLine = selected?.contains("app-launch") == true ? try launchReport(settings) : nil
    let contenders = try Contenders()
    let sink = Sink()

    // The contenders of a case take their rounds in turn (see `measure`).
    if wants("graph") {
        let samples = try measure(settings, Contender.allCases.map { contender in { n in try contenders.graph(contender, n, sink) } })
        for (contender, sample) in zip(Contender.allCases, samples) { report.add(.init(name: "graph", contender: contender, sample: sample)) }
    }
    if wants("leaf") {
        let samples = try measure(settings, Contender.allCases.map { contender in { n in try contenders.leaf(contender, n, sink) } })
        for (contender, sample) in zip(Contender.allCases, samples) { report.add(.init(name: "leaf", contender: contender, sample: sample)) }
    }
    if wants("singleton") {
        let batches: [(Int) throws -> Void] = [
            { n in try contenders.singleton(.handWired, n, sink) },
            { n in try contenders.singleton(.sightless, n, sink) },
            { n in try contenders.singletonHandle(n, sink) },
            { n in try contenders.singleton(.swinject, n, sink) },
        ]
        let samples = try measure(settings, batches)
        report.add(.init(name: "singleton", contender: .handWired, sample: samples[0]))
        report.add(.init(name: "singleton", contender: .sightless, sample: samples[1]))
        report.add(.init(name: "singleton-handle", contender: .sightless, sample: samples[2]))
        report.add(.init(name: "singleton", contender: .swinject, sample: samples[3]))
    }
    if wants("factory") {
        let samples = try measure(settings, Contender.allCases.map { contender in { n in try contenders.factory(contender, n, sink) } })
        for (contender, sample) in zip(Contender.allCases, samples) { report.add(.init(name: "factory", contender: contender, sample: sample)) }
    }
    if wants("app-graph") {
        let samples = try measure(settings, Contender.allCases.map { contender in { n in try contenders.appGraph(contender, n, sink) } })
        for (contender, sample) in zip(Contender.allCases, samples) { report.add(.init(name: "app-graph", contender: contender, sample: sample)) }
    }
    sink.clear()

    if wants("compile") {
        for size in settings.compileSizes {
            for shape in Shape.allCases {
                let sightless = try compileTimes(settings, size: size) { try compileSightless(shape, size: size) }
                report.add(.init(name: "compile-\(size)-\(shape)", contender: .sightless, sample: sightless))
                if shape == .fan {
                    let swinject = try compileTimes(settings, size: size) { try compileSwinject(size: size) }
                    report.add(.init(name: "compile-\(size)-\(shape)", contender: .swinject, sample: swinject))
                }
            }
        }
    }

    if wants("contended") {
        // What the machine itself gives two threads at this moment: a loop of arithmetic that
        // shares nothing. The contenders cannot scale better than this.
        let spin = try contendedScaling(settings) { n, sink in
            var value: UInt = 0
            for index in 0..<UInt(n) { value = value &* 6364136223846793005 &+ index }
            sink.take(value as AnyObject)
        }
        report.addScaling(name: "contended-machine", contender: .handWired, spin)
        for graph in [true, false] {
            for contender in Contender.allCases {
                let scaling = try contendedScaling(settings) { n, sink in
                    try contenders.shared(contender, graph: graph, n, sink)
                }
                report.addScaling(name: graph ? "contended-graph" : "contended-singleton", contender: contender, scaling)
            }
        }
    }

    if wants("memory") {
        for contender in Contender.allCases {
            let memorySink = Sink()
            try contenders.graph(contender, 1_000, memorySink)
            let before = residentBytes()
            try contenders.graph(contender, settings.memoryRequests, memorySink)
            memorySink.clear()
            let after = residentBytes()
            report.addMemory(contender: contender, requests: settings.memoryRequests, before: before, after: after)
        }
        // The same number of handlers, each built in a template child of its own (Swinject has
        // no templates; hand-wired builds the handlers alone).
        for contender in [Contender.handWired, .sightless] {
            let memorySink = Sink()
            try childRequests(contender, parentBindings: 0, 1_000, memorySink)
            let before = residentBytes()
            try childRequests(contender, parentBindings: 0, settings.memoryRequests, memorySink)
            memorySink.clear()
            let after = residentBytes()
            report.addMemory(name: "child", contender: contender, requests: settings.memoryRequests, before: before,
                             after: after)
        }
    }

    print(report.table())
    if wants("start") { print(try startReport(rounds: settings.rounds)) }
    if let launchLine { print(launchLine) }
    if let jsonPath { try report.json().write(to: URL(fileURLWithPath: jsonPath)) }
    if let svgPath { try report.svg().write(toFile: svgPath, atomically: true, encoding: .utf8) }
} catch {
    FileHandle.standardError.write(Data("benchmark failed: \(error)\n".utf8))
    exit(1)
}

/// Times building an injector of `size` bindings and resolving its deepest key, on a large
/// stack: each round adds up single builds until they fill a round; freeing each build happens
/// after its clock stops.
func compileTimes(_ settings: Settings, size: Int, _ build: @escaping @Sendable () throws -> Built) throws -> Sample {
    let result: Result<Sample, any Error> = onLargeStack {
        Result {
            // Each build is freed before the next starts, off the clock: tearing down is not
            // compiling, and two large injectors alive at once would only measure the memory.
            var kept: Built? = try build()   // warm-up
            var sample = Sample(perOperation: [])
            for _ in 0..<settings.compileRounds {
                var total: UInt64 = 0
                var count = 0
                while count == 0 || total < settings.roundNanoseconds {
                    kept = nil
                    let start = now()
                    let built = try build()
                    total += now() - start
                    kept = built
                    count += 1
                }
                sample.perOperation.append(Double(total) / Double(count))
            }
            withExtendedLifetime(kept) {}
            return sample
        }
    }
    return try result.get()
}

/// Throughput of two threads running the case at once, against one thread running it alone.
func contendedScaling(_ settings: Settings, _ batch: @escaping @Sendable (Int, Sink) throws -> Void) throws -> Scaling {
    // Find how many operations fill the time of one round on one thread.
    let calibrationSink = Sink()
    var roundSettings = settings
    roundSettings.roundNanoseconds = settings.contendedNanoseconds
    roundSettings.rounds = 1
    let single = try measure(roundSettings) { n in try batch(n, calibrationSink) }
    calibrationSink.clear()
    let n = max(1, Int(Double(settings.contendedNanoseconds) / single.best))
    let failure = FailureBox()
    var ratios: [Double] = []
    var oneThread: [Double] = []
    var twoThreads: [Double] = []
    for _ in 0..<settings.rounds {
        let alone = runThreads(1) { _ in failure.run { let sink = Sink(); try batch(n, sink) } }
        let together = runThreads(2) { _ in failure.run { let sink = Sink(); try batch(n, sink) } }
        let throughputAlone = Double(n) / Double(alone)
        let throughputTogether = Double(2 * n) / Double(together)
        oneThread.append(Double(alone) / Double(n))
        twoThreads.append(Double(together) / Double(2 * n))
        ratios.append(throughputTogether / throughputAlone)
    }
    try failure.check()
    return Scaling(ratios: ratios, oneThread: Sample(perOperation: oneThread), twoThreads: Sample(perOperation: twoThreads))
}

/// The first error thrown on a worker thread.
final class FailureBox: @unchecked Sendable {
    private let lock = NSLock()
    private var error: (any Error)?

    func run(_ body: () throws -> Void) {
        do { try body() } catch { lock.withLock { self.error = self.error ?? error } }
    }

    func check() throws {
        if let error = lock.withLock({ error }) { throw error }
    }
}
