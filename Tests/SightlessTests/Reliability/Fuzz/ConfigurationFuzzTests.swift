#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Sightless
import Synchronization
import Testing

// Random module configurations (see FuzzConfiguration.swift), thousands per run: whatever the
// bindings, every request must end in a value or an InjectionError, never a crash or a hang,
// and a value must come from the binding the configuration says, with the dynamic values
// some request passed. A crash prints the seed of the case that caused it. Each run is seeded:
//
//   SIGHTLESS_SEED=n swift test --filter ConfigurationFuzzTests        replays case n (printed)
//   SIGHTLESS_SEED_FROM=n swift test --filter ConfigurationFuzzTests   runs the cases from n on
//   SIGHTLESS_FUZZ_STATS=1 …                                           prints what the run saw

private let fzCaseCount: UInt64 = 3_000
/// The fuzz thread's stack: 512 KiB, the default of a secondary thread on several platforms.
private let fzStackSize = 512 * 1024
/// The work one case may do (requests, Lazy.get, Factory.make made by its bindings).
private let fzFuel = 300
/// How long one case may run before the watchdog calls it a hang: each case takes milliseconds,
/// and the whole run minutes under a sanitizer on a loaded machine.
private let fzWatchdogSeconds = 120.0

private func fzEnvironment(_ name: String) -> UInt64? {
    guard let value = getenv(name) else { return nil }
    return UInt64(String(cString: value))
}

private func fzReplay(_ seed: UInt64) -> String {
    "replay with: SIGHTLESS_SEED=\(seed) swift test --filter ConfigurationFuzzTests"
}

/// What the run saw, for the failure messages and the optional summary.
private struct FzTally {
    var cases = 0
    var rejectedAtBuild = 0
    var values = 0
    var errors: [InjectionError.Kind: Int] = [:]
    var failures: [(seed: UInt64, message: String)] = []

    /// Records a failure, and prints it at once: a later case may crash the process before
    /// the test records its issues.
    mutating func fail(_ seed: UInt64, _ message: String) {
        print("configuration fuzz: seed \(seed): \(message)")
        failures.append((seed, message))
    }
}

/// Runs one case and adds what it saw to `tally`.
private func fzRunCase(_ seed: UInt64, into tally: inout FzTally, verbose: Bool) {
    var random = SeededGenerator(seed: seed)
    let configuration = FzConfiguration.random(using: &random)
    if verbose { print("configuration fuzz, seed \(seed):\n\(configuration)") }
    let model = FzModel(bindings: configuration.bindings)
    let context = FzContext(fuel: fzFuel)
    tally.cases += 1
    var injector: Injector?
    do {
        injector = try Injector(FzModule(configuration: configuration, context: context))
    } catch {
        tally.rejectedAtBuild += 1
        if verbose { print("rejected at build: \(error)") }
        for corruption in context.corruptions { tally.fail(seed, corruption) }
        return
    }
    var kept: [FzNode] = []
    func record(_ error: any Error, _ what: String) {
        if let error = error as? InjectionError {
            tally.errors[error.kind, default: 0] += 1
            if verbose { print("\(what) threw \(error.kind): \(error)") }
        } else {
            tally.fail(seed, "\(what) threw a non-InjectionError: \(error)")
        }
    }
    for request in configuration.requests {
        guard let current = injector else { break }
        do {
            guard let node = try FzRequester.perform(request, current, context) else {
                tally.values += 1
                continue
            }
            tally.values += 1
            if verbose { print("\(request) → \(node.origin) \(node.dynamics)") }
            kept.append(node)
            if let failure = fzCheck(node, request, model, configuration) {
                tally.fail(seed, "\(request): \(failure)")
            }
        } catch {
            record(error, "\(request)")
        }
    }
    if configuration.releaseBeforeDeferredUse { injector = nil }
    for node in kept {
        for deferred in node.deferred {
            do { try FzRequester.use(deferred, context) } catch { record(error, "using a kept \(deferred)") }
        }
    }
    for corruption in context.corruptions { tally.fail(seed, corruption) }
    _ = injector
}

/// What is wrong with the object a request returned, if anything the model can tell.
private func fzCheck(_ node: FzNode, _ request: FzRequest, _ model: FzModel, _ configuration: FzConfiguration) -> String? {
    switch request.key {
    case .node(let index):
        if let origin = model.origin(of: index), node.origin != origin {
            return "returned an object built by \(node.origin), expected one built by \(origin)"
        }
        guard let chain = model.chain(from: index), !chain.singleton,
              let kinds = model.dynamics(of: request.key), !kinds.isEmpty,
              kinds == request.arguments.kinds else { return nil }
        if chain.pool.map({ pool in configuration.poolBindings.contains { $0.pool == pool && $0.singleton } }) == true {
            return nil
        }
        guard node.dynamics == request.arguments.values else {
            return "the object received the dynamic values \(node.dynamics), but the request passed \(request.arguments)"
        }
        return nil
    case .pool(let pool):
        guard !pool.dynamics.isEmpty, pool.dynamics == request.arguments.kinds,
              !configuration.poolBindings.contains(where: { $0.pool == pool && $0.singleton }) else { return nil }
        guard node.dynamics == request.arguments.values else {
            return "the \(pool) received the dynamic values \(node.dynamics), but the request passed \(request.arguments)"
        }
        return nil
    default:
        return nil
    }
}

/// Shared between the test and the fuzz thread.
private final class FzRun: Sendable {
    let seeds: [UInt64]
    let verbose: Bool
    let current = Atomic<UInt64>(0)
    /// How many cases have started: the watchdog's measure of progress.
    let started = Atomic<UInt64>(0)
    let tally = Locked(FzTally())
    init(seeds: [UInt64], verbose: Bool) {
        self.seeds = seeds
        self.verbose = verbose
    }
}

@Suite("Configuration fuzz")
struct ConfigurationFuzzTests {
    @Test("every request of a random module configuration ends in a value or an InjectionError, never a crash or a hang")
    func randomConfigurations() async {
        let seeds: [UInt64]
        if let seed = fzEnvironment("SIGHTLESS_SEED") {
            seeds = [seed]
        } else {
            let first = fzEnvironment("SIGHTLESS_SEED_FROM") ?? 0
            seeds = Array(first..<first + fzCaseCount)
        }
        let run = FzRun(seeds: seeds, verbose: seeds.count == 1)
        FzCrashReporter.install()
        defer { FzCrashReporter.uninstall() }
        let outcome = await regressionRunOffPool(
            stackSize: fzStackSize, timeout: fzWatchdogSeconds,
            progress: { run.started.load(ordering: .relaxed) }
        ) {
            let alternateStack = FzCrashReporter.adoptThread()
            defer { FzCrashReporter.leaveThread(alternateStack) }
            var tally = FzTally()
            for seed in run.seeds {
                run.current.store(seed, ordering: .relaxed)
                run.started.add(1, ordering: .relaxed)
                FzCrashReporter.setMessage("\nconfiguration fuzz: crashed in the case of seed \(seed); \(fzReplay(seed))\n")
                fzRunCase(seed, into: &tally, verbose: run.verbose)
            }
            run.tally.withLock { $0 = tally }
        }
        if outcome.timedOut {
            let seed = run.current.load(ordering: .relaxed)
            Issue.record("the case of seed \(seed) did not finish within \(Int(fzWatchdogSeconds)) s: a hang. \(fzReplay(seed))")
            return
        }
        let tally = run.tally.withLock { $0 }
        #expect(tally.cases == seeds.count)
        for (seed, message) in tally.failures.prefix(20) {
            Issue.record("seed \(seed): \(message)\n\(fzReplay(seed))")
        }
        if getenv("SIGHTLESS_FUZZ_STATS") != nil {
            let kinds = tally.errors.sorted { $0.value > $1.value }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
            print("configuration fuzz: \(tally.cases) cases, \(tally.rejectedAtBuild) rejected at build, \(tally.values) values, errors: \(kinds)")
        }
    }
}
