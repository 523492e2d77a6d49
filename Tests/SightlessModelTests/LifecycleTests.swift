import Sightless
import Testing

// The lifecycle the model predicts, each behaviour by one small scenario: the model's prediction
// is stated here as the documentation words it, and the library must agree with the model.

@Suite("Model: the lifecycle of values, as the model predicts it and the library does it")
struct LifecycleTests {
    /// The model's steps for the scenario (the set-up first), and whether the library agrees.
    private func run(_ scenario: MScenario) async -> (steps: [MRawStep], failure: ModelFailure?) {
        var model = ReferenceModel(scenario: scenario)
        var steps = [model.setUp()]
        for op in scenario.ops { steps.append(model.perform(op)) }
        return (steps, await checkWithDeadline(scenario, seconds: modelDeadline))
    }

    private func kept(_ key: String, _ kind: MKind = .closure, deps: [String] = []) -> MBinding {
        MBinding(key: key, kind: kind, scope: .singleton, deps: deps)
    }

    /// A root keeping `a0` … `a3`, closed by `close()`, an `AsyncClosable`'s `close()`, a
    /// closer and an awaiting closer, each requested in turn.
    private func closing(_ shutdown: MOp, failing: Set<String> = []) -> MScenario {
        var scenario = MScenario(seed: 0, specs: [MSpec(name: "root", bindings: ["a0", "a1", "a2", "a3"].map { kept($0) })], startRoot: false,
                                 ops: ["a0", "a1", "a2", "a3"].map { .request(member: 0, key: $0, path: .sync, hold: false) } + [shutdown])
        scenario.lifecycle.closing = ["a1": .asyncClosable, "a2": .closer, "a3": .asyncCloser]
        scenario.lifecycle.failingCloses = failing
        return scenario
    }

    @Test("shutDown() closes Closable values and runs closers that do not await, newest first, leaving the others open")
    func synchronousShutdownLeavesAwaitedClosesOpen() async {
        let (steps, failure) = await run(closing(.shutDown(member: 0)))
        #expect(steps.last?.closes.map(\.label) == ["a2", "a0"])
        #expect(failure == nil, "\(failure.map(String.init(describing:)) ?? "")")
    }

    @Test("awaitShutDown() closes every kept value, newest first, whether it closes with await or not")
    func awaitedShutdownClosesEverything() async {
        let (steps, failure) = await run(closing(.awaitShutDown(member: 0)))
        #expect(steps.last?.closes.map(\.label) == ["a3", "a2", "a1", "a0"])
        #expect(failure == nil, "\(failure.map(String.init(describing:)) ?? "")")
    }

    @Test("a close that throws stops no other; the shutdown throws closeFailed listing each failure in the order of the closes")
    func failedClosesAreReportedTogether() async {
        let (steps, failure) = await run(closing(.awaitShutDown(member: 0), failing: ["a0", "a2", "a3"]))
        #expect(steps.last?.closes.map(\.label) == ["a3", "a2", "a1", "a0"])
        #expect(steps.last?.lifecycle == ["closeFailed a3,a2,a0"])
        #expect(failure == nil, "\(failure.map(String.init(describing:)) ?? "")")
    }

    @Test("a singleton whose build threw is not kept: the next request builds it again, over the dependency kept before")
    func failedSingletonIsBuiltAgain() async {
        var scenario = MScenario(seed: 0, specs: [MSpec(name: "root", bindings: [kept("a0", .type), kept("a1", deps: ["a0"])], observes: true)],
                                 startRoot: false, ops: [.request(member: 0, key: "a1", path: .sync, hold: false),
                                                         .request(member: 0, key: "a1", path: .await, hold: false)])
        scenario.lifecycle.failures = ["a1": 1]
        let (steps, failure) = await run(scenario)
        guard case .error(.initializerFailed) = steps[1].outcomes.first, case .value(let tree) = steps[2].outcomes.first else {
            Issue.record("expected a failure, then a value: \(steps.map(\.outcomes))")
            return
        }
        #expect(steps[1].lifecycle == ["initializerFailed a1 path a1"])
        #expect(tree.shape == "a1(a0)")
        #expect(steps[2].builds == ["a0": 1, "a1": 1])
        #expect(steps[1].events == ["root:a0": 1])
        #expect(failure == nil, "\(failure.map(String.init(describing:)) ?? "")")
    }

    @Test("the key that threw, and the path from the requested key, whether an initializer or a closure asked for it")
    func failedBuildNamesItsPath() async {
        var scenario = MScenario(seed: 0, specs: [MSpec(name: "root", bindings: [
            MBinding(key: "a0", kind: .provider, scope: .unscoped, deps: []),
            MBinding(key: "a1", kind: .closure, scope: .unscoped, deps: ["a0"]),
            MBinding(key: "a2", kind: .type, scope: .unscoped, deps: ["a1"]),
        ])], startRoot: false, ops: [.request(member: 0, key: "a2", path: .lazyGet, hold: false)])
        scenario.lifecycle.failures = ["a0": 1]
        let (steps, failure) = await run(scenario)
        #expect(steps[1].lifecycle == ["initializerFailed a0 path a2>a1>a0"])
        #expect(failure == nil, "\(failure.map(String.init(describing:)) ?? "")")
    }

    @Test("observers hear a build after its decorators: a build whose decorator's need threw is not heard")
    func buildWithFailedDecoratorIsNotHeard() async {
        var scenario = MScenario(seed: 0, specs: [MSpec(name: "root", bindings: [
            MBinding(key: "a0", kind: .closure, scope: .unscoped, deps: []),
            MBinding(key: "a1", kind: .provider, scope: .unscoped, deps: []),
        ], decorators: [MDecorator(key: "a1", id: 1, needs: "a0")], observes: true)], startRoot: false,
                                 ops: [.request(member: 0, key: "a1", path: .sync, hold: false),
                                       .request(member: 0, key: "a1", path: .sync, hold: false)])
        scenario.lifecycle.failures = ["a0": 1]
        let (steps, failure) = await run(scenario)
        #expect(steps[1].lifecycle == ["initializerFailed a0 path a1>a0"])
        #expect(steps[1].builds == ["a1": 1])
        #expect(steps[1].events.isEmpty)
        #expect(steps[2].events == ["root:a0": 1, "root:a1": 1])
        #expect(failure == nil, "\(failure.map(String.init(describing:)) ?? "")")
    }

    /// A root keeping `a0`, wrapped by the decorators `dec1` then `dec2`, closed as `close`
    /// says; `a0` requested, then `shutdown`.
    private func decoratedClosing(_ close: MClose, _ shutdown: MOp, failing: Bool = false) -> MScenario {
        var scenario = MScenario(seed: 0, specs: [MSpec(name: "root", bindings: [kept("a0")],
                                                        decorators: [MDecorator(key: "a0", id: 1), MDecorator(key: "a0", id: 2)])],
                                 startRoot: false, ops: [.request(member: 0, key: "a0", path: .sync, hold: false), shutdown])
        scenario.lifecycle.closing = ["a0": close]
        if failing { scenario.lifecycle.failingCloses = ["a0"] }
        return scenario
    }

    @Test("a decorated singleton's closer closes the value its scope kept, the decorated one, and not the value it wraps")
    func closerClosesTheDecoratedValue() async {
        let (steps, failure) = await run(decoratedClosing(.closer, .shutDown(member: 0)))
        #expect(steps.last?.closes.map(\.label) == ["dec2"])
        #expect(failure == nil, "\(failure.map(String.init(describing:)) ?? "")")
    }

    @Test("a decorated value that is AsyncClosable is left open by shutDown() and closed by awaitShutDown(), alone")
    func asyncClosableDecoratedValue() async {
        let (open, openFailure) = await run(decoratedClosing(.asyncClosable, .shutDown(member: 0)))
        #expect(open.last?.closes.isEmpty == true)
        #expect(openFailure == nil, "\(openFailure.map(String.init(describing:)) ?? "")")
        let (closed, closedFailure) = await run(decoratedClosing(.asyncClosable, .awaitShutDown(member: 0)))
        #expect(closed.last?.closes.map(\.label) == ["dec2"])
        #expect(closedFailure == nil, "\(closedFailure.map(String.init(describing:)) ?? "")")
    }

    @Test("a decorated value's awaiting closer that throws is reported as closeFailed under the decorated key")
    func failedCloseOfDecoratedValueNamesTheKey() async {
        let (steps, failure) = await run(decoratedClosing(.asyncCloser, .awaitShutDown(member: 0), failing: true))
        #expect(steps.last?.closes.map(\.label) == ["dec2"])
        #expect(steps.last?.lifecycle == ["closeFailed a0"])
        #expect(failure == nil, "\(failure.map(String.init(describing:)) ?? "")")
    }

    /// A template keeping `t0`, an `AsyncClosable` whose close may throw; a `withChild` of it.
    private func withChild(isAsync: Bool, bodyThrows: Bool = false, failing: Bool = false) -> MScenario {
        var scenario = MScenario(seed: 0, specs: [
            MSpec(name: "root"),
            MSpec(name: "t", parent: 0, isTemplate: true, bindings: [kept("t0", deps: ["p"])]),
        ], startRoot: false, ops: [
            .lifecycle(.withChild(parent: 0, spec: 1, id: 1, requests: [MBodyRequest(key: "t0", path: .sync)], isAsync: isAsync,
                                  bodyThrows: bodyThrows)),
            .request(member: 1, key: "t0", path: .sync, hold: false),
        ])
        scenario.lifecycle.closing = ["t0": .asyncClosable]
        if failing { scenario.lifecycle.failingCloses = ["t0"] }
        return scenario
    }

    @Test("the synchronous withChild shuts its child down as shutDown() does, and the child refuses requests after its body")
    func synchronousWithChild() async {
        let (steps, failure) = await run(withChild(isAsync: false))
        #expect(steps[1].closes.isEmpty)
        #expect(steps[1].lifecycle == ["current", "returned"])
        guard case .error(.injectorShutDown) = steps[2].outcomes.first else {
            Issue.record("expected injectorShutDown, the model gave \(steps[2].outcomes)")
            return
        }
        #expect(failure == nil, "\(failure.map(String.init(describing:)) ?? "")")
    }

    @Test("the async withChild shuts its child down as awaitShutDown() does, reporting a failure to close after a body that returned")
    func awaitedWithChild() async {
        let (steps, failure) = await run(withChild(isAsync: true, failing: true))
        #expect(steps[1].closes.map(\.label) == ["t0"])
        #expect(steps[1].lifecycle == ["current", "closeFailed t0"])
        #expect(failure == nil, "\(failure.map(String.init(describing:)) ?? "")")
    }

    @Test("a withChild body's error is rethrown as it is, never a failure to close")
    func bodyErrorWinsOverFailedClose() async {
        let (steps, failure) = await run(withChild(isAsync: true, bodyThrows: true, failing: true))
        #expect(steps[1].closes.map(\.label) == ["t0"])
        #expect(steps[1].lifecycle == ["current", "body's error rethrown"])
        #expect(failure == nil, "\(failure.map(String.init(describing:)) ?? "")")
    }

    @Test("after Injector.start, a synchronous request builds a value over an eager singleton that needs await")
    func synchronousRequestOverStartedValue() async {
        let scenario = MScenario(seed: 0, specs: [MSpec(name: "root", bindings: [
            MBinding(key: "a0", kind: .asyncClosure, scope: .eager, deps: []),
            MBinding(key: "a1", kind: .type, scope: .unscoped, deps: ["a0"]),
        ])], startRoot: true, ops: [.request(member: 0, key: "a1", path: .sync, hold: false)])
        #expect(scenario.overStarted() == ["a0", "a1"])
        let (steps, failure) = await run(scenario)
        guard case .value(let tree) = steps[1].outcomes.first else {
            Issue.record("expected a value, the model gave \(steps[1].outcomes)")
            return
        }
        #expect(tree.shape == "a1(a0)")
        #expect(failure == nil, "\(failure.map(String.init(describing:)) ?? "")")
    }
}
