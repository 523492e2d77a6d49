import Sightless
import Synchronization
import Testing

private protocol HealthCheck: Sendable { var name: String { get } }

private final class DatabaseCheck: HealthCheck, Injectable {
    let name = "database"
    static let initializer = Initializer(DatabaseCheck.init)
}

private struct NamedCheck: HealthCheck { let name: String }

private final class Monitor: Injectable {
    let checks: [any HealthCheck]
    init(checks: [any HealthCheck]) { self.checks = checks }
    static let initializer = Initializer(Monitor.init(checks:))
}

private final class NeedsMissing: HealthCheck, Injectable {
    let name = "needs"
    init(api: any Api) {}
    static let initializer = Initializer(NeedsMissing.init(api:))
}

private final class ApiCheck: HealthCheck, Injectable {
    let api: any Api
    var name: String { "api \(api.name)" }
    init(api: any Api) { self.api = api }
    static let initializer = Initializer(ApiCheck.init(api:))
}

private var storage: Bindings {
    Bindings { $0.contribute(to: [any HealthCheck].self).to(DatabaseCheck.self) }
}

private var disk: Bindings {
    Bindings { $0.contribute(to: [any HealthCheck].self).to { _ in NamedCheck(name: "disk") } }
}

@Suite("Contributions to collections")
struct ContributionTests {
    @Test("an array gathers the contributions of several modules in order")
    func arrayInOrder() throws {
        let injector = try Injector(modules: [storage, disk])
        #expect(try injector.getInstance([any HealthCheck].self).map(\.name) == ["database", "disk"])
    }

    @Test("a type injects the gathered array")
    func injectedArray() throws {
        let injector = try Injector(modules: [storage, disk])
        #expect(try injector.getInstance(Monitor.self).checks.count == 2)
    }

    @Test("a contribution keeps its own scope")
    func ownScope() throws {
        let injector = try Injector(Bindings { binder in
            binder.contribute(to: [any HealthCheck].self).to(DatabaseCheck.self).in(.singleton)
            binder.contribute(to: [any HealthCheck].self).to { _ in NamedCheck(name: "disk") }
        })
        let first = try injector.getInstance([any HealthCheck].self)
        let second = try injector.getInstance([any HealthCheck].self)
        #expect((first[0] as? DatabaseCheck) === (second[0] as? DatabaseCheck))
    }

    @Test("a contribution's dependencies are injected from the graph")
    func dependenciesInjected() throws {
        let injector = try Injector(Bindings { binder in
            binder.bind((any Api).self).to(HttpApi.self)
            binder.contribute(to: [any HealthCheck].self).to(ApiCheck.self)
        })
        #expect(try injector.getInstance([any HealthCheck].self).map(\.name) == ["api http"])
    }

    @Test("a contribution's missing dependency is reported when the injector is built")
    func dependenciesValidated() throws {
        let error = try #require(throws: InjectionError.self) {
            try Injector(Bindings { $0.contribute(to: [any HealthCheck].self).to(NeedsMissing.self) })
        }
        #expect(error.kind == .missingBinding)
    }

    @Test("a set gathers the contributions, equal ones once")
    func setGathers() throws {
        let injector = try Injector(Bindings { binder in
            binder.contribute(to: Set<String>.self).to(instance: "beta")
            binder.contribute(to: Set<String>.self).to(instance: "search")
            binder.contribute(to: Set<String>.self).to(instance: "beta")
        })
        #expect(try injector.getInstance(Set<String>.self) == ["beta", "search"])
    }

    @Test("a map gathers keyed contributions")
    func mapGathers() throws {
        let injector = try Injector(Bindings { binder in
            binder.contribute(to: [String: any HealthCheck].self, key: "db").to(DatabaseCheck.self)
            binder.contribute(to: [String: any HealthCheck].self, key: "disk").to { _ in NamedCheck(name: "disk") }
        })
        let map = try injector.getInstance([String: any HealthCheck].self)
        #expect(map.mapValues(\.name) == ["db": "database", "disk": "disk"])
    }

    @Test("two contributions of one map key are an error naming both declarations")
    func duplicateMapKey() throws {
        let error = try #require(throws: InjectionError.self) {
            try Injector(modules: [
                Bindings { $0.contribute(to: [String: Int].self, key: "a", fileID: "App/A.swift", line: 3).to(instance: 1) },
                Bindings { $0.contribute(to: [String: Int].self, key: "a", fileID: "App/B.swift", line: 8).to(instance: 2) },
            ])
        }
        guard case .contributedTwice(let collection, let entry, let first, let second) = error.problems.first?.detail else {
            Issue.record("expected two contributions of one key, got \(error)")
            return
        }
        #expect(collection == Key<[String: Int]>().erased)
        #expect(entry == "\"a\"")
        #expect(first == SourceLocation(fileID: "App/A.swift", line: 3))
        #expect(second == SourceLocation(fileID: "App/B.swift", line: 8))
        #expect(error.kind == .duplicateBinding)
    }

    @Test("an override module's contribution adds to the collection")
    func overrideAdds() throws {
        let injector = try Injector(modules: [storage], overrides: [disk])
        #expect(try injector.getInstance([any HealthCheck].self).map(\.name) == ["database", "disk"])
    }

    @Test("an override module's map entry replaces the entry of the same key")
    func overrideReplacesEntry() throws {
        let injector = try Injector(
            modules: [Bindings { binder in
                binder.contribute(to: [String: Int].self, key: "a").to(instance: 1)
                binder.contribute(to: [String: Int].self, key: "b").to(instance: 2)
            }],
            overrides: [Bindings { $0.contribute(to: [String: Int].self, key: "a").to(instance: 10) }])
        #expect(try injector.getInstance([String: Int].self) == ["a": 10, "b": 2])
    }

    @Test("overriding the collection's key replaces the whole collection")
    func overrideReplacesCollection() throws {
        let injector = try Injector(modules: [storage, disk]) { binder in
            binder.bind([any HealthCheck].self).to { _ in [NamedCheck(name: "fake")] }
        }
        #expect(try injector.getInstance([any HealthCheck].self).map(\.name) == ["fake"])
    }

    @Test("binding a collection's key in a module that others contribute to is a duplicate binding")
    func explicitAndContributed() throws {
        let error = try #require(throws: InjectionError.self) {
            try Injector(modules: [storage, Bindings { $0.bind([any HealthCheck].self).to { _ in [] } }])
        }
        #expect(error.kind == .duplicateBinding)
    }

    @Test("a child's contribution adds to its parent's collection, in the child only")
    func childAdds() throws {
        let parent = try Injector(storage)
        let child = try parent.child(modules: [disk])
        #expect(try child.getInstance([any HealthCheck].self).map(\.name) == ["database", "disk"])
        #expect(try parent.getInstance([any HealthCheck].self).map(\.name) == ["database"])
    }

    @Test("a child's map entry of a key its parent contributes is an error, and its override replaces it")
    func childMapEntries() throws {
        let parent = try Injector(Bindings { $0.contribute(to: [String: Int].self, key: "a").to(instance: 1) })
        let error = try #require(throws: InjectionError.self) {
            try parent.child(modules: [Bindings { $0.contribute(to: [String: Int].self, key: "a").to(instance: 2) }])
        }
        #expect(error.kind == .duplicateBinding)
        let child = try parent.child(overrides: [Bindings { $0.contribute(to: [String: Int].self, key: "a").to(instance: 3) }])
        #expect(try child.getInstance([String: Int].self) == ["a": 3])
    }

    @Test("a grandchild adds to what its parent and grandparent contributed")
    func grandchildAdds() throws {
        let root = try Injector(Bindings { $0.contribute(to: [Int].self).to(instance: 1) })
        let child = try root.child(modules: [Bindings { $0.contribute(to: [Int].self).to(instance: 2) }])
        let grandchild = try child.child(modules: [Bindings { $0.contribute(to: [Int].self).to(instance: 3) }])
        #expect(try grandchild.getInstance([Int].self) == [1, 2, 3])
    }

    // Numbering each contribution went over every one recorded before: 5,000 took 10 s.
    @Test("20,000 contributions to one array are gathered in order")
    func manyContributions() throws {
        let injector = try Injector(Bindings { binder in
            for value in 0..<20_000 { binder.contribute(to: [Int].self).to(instance: value) }
        })
        #expect(try injector.getInstance([Int].self) == Array(0..<20_000))
    }

    @Test("contributions to two collections are numbered each within its own collection")
    func numberedPerCollection() throws {
        let injector = try Injector(Bindings { binder in
            binder.contribute(to: [Int].self).to(instance: 1)
            binder.contribute(to: Set<Int>.self).to(instance: 1)
            binder.contribute(to: [Int].self).to(instance: 2)
        })
        let text = injector.exportGraph(as: .text)
        #expect(text.contains("Int (contribution 2 to Array<Int> by Bindings at "), "\(text)")
        #expect(text.contains("Int (contribution 1 to Set<Int> by Bindings at "), "\(text)")
        #expect(!text.contains("contribution 3"), "\(text)")
    }

    @Test("the graph export draws one edge per contribution")
    func exported() throws {
        let injector = try Injector(Bindings { binder in
            binder.contribute(to: [String: Int].self, key: "a").to(instance: 1)
        })
        let text = injector.exportGraph(as: .text)
        #expect(text.contains("Dictionary<String, Int> — unscoped, collection\n  contribution \"a\" → Int (contribution 1 to Dictionary<String, Int> by Bindings at "), "\(text)")
    }

    @Test("a child's and an override's contributions are written with what recorded them")
    func childAndOverrideContributionsWritten() throws {
        let parent = try Injector(Bindings { $0.contribute(to: [Int].self).to(instance: 1) })
        let child = try parent.child(
            modules: [Bindings { $0.contribute(to: [Int].self).to(instance: 2) }],
            overrides: [Bindings { $0.contribute(to: [Int].self).to(instance: 3) }])
        let text = child.exportGraph(as: .text)
        #expect(text.contains("Int (child 1 contribution 1 to Array<Int> by Bindings at "), "\(text)")
        #expect(text.contains("Int (child 1 override contribution 1 to Array<Int> by Bindings at "), "\(text)")
    }

    @Test("a problem names a contribution by the module and the line that contributed it")
    func contributionNamedByModuleAndLine() throws {
        let line = #line + 1
        let module = HealthModule { $0.contribute(to: [any HealthCheck].self).to(NeedsMissing.self) }
        let error = try #require(#expect(throws: InjectionError.self) { _ = try Injector(module) })
        let contribution = "HealthCheck (contribution 1 to Array<HealthCheck> by HealthModule at \(#fileID):\(line))"
        #expect(error.problems.first?.pathDescription == "\(contribution) → NeedsMissing → Api", "\(error)")
    }
}

private struct HealthModule: Module {
    let body: @Sendable (Binder) -> Void
    init(_ body: @escaping @Sendable (Binder) -> Void) { self.body = body }
    func configure(_ binder: Binder) { body(binder) }
}
