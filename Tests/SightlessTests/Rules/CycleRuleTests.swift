@testable import Sightless
import Testing

private final class CycleOne: Injectable {
    init(two: CycleTwo) {}
    static let initializer = Initializer(CycleOne.init(two:))
}
private final class CycleTwo: Injectable {
    init(one: CycleOne) {}
    static let initializer = Initializer(CycleTwo.init(one:))
}
private final class CycleLazyOne: Injectable {
    init(two: Lazy<CycleLazyTwo>) {}
    static let initializer = Initializer(CycleLazyOne.init(two:))
}
private final class CycleLazyTwo: Injectable {
    init(one: CycleLazyOne) {}
    static let initializer = Initializer(CycleLazyTwo.init(one:))
}
private final class CycleSelf: Injectable {
    init(me: CycleSelf) {}
    static let initializer = Initializer(CycleSelf.init(me:))
}
private final class CycleLink {
    init() {}
}

/// Binds `Key<CycleLink>(named: "n")` for each `n`, each needing the keys listed with it.
private func links(_ needs: [(String, [String])]) -> (Binder) -> Void {
    { binder in
        for (name, needed) in needs {
            switch needed.count {
            case 0: binder.bind(Key<CycleLink>(named: name)).to(Initializer { CycleLink() })
            case 1: binder.bind(Key<CycleLink>(named: name))
                .to(Initializer({ (_: CycleLink) in CycleLink() }, .named(needed[0])))
            default: binder.bind(Key<CycleLink>(named: name))
                .to(Initializer({ (_: CycleLink, _: CycleLink) in CycleLink() }, .named(needed[0]), .named(needed[1])))
            }
        }
    }
}

private func link(_ name: String) -> AnyKey { Key<CycleLink>(named: name).erased }

private func cycleKeys(_ problems: [InjectionError.Problem]) -> [[AnyKey]] {
    problems.compactMap { problem in
        guard case .cycle(let keys) = problem.detail else { return nil }
        return keys
    }
}

@Suite("Rule: cycle")
struct CycleRuleTests {
    @Test("two types that need each other are one cycle, first key repeated at the end")
    func twoTypeCycle() {
        let problems = CycleRule().check(ruleGraph { $0.bind(CycleOne.self) })
        #expect(problems.count == 1)
        guard case .cycle(let keys)? = problems.first?.detail else {
            Issue.record("expected a cycle, got \(problems)")
            return
        }
        #expect(keys == [Key<CycleOne>().erased, Key<CycleTwo>().erased, Key<CycleOne>().erased])
    }

    @Test("a type that needs itself is a cycle of one key")
    func selfCycle() {
        let problems = CycleRule().check(ruleGraph { $0.bind(CycleSelf.self) })
        guard case .cycle(let keys)? = problems.first?.detail else {
            Issue.record("expected a cycle, got \(problems)")
            return
        }
        #expect(problems.count == 1)
        #expect(keys == [Key<CycleSelf>().erased, Key<CycleSelf>().erased])
    }

    @Test("a chain of 10,000 keys, each needing the one before, is no cycle")
    func longChainIsNoCycle() {
        let chain = [("0", [])] + (1..<10_000).map { (String($0), [String($0 - 1)]) }
        #expect(CycleRule().check(ruleGraph(links(chain))).isEmpty)
    }

    @Test("the cycles at the end of a long chain are reported once, as the shortest through their keys, under the dependency they share")
    func cycleBehindChain() {
        // 0 ⇄ 1, and 1 → 3 → 0 a longer way round, behind a chain 999 → … → 4 → 3.
        let chain = [("0", ["1"]), ("1", ["0", "3"]), ("3", ["0"])]
            + (4..<1_000).map { (String($0), [String($0 - 1)]) }
        let problems = CycleRule().check(ruleGraph(links(chain)))
        #expect(problems.count == 1)
        guard case .cyclesThrough(let consumer, let dependency, let cycles)? = problems.first?.detail else {
            Issue.record("expected cycles through one dependency, got \(problems)")
            return
        }
        #expect(consumer == link("0") && dependency == link("1"))
        #expect(cycles == [[link("0"), link("1"), link("0")], [link("0"), link("1"), link("3"), link("0")]])
    }

    @Test("one dependency that closes several cycles is reported once, with the cycles it closes")
    func dependencyClosingSeveralCycles() {
        // app → feed → store and app → inbox → store; store → app is the one wrong edge.
        let graph = links([("app", ["feed", "inbox"]), ("feed", ["store"]), ("inbox", ["store"]), ("store", ["app"])])
        let problems = CycleRule().check(ruleGraph(graph))
        #expect(problems.count == 1)
        guard case .cyclesThrough(let consumer, let dependency, let cycles)? = problems.first?.detail else {
            Issue.record("expected cycles through one dependency, got \(problems)")
            return
        }
        #expect(consumer == link("store") && dependency == link("app"))
        #expect(cycles == [
            [link("store"), link("app"), link("feed"), link("store")],
            [link("store"), link("app"), link("inbox"), link("store")],
        ])
        #expect(problems.first?.path == cycles.first)
    }

    @Test("a dependency that closes several cycles is named once in the message, with each cycle")
    func dependencyClosingSeveralCyclesMessage() throws {
        let graph = links([("app", ["feed", "inbox"]), ("feed", ["store"]), ("inbox", ["store"]), ("store", ["app"])])
        let problem = try #require(CycleRule().check(ruleGraph(graph)).first)
        let store = #"CycleLink(named: "store")"#, app = #"CycleLink(named: "app")"#
        let feed = #"CycleLink(named: "feed")"#, inbox = #"CycleLink(named: "inbox")"#
        #expect(problem.message == "\(store) needs \(app), and that one dependency closes 2 cycles of types that need each other to be built: "
            + "\(store) → \(app) → \(feed) → \(store); \(store) → \(app) → \(inbox) → \(store).")
        #expect(problem.fix.hasPrefix("Break that one dependency, which every one of these cycles goes through: inject CycleLink into \(store) as Lazy<CycleLink> or Factory<CycleLink>"))
    }

    @Test("two separate cycles are two problems")
    func twoCycles() {
        let problems = CycleRule().check(ruleGraph(links([("a", ["b"]), ("b", ["a"]), ("c", ["d"]), ("d", ["c"])])))
        let cycles = problems.compactMap { problem -> [AnyKey]? in
            guard case .cycle(let keys) = problem.detail else { return nil }
            return keys
        }
        #expect(cycles.count == 2)
        #expect(Set(cycles.map { Set($0) }) == [[link("a"), link("b")], [link("c"), link("d")]])
    }

    @Test("a Lazy edge breaks a cycle")
    func lazyBreaksCycle() {
        #expect(CycleRule().check(ruleGraph { $0.bind(CycleLazyOne.self) }).isEmpty)
    }

    @Test("cycles that share a key are each reported once, from the first key each reaches")
    func cyclesSharingAKey() {
        let problems = CycleRule().check(ruleGraph(links([("a", ["b", "c"]), ("b", ["a"]), ("c", ["a"])])))
        #expect(cycleKeys(problems) == [[link("a"), link("b"), link("a")], [link("a"), link("c"), link("a")]])
    }

    @Test("a cycle reached from each of its keys is reported once")
    func cycleReachedFromEveryKey() {
        let problems = CycleRule().check(ruleGraph(links([("a", ["b"]), ("b", ["c"]), ("c", ["a"]), ("d", ["b"])])))
        #expect(cycleKeys(problems) == [[link("a"), link("b"), link("c"), link("a")]])
    }

    @Test("a cycle an override closes starts at the override and names its line")
    func cycleClosedByOverride() throws {
        let overrideLine = #line + 2
        let overrides = Bindings { binder in
            binder.bind(Key<CycleLink>(named: "b"))
                .to(Initializer({ (_: CycleLink) in CycleLink() }, .named("a")))
        }
        let modules = Bindings { binder in
            binder.bind(Key<CycleLink>(named: "a")).to(Initializer({ (_: CycleLink) in CycleLink() }, .named("b")))
            binder.bind(Key<CycleLink>(named: "b")).to(Initializer { CycleLink() })
        }
        let error = #expect(throws: InjectionError.self) {
            _ = try Injector(modules: [modules], overrides: [overrides])
        }
        let problem = try #require(error?.problems.first { $0.kind == .cyclicDependency })
        #expect(cycleKeys([problem]) == [[link("b"), link("a"), link("b")]])
        #expect(problem.location == SourceLocation(fileID: #fileID, line: overrideLine))
    }

    @Test("a cycle of types built just in time names the initializer of its first key as declared at")
    func justInTimeCycleDeclaredAt() {
        let problems = CycleRule().check(ruleGraph(roots: [Key<CycleOne>().erased]) { _ in })
        #expect(problems.map(\.location) == [CycleOne.initializer.location])
    }
}
