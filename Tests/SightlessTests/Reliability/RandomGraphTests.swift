#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Sightless
import Testing

/// The seeds CI runs, or the one seed in `SIGHTLESS_SEED` to replay a failure.
private func seeds(_ range: Range<UInt64>) -> [UInt64] {
    if let value = getenv("SIGHTLESS_SEED"), let seed = UInt64(String(cString: value)) { return [seed] }
    return Array(range)
}

/// Mostly small graphs, with a large one every 50 seeds.
private func randomSpec(seed: UInt64) -> (GraphSpec, SeededGenerator) {
    var random = SeededGenerator(seed: seed)
    let spec = GraphSpec.random(using: &random, maximumKeys: seed % 50 == 0 ? 300 : 40)
    return (spec, random)
}

private func replay(_ seed: UInt64) -> String {
    "replay with: SIGHTLESS_SEED=\(seed) swift test --filter RandomGraphTests"
}

@Suite("Random graphs")
struct RandomGraphTests {
    static let graphs: Range<UInt64> = 0..<2_000

    @Test("every object of a random valid graph is built, shared and argued as the model says")
    func validGraphsMatchTheModel() {
        for seed in seeds(Self.graphs) {
            var (spec, random) = randomSpec(seed: seed)
            let ledger = BuildLedger()
            let injector: Injector
            do {
                injector = try Injector(GraphModule(spec: spec, ledger: ledger))
            } catch {
                Issue.record("seed \(seed): the valid graph was rejected: \(error)\n\(spec)\n\(replay(seed))")
                continue
            }
            var checker = GraphChecker(spec: spec, ledger: ledger)
            let order = (Array(spec.bindings.indices) + Array(spec.bindings.indices)).shuffled(using: &random)
            for (request, index) in order.enumerated() {
                checker.request(index, injector: injector, request: request)
            }
            checker.finish()
            if !checker.failures.isEmpty {
                Issue.record("seed \(seed):\n\(checker.failures.prefix(5).joined(separator: "\n"))\n\(spec)\n\(replay(seed))")
            }
        }
    }

    @Test("each break of a random valid graph is reported as the right error with the right path")
    func brokenGraphsReportTheRightError() {
        for seed in seeds(Self.graphs) {
            var (spec, random) = randomSpec(seed: seed)
            guard let mutation = GraphMutation.random(of: spec, using: &random) else { continue }
            let ledger = BuildLedger()
            let failure: String?
            switch mutation.expected {
            case .build(let kind, let matches):
                do {
                    _ = try Injector(GraphModule(spec: mutation.spec, ledger: ledger))
                    failure = "the injector was built"
                } catch {
                    failure = error.problems.contains { $0.kind == kind && matches($0) }
                        ? nil : "expected a \(kind) problem with the right path, got:\n\(error)"
                }
            case .request(let index, let arguments, let kind, let matches):
                do {
                    let injector = try Injector(GraphModule(spec: mutation.spec, ledger: ledger))
                    _ = try GraphChecker.getInstance(GraphSpec.key(index), arguments, injector)
                    failure = "the request succeeded"
                } catch let error as InjectionError {
                    failure = error.kind == kind && matches(error) ? nil : "expected \(kind), got:\n\(error)"
                } catch {
                    failure = "expected \(kind), got \(error)"
                }
            }
            if let failure {
                Issue.record("seed \(seed), \(mutation): \(failure)\n\(mutation.spec)\n\(replay(seed))")
            }
        }
    }
}
