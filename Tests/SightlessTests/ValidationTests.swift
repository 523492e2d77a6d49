import Sightless
import Testing

private final class CycleA: Injectable {
    init(b: CycleB) {}
    static let initializer = Initializer(CycleA.init(b:))
}
private final class CycleB: Injectable {
    init(c: CycleC) {}
    static let initializer = Initializer(CycleB.init(c:))
}
private final class CycleC: Injectable {
    init(a: CycleA) {}
    static let initializer = Initializer(CycleC.init(a:))
}
private final class NeedsMissing: Injectable {
    init(value: Int) {}
    static let initializer = Initializer(NeedsMissing.init(value:))
}
private final class SelfProperty: Injectable {
    var me: SelfProperty?
    static let initializer = Initializer(SelfProperty.init)
    static let properties = Properties<SelfProperty>().inject(\.me)
}

private struct Real: Module {
    func configure(_ binder: Binder) {
        binder.bind((any Api).self).to(HttpApi.self)
    }
}

private struct Fake: Module {
    func configure(_ binder: Binder) {
        binder.bind((any Api).self).to(instance: FakeApi())
    }
}

@Suite("Validation")
struct ValidationTests {
    @Test("a cycle A → B → C → A is reported with the chain")
    func cycleReported() throws {
        let error = #expect(throws: InjectionError.self) { _ = try Injector(Bindings { $0.bind(CycleA.self) }) }
        #expect(error?.kind == .cyclicDependency)
        #expect(error?.path.map(\.description) == ["CycleA", "CycleB", "CycleC", "CycleA"])
        #expect(error?.description.contains("CycleA → CycleB → CycleC → CycleA") == true)
    }

    @Test("a cycle through a property is reported")
    func propertyCycleReported() throws {
        let error = #expect(throws: InjectionError.self) { _ = try Injector(Bindings { $0.bind(SelfProperty.self) }) }
        #expect(error?.kind == .cyclicDependency)
        #expect(error?.path.map(\.description) == ["SelfProperty", "SelfProperty"])
    }

    @Test("a cycle in a type first requested later is reported at that request")
    func cycleAtFirstRequest() throws {
        let injector = try Injector(modules: [])
        let error = #expect(throws: InjectionError.self) { _ = try injector.getInstance(CycleB.self) }
        #expect(error?.kind == .cyclicDependency)
    }

    @Test("a key bound twice is an error naming both declarations")
    func duplicateBinding() throws {
        let error = #expect(throws: InjectionError.self) { _ = try Injector(modules: [Real(), Fake()]) }
        #expect(error?.kind == .duplicateBinding)
        #expect(error?.problems.count == 1)
        guard case .boundTwice(_, let first, let second, _)? = error?.problems.first?.detail else {
            Issue.record("expected boundTwice, got \(String(describing: error))")
            return
        }
        #expect(first?.description.hasSuffix("ValidationTests.swift:28") == true)
        #expect(second?.description.hasSuffix("ValidationTests.swift:34") == true)
    }

    @Test("an override replaces the binding of its key")
    func explicitOverride() throws {
        let injector = try Injector(modules: [Real()], overrides: [Fake()])
        #expect(try injector.getInstance((any Api).self).name == "fake")
    }

    @Test("every problem of a build is reported together")
    func allErrorsTogether() throws {
        let error = #expect(throws: InjectionError.self) {
            _ = try Injector(modules: [Real(), Fake(), Bindings { $0.bind(CycleA.self); $0.bind(NeedsMissing.self) }])
        }
        #expect(Set(error?.problems.map(\.kind) ?? []) == [.duplicateBinding, .cyclicDependency, .missingBinding])
        #expect(error?.description.hasPrefix("The injector found 3 problems:") == true)
    }

    @Test("binding the injector's own key is an error")
    func injectorKeyReserved() throws {
        let error = #expect(throws: InjectionError.self) {
            _ = try Injector(Bindings { $0.bind(Injector.self).to { resolver in resolver.injector } })
        }
        #expect(error?.kind == .duplicateBinding)
    }

    @Test("a closure binding that needs itself is reported as a cycle at run time")
    func runTimeCycleThroughClosure() throws {
        let injector = try Injector(Bindings {
            $0.bind(Key<Int>(named: "a")).to { resolver in try resolver.getInstance(Key<Int>(named: "b")) }
            $0.bind(Key<Int>(named: "b")).to { resolver in try resolver.getInstance(Key<Int>(named: "a")) }
        })
        let error = #expect(throws: InjectionError.self) { _ = try injector.getInstance(Key<Int>(named: "a")) }
        #expect(error?.kind == .cyclicDependency)
        #expect(error?.path.map(\.description) == [#"Int(named: "a")"#, #"Int(named: "b")"#, #"Int(named: "a")"#])
    }

    @Test("a singleton closure that needs itself fails instead of waiting on itself")
    func singletonNeedingItself() throws {
        let injector = try Injector(Bindings {
            $0.bind(Int.self).to { resolver in try resolver.getInstance(Int.self) + 1 }.in(.singleton)
        })
        let error = #expect(throws: InjectionError.self) { _ = try injector.getInstance(Int.self) }
        #expect(error?.kind == .cyclicDependency)
    }
}
