import Sightless
import Testing

private var endpoint: Bindings { Bindings { $0.bind(Key<String>(named: "endpoint")).to(instance: "https://example.com") } }

@Suite("Overrides that replace nothing")
struct OverrideCheckTests {
    @Test("an override of a misspelled name is an error naming the bound key of the same type")
    func misspelledNameNearMiss() throws {
        let error = try #require(throws: InjectionError.self) {
            try Injector(modules: [endpoint], overrides: [Bindings { $0.bind(Key<String>(named: "endpiont")).to(instance: "x") }])
        }
        guard case .overrideReplacesNothing(let key, _, let nearMisses) = error.problems.first?.detail else {
            Issue.record("expected an override that replaces nothing, got \(error)")
            return
        }
        #expect(key == Key<String>(named: "endpiont").erased)
        #expect(nearMisses == [Key<String>(named: "endpoint").erased])
        #expect(error.kind == .unusedDeclaration)
    }

    @Test("an override of a key nothing binds is an error in the overriding closure too")
    func closureOverrideOfUnboundKey() throws {
        let error = try #require(throws: InjectionError.self) {
            try Injector(modules: [endpoint]) { $0.bind(Int.self).to(instance: 3) }
        }
        #expect(error.kind == .unusedDeclaration)
        #expect(error.problems.first?.location?.fileID.hasSuffix("OverrideCheckTests.swift") == true)
    }

    @Test("an override of a bound key replaces it without error")
    func overrideOfBoundKey() throws {
        let injector = try Injector(modules: [endpoint]) { $0.bind(Key<String>(named: "endpoint")).to(instance: "http://localhost") }
        #expect(try injector.getInstance(Key<String>(named: "endpoint")) == "http://localhost")
    }

    @Test("an override of an Injectable type replaces its just-in-time binding")
    func overrideOfJustInTimeType() throws {
        let injector = try Injector(modules: []) { $0.bind(Garage.self).to { _ in Garage() } }
        _ = try injector.getInstance(Garage.self)
    }

    @Test("a child's override of a key its parent binds replaces it")
    func childOverrideOfParentKey() throws {
        let parent = try Injector(endpoint)
        let child = try parent.child(overrides: [Bindings { $0.bind(Key<String>(named: "endpoint")).to(instance: "child") }])
        #expect(try child.getInstance(Key<String>(named: "endpoint")) == "child")
    }

    @Test("a child's override of a key neither it nor its parent binds is an error")
    func childOverrideOfUnboundKey() throws {
        let parent = try Injector(endpoint)
        let error = try #require(throws: InjectionError.self) {
            try parent.child(overrides: [Bindings { $0.bind(Key<String>(named: "region")).to(instance: "us") }])
        }
        guard case .overrideReplacesNothing(_, _, let nearMisses) = error.problems.first?.detail else {
            Issue.record("expected an override that replaces nothing, got \(error)")
            return
        }
        #expect(nearMisses == [Key<String>(named: "endpoint").erased])
    }

    @Test("every unmatched override is reported together")
    func allReported() throws {
        let error = try #require(throws: InjectionError.self) {
            try Injector(modules: [endpoint]) { binder in
                binder.bind(Int.self).to(instance: 1)
                binder.bind(Key<Int>(named: "b")).to(instance: 2)
            }
        }
        #expect(error.problems.count == 2)
    }
}
