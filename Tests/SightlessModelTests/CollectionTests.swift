import Sightless
import Testing

// The documented meanings of sets, maps, candidates and depth, each on its smallest scenario:
// what the model predicts, and that the library agrees (`check`), or for a near-miss, the
// problems the rules report (`checkNearMiss`).

@Suite("Model: sets, maps, candidates and depth")
struct CollectionTests {
    private func scenario(_ specs: [MSpec], _ ops: [MOp]) -> MScenario {
        MScenario(seed: 0, specs: specs, startRoot: false, ops: ops)
    }

    /// What the model predicts for each step, after the family is set up.
    private func predicted(_ scenario: MScenario) -> [String] {
        var model = ReferenceModel(scenario: scenario)
        _ = model.setUp()
        let canon = Canon()
        return scenario.ops.map { op in model.perform(op).outcomes.map(canon.describe).joined(separator: "; ") }
    }

    private func entry(_ key: String, map mapKey: String? = nil, alias: String? = nil, scope: MScope = .unscoped,
                       override: Bool = false) -> MEntry {
        MEntry(binding: MBinding(key: key, kind: alias == nil ? .closure : .type, scope: scope, deps: alias.map { [$0] } ?? [],
                                 isOverride: override),
               alias: alias, mapKey: mapKey)
    }

    @Test("two set contributions aliasing one singleton are one element; of an unscoped key, two")
    func setCountsEqualValuesOnce() async {
        let s = scenario([MSpec(name: "root", bindings: [
            MBinding(key: "a0", kind: .type, scope: .singleton, deps: []),
            MBinding(key: "a1", kind: .type, scope: .unscoped, deps: []),
        ], setEntries: [entry("s0", alias: "a0"), entry("s1", alias: "a0"), entry("s2", alias: "a1"), entry("s3", alias: "a1")])],
            [.request(member: 0, key: MScenario.set, path: .sync, hold: false)])
        #expect(predicted(s) == ["S#1(a0#2,a1#3,a1#4)"])
        let failure = await check(s)
        #expect(failure == nil, "\(failure.map { "\($0)" } ?? "")")
    }

    @Test("an override's map entry replaces the modules' entry of its key and adds any other")
    func overrideReplacesMapEntry() async {
        let s = scenario([MSpec(name: "root", mapEntries: [entry("m0", map: "k0"), entry("m1", map: "k1"),
                                                           entry("mo0", map: "k0", override: true), entry("mo1", map: "k2", override: true)])],
                         [.request(member: 0, key: MScenario.map, path: .sync, hold: false)])
        #expect(predicted(s) == ["M{k0,k1,k2}#1(mo0'#2,m1#3,mo1'#4)"])
        let failure = await check(s)
        #expect(failure == nil, "\(failure.map { "\($0)" } ?? "")")
    }

    @Test("a child's map holds its parent's entries and its own, its override's entry in place of its parent's")
    func childMapAddsToParents() async {
        let s = scenario([
            MSpec(name: "root", mapEntries: [entry("m0", map: "k0"), entry("m1", map: "k1")]),
            MSpec(name: "c0", parent: 0, mapEntries: [entry("mc0", map: "k1", override: true), entry("mc1", map: "k3")]),
        ], [.makeChild(parent: 0, spec: 1, id: 1), .request(member: 1, key: MScenario.map, path: .sync, hold: false),
            .request(member: 0, key: MScenario.map, path: .sync, hold: false)])
        #expect(predicted(s) == ["", "M{k0,k1,k3}#1(m0#2,mc0'#3,mc1#4)", "M{k0,k1}#5(m0#6,m1#7)"])
        let failure = await check(s)
        #expect(failure == nil, "\(failure.map { "\($0)" } ?? "")")
    }

    @Test("a key nothing binds is bound to its only candidate, in the scope its type declares; a binding wins over two")
    func candidateBindsTheKey() async {
        let wired = scenario([MSpec(name: "root", bindings: [MBinding(key: "a0", kind: .type, scope: .unscoped, deps: [])],
                                    candidates: [MBinding(key: MScenario.port, kind: .type, scope: .singleton, deps: ["a0"])])],
                             [.request(member: 0, key: MScenario.port, path: .sync, hold: false),
                              .request(member: 0, key: MScenario.port, path: .await, hold: false)])
        #expect(predicted(wired) == ["P#1(a0#2)", "P#1(a0#2)"])
        let wiredFailure = await check(wired)
        #expect(wiredFailure == nil, "\(wiredFailure.map { "\($0)" } ?? "")")
        let bound = scenario([MSpec(name: "root", bindings: [MBinding(key: MScenario.port, kind: .closure, scope: .unscoped, deps: [])],
                                    candidates: [MBinding(key: MScenario.port, kind: .type, scope: .unscoped, deps: []),
                                                 MBinding(key: MScenario.port, kind: .type, scope: .singleton, deps: [])])],
                             [.request(member: 0, key: MScenario.port, path: .sync, hold: false)])
        #expect(MStructure(scenario: bound).problems == [[]])
        let boundFailure = await check(bound)
        #expect(boundFailure == nil, "\(boundFailure.map { "\($0)" } ?? "")")
    }

    @Test("a request nests 5,000 links of async closures, and one more is tooDeep; a recursion no stack holds is tooDeep")
    func depthLimits() async {
        let s = scenario([MSpec(name: "root")], [
            .deep(member: 0, key: "q", links: MScenario.chainLength - 1, path: .await),
            .deep(member: 0, key: "q", links: MScenario.chainLength, path: .await),
            .deep(member: 0, key: "r", links: MScenario.endlessDepth, path: .sync),
        ])
        #expect(predicted(s) == ["q#1", "error tooDeep", "error tooDeep"])
        let failure = await check(s)
        #expect(failure == nil, "\(failure.map { "\($0)" } ?? "")")
    }

    @Test("two entries of one map key among a member's modules, or a child's module entry of its parent's key, are duplicateBinding")
    func duplicateMapKeys() async {
        let twice = scenario([MSpec(name: "root", mapEntries: [entry("m0", map: "k0"), entry("m1", map: "k0")])], [])
        #expect(MStructure(scenario: twice).problems == [["duplicateBinding M"]])
        #expect(await checkNearMiss(MNearMiss(scenario: twice, mutation: .duplicateMapKey, change: "k0 twice")) == nil)
        let child = scenario([MSpec(name: "root", mapEntries: [entry("m0", map: "k0")]),
                              MSpec(name: "c0", parent: 0, mapEntries: [entry("m1", map: "k0")])], [])
        #expect(MStructure(scenario: child).problems == [[], ["duplicateBinding M"]])
        #expect(await checkNearMiss(MNearMiss(scenario: child, mutation: .duplicateMapKey, change: "k0 in the child")) == nil)
    }

    @Test("no candidate for a key an initializer needs is missingBinding; two and no binding are ambiguousBinding")
    func candidateProblems() async {
        let none = scenario([MSpec(name: "root", bindings: [MBinding(key: "a0", kind: .type, scope: .unscoped, deps: [MScenario.port])])], [])
        #expect(MStructure(scenario: none).problems == [["missingBinding P"]])
        #expect(await checkNearMiss(MNearMiss(scenario: none, mutation: .candidates, change: "no candidate")) == nil)
        let two = scenario([MSpec(name: "root", candidates: [MBinding(key: MScenario.port, kind: .type, scope: .unscoped, deps: []),
                                                             MBinding(key: MScenario.port, kind: .type, scope: .unscoped, deps: [])])], [])
        #expect(MStructure(scenario: two).problems == [["ambiguousBinding P"]])
        #expect(await checkNearMiss(MNearMiss(scenario: two, mutation: .candidates, change: "two candidates")) == nil)
    }

    /// The model's steps for the scenario (the set-up first).
    private func steps(_ scenario: MScenario) -> [MRawStep] {
        var model = ReferenceModel(scenario: scenario)
        var steps = [model.setUp()]
        for op in scenario.ops { steps.append(model.perform(op)) }
        return steps
    }

    @Test("a decorator of the set gets the gathered set on each request, and the request gets what it returns; observers hear the set built")
    func decoratedSet() async {
        let root = MSpec(name: "root", collectionDecorators: [MDecorator(key: MScenario.set, id: 1)], observes: true, setEntries: [entry("s0")])
        let s = scenario([root], [.request(member: 0, key: MScenario.set, path: .sync, hold: false),
                                  .request(member: 0, key: MScenario.set, path: .await, hold: false)])
        #expect(predicted(s) == ["S#1(dec1#2,s0#3)", "S#4(dec1#5,s0#6)"])
        #expect(steps(s)[1].events == ["root:S": 1])
        let failure = await check(s)
        #expect(failure == nil, "\(failure.map { "\($0)" } ?? "")")
    }

    @Test("a child that adds to its parent's map gathers it and decorates it with its own decorators, not its parent's")
    func childDecoratesTheMapItGathers() async {
        let root = MSpec(name: "root", collectionDecorators: [MDecorator(key: MScenario.map, id: 1)], observes: true,
                         mapEntries: [entry("m0", map: "k0")])
        let child = MSpec(name: "c0", parent: 0, collectionDecorators: [MDecorator(key: MScenario.map, id: 2), MDecorator(key: MScenario.map, id: 3)],
                          observes: true, mapEntries: [entry("mc0", map: "k1")])
        let s = scenario([root, child], [.makeChild(parent: 0, spec: 1, id: 1),
                                         .request(member: 1, key: MScenario.map, path: .sync, hold: false),
                                         .request(member: 0, key: MScenario.map, path: .sync, hold: false)])
        #expect(predicted(s) == ["", "M{dec2,dec3,k0,k1}#1(dec2#2,dec3#3,m0#4,mc0#5)", "M{dec1,k0}#6(dec1#7,m0#8)"])
        let made = steps(s)
        #expect(made[2].events == ["c0:M": 1, "root:M": 1])
        // The events are counted over the scenario so far: the root's request adds one.
        #expect(made[3].events == ["c0:M": 1, "root:M": 2])
        let failure = await check(s)
        #expect(failure == nil, "\(failure.map { "\($0)" } ?? "")")
    }

    @Test("a child that contributes nothing to the set gets its parent's, decorated by the parent; only the parent's observers hear it")
    func childGetsItsParentsDecoratedSet() async {
        let root = MSpec(name: "root", collectionDecorators: [MDecorator(key: MScenario.set, id: 1)], setEntries: [entry("s0", scope: .singleton)])
        let s = scenario([root, MSpec(name: "c0", parent: 0, observes: true)],
                         [.makeChild(parent: 0, spec: 1, id: 1), .request(member: 1, key: MScenario.set, path: .sync, hold: false)])
        #expect(predicted(s) == ["", "S#1(dec1#2,s0#3)"])
        #expect(steps(s)[2].events.isEmpty)
        let failure = await check(s)
        #expect(failure == nil, "\(failure.map { "\($0)" } ?? "")")
    }

    @Test("an array's decorators append after the contributions, in declaration order, on each request; observers hear the array built")
    func decoratedArray() async {
        let root = MSpec(name: "root",
                         collectionDecorators: [MDecorator(key: MScenario.collection, id: 1), MDecorator(key: MScenario.collection, id: 2)],
                         observes: true, contributions: [MBinding(key: "e0", kind: .closure, scope: .singleton, deps: [])])
        let s = scenario([root], [.request(member: 0, key: MScenario.collection, path: .sync, hold: false),
                                  .request(member: 0, key: MScenario.collection, path: .await, hold: false)])
        #expect(predicted(s) == ["L#1(e0#2,dec1#3,dec2#4)", "L#5(e0#2,dec1#6,dec2#7)"])
        #expect(steps(s)[2].events == ["root:L": 2])
        let failure = await check(s)
        #expect(failure == nil, "\(failure.map { "\($0)" } ?? "")")
    }

    @Test("the default scenarios draw sets, maps, candidates and deep requests in every form")
    func scenariosDrawTheseFeatures() {
        let table = FeatureTable(seeds: (0..<UInt64(2_000)).map { 0x30DE_0000 + $0 })
        for feature in ["set contributions", "set contributions aliasing one key", "map contributions", "map entry replaced by an override",
                        "set or map contributions in a child", "candidates", "candidates beside a binding of their key",
                        "request of the set", "request of the map", "request of the candidates' key", "awaited chain at the limit",
                        "awaited chain past the limit", "awaited chain requested synchronously", "recursion deeper than the stack",
                        "mutation duplicateMapKey", "mutation candidates", "rule ambiguousBinding", "decorated set", "decorated map",
                        "decorated array", "decorated collection in a child"] {
            #expect(table.counts[feature, default: 0] > 0, "\(feature)")
        }
    }
}
