import Sightless
import Testing

private protocol Storage: Sendable { var kind: String { get } }

private final class DiskStorage: Storage, Injectable {
    let kind = "disk"
    static let initializer = Initializer(DiskStorage.init)
}

private final class MemoryStorage: Storage, Injectable {
    let kind = "memory"
    static let initializer = Initializer(MemoryStorage.init)
    static var scope: Scope { .singleton }
}

private final class Archive: Injectable {
    let storage: any Storage
    init(storage: any Storage) { self.storage = storage }
    static let initializer = Initializer(Archive.init(storage:))
}

private var disk: Bindings { Bindings { $0.candidate(DiskStorage.self, for: (any Storage).self) { $0 } } }
private var memory: Bindings { Bindings { $0.candidate(MemoryStorage.self, for: (any Storage).self) { $0 } } }

@Suite("Auto-wiring to the only candidate")
struct CandidateTests {
    @Test("a protocol nothing binds is bound to its only candidate")
    func onlyCandidateBound() throws {
        let injector = try Injector(disk)
        #expect(try injector.getInstance((any Storage).self).kind == "disk")
        #expect(try injector.getInstance(Archive.self).storage.kind == "disk")
    }

    @Test("the candidate keeps its own scope")
    func candidateScope() throws {
        let injector = try Injector(memory)
        #expect(try injector.getInstance((any Storage).self) as? MemoryStorage
                === injector.getInstance((any Storage).self) as? MemoryStorage)
    }

    @Test("two candidates are an ambiguous binding listing both with their lines")
    func twoCandidatesAmbiguous() throws {
        let error = try #require(throws: InjectionError.self) { try Injector(modules: [disk, memory]) }
        guard case .severalCandidates(let key, let candidates) = error.problems.first?.detail else {
            Issue.record("expected several candidates, got \(error)")
            return
        }
        #expect(key == Key<any Storage>().erased)
        #expect(candidates.map(\.type) == [Key<DiskStorage>().erased, Key<MemoryStorage>().erased])
        #expect(candidates.allSatisfy { $0.location.fileID.hasSuffix("CandidateTests.swift") })
        #expect(error.kind == .ambiguousBinding)
    }

    @Test("the same type offered twice is one candidate")
    func sameTypeTwice() throws {
        let injector = try Injector(modules: [disk, disk])
        #expect(try injector.getInstance((any Storage).self).kind == "disk")
    }

    @Test("an explicit binding wins over the candidates")
    func explicitWins() throws {
        let injector = try Injector(modules: [disk, memory, Bindings { $0.bind((any Storage).self).to(MemoryStorage.self) }])
        #expect(try injector.getInstance((any Storage).self).kind == "memory")
    }

    @Test("an override wins over the only candidate")
    func overrideWins() throws {
        let injector = try Injector(modules: [disk]) { $0.bind((any Storage).self).to(MemoryStorage.self) }
        #expect(try injector.getInstance((any Storage).self).kind == "memory")
    }

    @Test("the export marks an auto-wired protocol")
    func exportMarksAutoWired() throws {
        let injector = try Injector(disk)
        #expect(injector.exportGraph(as: .text).contains("Storage — unscoped, auto-wired\n  bound to → DiskStorage"))
    }
}
