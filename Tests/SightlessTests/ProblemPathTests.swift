@testable import Sightless
import Testing

// How a problem writes its path: in full when it is short; shortened when keys repeat at its end
// (a value whose building asks for it again) or when it is long.

private struct A {}
private struct B {}
private struct Root {}

private func keys(_ names: [String]) -> [AnyKey] { names.map { AnyKey(Key<Root>(named: $0)) } }
private func problem(_ path: [AnyKey], _ detail: InjectionError.Problem.Detail = .tooDeep(depth: 40, stackSize: 512 * 1024)) -> InjectionError.Problem {
    InjectionError.Problem(detail, path: path)
}

@Suite("Problem paths")
struct ProblemPathTests {
    @Test("a path of up to twelve keys is written in full")
    func shortPathInFull() {
        let path = keys((0..<12).map { "k\($0)" })
        #expect(problem(path).pathDescription == path.map(\.description).joined(separator: " → "))
    }

    @Test("a longer path without repeats keeps its first and last five keys and counts the rest")
    func longPathShortened() {
        let path = keys((0..<48).map { "k\($0)" })
        let head = path.prefix(5).map(\.description), tail = path.suffix(5).map(\.description)
        #expect(problem(path).pathDescription == (head + ["… 38 more …"] + tail).joined(separator: " → "))
    }

    @Test("one key repeating to the end of the path is written once with its count")
    func repeatingKey() {
        let path = Array(repeating: AnyKey(Key<A>()), count: 1262)
        #expect(problem(path).pathDescription == "[\(AnyKey(Key<A>()))] × 1262")
    }

    @Test("keys repeating after others are written once, with their count, after those others")
    func repeatingPairAfterPrefix() {
        let a = AnyKey(Key<A>()), b = AnyKey(Key<B>()), root = AnyKey(Key<Root>())
        let path = [root] + Array([[a, b], [a, b], [a, b], [a, b], [a, b]].joined())
        #expect(problem(path).pathDescription == "\(root) → [\(a) → \(b)] × 5")
    }

    @Test("a cycle that starts part-way through a copy counts only whole copies")
    func partialCopyGoesToThePrefix() {
        let a = AnyKey(Key<A>()), b = AnyKey(Key<B>())
        // b, then (a → b) three times: the shortest repeat is a → b, and the lone b comes first.
        #expect(problem([b, a, b, a, b, a, b]).pathDescription == "\(b) → [\(a) → \(b)] × 3")
    }

    @Test("keys that repeat only twice are written in full")
    func twoCopiesInFull() {
        let a = AnyKey(Key<A>()), b = AnyKey(Key<B>())
        #expect(problem([a, b, a, b]).pathDescription == "\(a) → \(b) → \(a) → \(b)")
        #expect(PathCycle([a, b, a, b]) == nil)
    }

    @Test("a repeat of more than eight keys is not taken for a recursion")
    func longPeriodIgnored() {
        let period = keys((0..<9).map { "k\($0)" })
        #expect(PathCycle(period + period + period) == nil)
    }

    @Test("a stack that ran out on a repeating path says which keys repeat and how to stop the recursion")
    func tooDeepRecursionExplained() {
        let a = AnyKey(Key<A>())
        let recursive = problem(Array(repeating: a, count: 30))
        #expect(recursive.message.hasSuffix("\(a) repeats 30 times along the path."))
        #expect(recursive.fix.hasPrefix("If building \(a) asks an injector for \(a) again"))
        let chain = problem(keys((0..<30).map { "k\($0)" }))
        #expect(!chain.message.contains("repeats"))
        #expect(chain.fix.hasPrefix("Request it on a thread with a larger stack"))
    }

    @Test("other kinds keep their message and fix on a repeating path")
    func otherKindsUnchanged() {
        let a = AnyKey(Key<A>())
        let shutDown = problem(Array(repeating: a, count: 5), .injectorShutDown(key: a))
        #expect(shutDown.message == ProblemText.message(.injectorShutDown(key: a)))
        #expect(shutDown.fix == ProblemText.fix(.injectorShutDown(key: a)))
    }
}
