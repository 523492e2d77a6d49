@testable import Sightless
import Synchronization
import Testing

// The nodes an injector compiles on their first request go into an index filled in place; it
// grows by doubling, so the indexes it keeps for readers hold at most twice the entries of the
// newest, however many keys are compiled one by one.

private final class Counted: Injectable {
    init() {}
    static let initializer = Initializer(Counted.init)
}

private final class Counts: Sendable {
    let compiled = Atomic<Int>(0)
    let missed = Atomic<Int>(0)
}

@Suite("Nodes compiled later")
struct LaterIndexTests {
    @Test("3,000 keys compiled one by one are each found again, and the kept indexes grow linearly")
    func growsLinearly() throws {
        let injector = try Injector(Bindings { binder in
            for index in 0..<3_000 { binder.bind(Key<Counted>(named: "k\(index)")).to { _ in Counted() } }
        })
        var firsts: [ObjectIdentifier] = []
        for index in 0..<3_000 {
            // An optional of a bound key is compiled on its first request.
            _ = try injector.getInstance(Key<Counted?>(named: "k\(index)"))
            firsts.append(ObjectIdentifier(try #require(injector.nodes.node(for: AnyKey(Key<Counted?>(named: "k\(index)"))))))
        }
        // Each key is found in the index, as the same node.
        for index in 0..<3_000 {
            let node = try #require(injector.nodes.reference(type: Counted?.self, name: "k\(index)")?.object)
            #expect(ObjectIdentifier(node) == firsts[index])
        }
        let capacities = injector.nodes.laterCapacities
        let newest = try #require(capacities.last)
        #expect(newest >= 3_000 * 4 && newest <= 3_000 * 8)
        #expect(capacities.reduce(0, +) <= 2 * newest)
    }

    @Test("readers find every key compiled later while another thread compiles more")
    func readersDuringCompiles() async throws {
        let injector = try Injector(Bindings { binder in
            for index in 0..<2_000 { binder.bind(Key<Counted>(named: "k\(index)")).to { _ in Counted() } }
        })
        let counts = Counts()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for index in 0..<2_000 {
                    _ = try? injector.getInstance(Key<Counted?>(named: "k\(index)"))
                    counts.compiled.store(index + 1, ordering: .releasing)
                }
            }
            for _ in 0..<2 {
                group.addTask {
                    while counts.compiled.load(ordering: .acquiring) < 2_000 {
                        let done = counts.compiled.load(ordering: .acquiring)
                        for index in stride(from: 0, to: done, by: 7)
                        where injector.nodes.reference(type: Counted?.self, name: "k\(index)") == nil {
                            counts.missed.add(1, ordering: .relaxed)
                        }
                    }
                }
            }
        }
        #expect(counts.missed.load(ordering: .relaxed) == 0)
    }
}
