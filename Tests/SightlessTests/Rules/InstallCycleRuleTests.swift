@testable import Sightless
import Testing

private struct RingA: Module {
    func configure(_ binder: Binder) {
        binder.bind(Key<Int>(named: "a")).to(instance: 1)
        binder.install(RingB(), fileID: "App/RingA.swift", line: 4)
        binder.bind(Key<Int>(named: "after b")).to(instance: 2)
    }
}

private struct RingB: Module {
    func configure(_ binder: Binder) {
        binder.bind(Key<Int>(named: "b")).to(instance: 3)
        binder.install(RingA(), fileID: "App/RingB.swift", line: 7)
        binder.bind(Key<Int>(named: "after a")).to(instance: 4)
    }
}

private struct Selfish: Module {
    static let line = #line + 2
    func configure(_ binder: Binder) {
        binder.install(Selfish())
    }
}

private struct Above: Module {
    func configure(_ binder: Binder) {
        binder.install(RingA(), fileID: "App/Above.swift", line: 2)
    }
}

private struct EqualA: Module, Equatable {
    func configure(_ binder: Binder) {
        binder.install(EqualB(), fileID: "App/EqualA.swift", line: 3)
    }
}

private struct EqualB: Module, Equatable {
    func configure(_ binder: Binder) {
        binder.install(EqualA(), fileID: "App/EqualB.swift", line: 5)
    }
}

/// Installs the next smaller value of its type, down to zero, each binding its own key.
private struct Countdown: Module, Equatable {
    let level: Int
    func configure(_ binder: Binder) {
        binder.bind(Key<Int>(named: "level \(level)")).to(instance: level)
        if level > 0 { binder.install(Countdown(level: level - 1)) }
    }
}

/// Installs the next larger value of its type, without end, each binding one key.
private struct Countup: Module, Equatable {
    let level: Int
    func configure(_ binder: Binder) {
        binder.bind(Key<Int>(named: "up")).to(instance: level)
        binder.install(Countup(level: level + 1), fileID: "App/Countup.swift", line: 9)
    }
}

/// Installs `Countup` beside a binding of its own, which stays.
private struct BesideCountup: Module {
    func configure(_ binder: Binder) {
        binder.bind(Key<Int>(named: "beside")).to(instance: 5)
        binder.install(Countup(level: 0), fileID: "App/Beside.swift", line: 3)
    }
}

private func module(_ type: Any.Type) -> AnyKey { AnyKey(type: type, name: nil) }

/// The installs of the one cycle `modules` report.
private func cycle(installing modules: [any Module], overrides: [any Module] = []) -> [InjectionError.Problem.Install]? {
    let error = #expect(throws: InjectionError.self) { _ = try Injector(modules: modules, overrides: overrides) }
    #expect(error?.kind == .cyclicInstall)
    #expect(error?.problems.count == 1)
    guard case .installCycle(let installs)? = error?.problems.first?.detail else {
        Issue.record("expected installCycle, got \(String(describing: error))")
        return nil
    }
    return installs
}

@Suite("Rule: install cycle")
struct InstallCycleRuleTests {
    @Test("two modules that install each other are an error naming both installs")
    func twoModules() {
        let installs = cycle(installing: [RingA()])
        #expect(installs == [
            .init(module: module(RingA.self), location: nil),
            .init(module: module(RingB.self), location: SourceLocation(fileID: "App/RingA.swift", line: 4)),
            .init(module: module(RingA.self), location: SourceLocation(fileID: "App/RingB.swift", line: 7)),
        ])
    }

    @Test("an install cycle is declared where the install that closes it is written")
    func declaredAtClosingInstall() {
        let error = #expect(throws: InjectionError.self) { _ = try Injector(modules: [RingA()]) }
        #expect(error?.location == SourceLocation(fileID: "App/RingB.swift", line: 7))
    }

    @Test("a module that installs itself is an error naming its install, where it is written")
    func selfInstall() {
        let installs = cycle(installing: [Selfish()])
        #expect(installs == [
            .init(module: module(Selfish.self), location: nil),
            .init(module: module(Selfish.self), location: SourceLocation(fileID: #fileID, line: Selfish.line)),
        ])
    }

    @Test("each module of an install cycle is recorded once: the cycle is the only problem")
    func modulesRecordedOnce() {
        // RingA's bindings, recorded a second time, would be bound twice.
        _ = cycle(installing: [RingA()])
    }

    @Test("a cycle below the modules the injector was given starts at its first module")
    func cycleBelowRoot() {
        let installs = cycle(installing: [Above()])
        #expect(installs?.map(\.module) == [module(RingA.self), module(RingB.self), module(RingA.self)])
        #expect(installs?.first?.location == SourceLocation(fileID: "App/Above.swift", line: 2))
    }

    @Test("Equatable modules that install each other are found when the first is installed again")
    func equatableModules() {
        let installs = cycle(installing: [EqualA()])
        #expect(installs == [
            .init(module: module(EqualA.self), location: nil),
            .init(module: module(EqualB.self), location: SourceLocation(fileID: "App/EqualA.swift", line: 3)),
            .init(module: module(EqualA.self), location: SourceLocation(fileID: "App/EqualB.swift", line: 5)),
        ])
    }

    @Test("an install cycle among the overrides is reported")
    func amongOverrides() {
        let installs = cycle(installing: [], overrides: [Selfish()])
        #expect(installs?.map(\.module) == [module(Selfish.self), module(Selfish.self)])
    }

    @Test("an Equatable module that installs a smaller value of its type, down to none, installs each value")
    func equatableCountdown() throws {
        let injector = try Injector(modules: [Countdown(level: 3)])
        #expect(try (0...3).map { try injector.getInstance(Key<Int>(named: "level \($0)")) } == [0, 1, 2, 3])
    }

    @Test("a module whose type is not Equatable may install other values of its type written elsewhere")
    func otherValuesElsewhere() throws {
        let injector = try Injector(Bindings { outer in
            outer.install(Bindings { inner in
                inner.install(Bindings { $0.bind(Int.self).to(instance: 7) })
            })
        })
        #expect(try injector.getInstance(Int.self) == 7)
    }

    @Test("a module whose type is not Equatable may install other values of its type written on one line")
    func otherValuesOnOneLine() throws {
        let injector = try Injector(Bindings { $0.install(Bindings { $0.install(Bindings { $0.bind(Int.self).to(instance: 7) }) }) })
        #expect(try injector.getInstance(Int.self) == 7)
    }

    @Test("Equatable modules that install ever larger values of their type are stopped and reported as cyclicInstall, on every stack", arguments: [
        64 * 1024, 512 * 1024, 8 * 1024 * 1024,
    ])
    func endlessInstalls(stackSize: Int) {
        // A thousand levels, each compared with those above it: 0.3 s alone, 3 s under
        // ThreadSanitizer, and past a minute in the instrumented run beside the whole suite on two
        // cores. The watchdog is there for a hang.
        let outcome = regressionRun(stackSize: stackSize, timeout: 600) { _ = try Injector(modules: [BesideCountup()]) }
        let error = outcome.error
        #expect(error?.kind == .cyclicInstall, "\(outcome)")
        #expect(error?.problems.count == 1)
        guard case .endlessInstalls(let installs, let depth)? = error?.problems.first?.detail else {
            Issue.record("expected endlessInstalls, got \(String(describing: error?.problems.first?.detail))")
            return
        }
        #expect(installs.map(\.module) == [module(BesideCountup.self)] + Array(repeating: module(Countup.self), count: 3))
        #expect(installs.dropFirst().first?.location == SourceLocation(fileID: "App/Beside.swift", line: 3))
        #expect(depth > 1 && depth <= Binder.maximumInstallDepth)
        #expect(error.map { "\($0)" }?.contains("install new modules inside each other without end") == true)
    }

    @Test("installs that never end are the only problem: the endless modules' bindings are not reported bound twice")
    func besideEndlessInstalls() {
        let error = #expect(throws: InjectionError.self) { _ = try Injector(modules: [BesideCountup()]) }
        // One problem: no key bound once per install.
        #expect(error?.problems.map(\.kind) == [.cyclicInstall])
    }
}
