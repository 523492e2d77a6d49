import Sightless
import Testing

/// The actor of a storage layer.
@globalActor actor StorageActor {
    static let shared = StorageActor()
}

@StorageActor final class NoteArchive {
    private(set) var notes: [String] = []
    let clock: Timekeeper
    init(clock: Timekeeper) { self.clock = clock }
    func add(_ note: String) { notes.append(note) }
}

final class Timekeeper: Injectable, Sendable {
    static let initializer = Initializer(Timekeeper.init)
}

@MainActor final class ArchiveViewModel {
    let store: NoteArchive
    init(store: NoteArchive) { self.store = store }
}

private struct IsolatedModule: Module {
    func configure(_ binder: Binder) {
        binder.bind(NoteArchive.self).to { resolver async throws in
            await NoteArchive(clock: try resolver.getInstance(Timekeeper.self))
        }.in(.singleton)
        binder.bind(ArchiveViewModel.self).to { resolver async throws in
            await ArchiveViewModel(store: try await resolver.instance(NoteArchive.self))
        }
    }
}

@Suite("Actor-isolated types")
struct IsolatedTypeTests {
    @Test("a main-actor type is built by an async closure and awaited")
    @MainActor
    func mainActorType() async throws {
        let injector = try Injector(modules: [IsolatedModule()])
        let model = try await injector.instance(ArchiveViewModel.self)
        await model.store.add("first")
        #expect(await model.store.notes == ["first"])
    }

    @Test("a custom global actor's singleton is built once and shared by tasks on any executor")
    func globalActorSingleton() async throws {
        let injector = try Injector(modules: [IsolatedModule()])
        let identities = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<20 {
                group.addTask { ObjectIdentifier(try await injector.instance(NoteArchive.self)) }
            }
            var seen: Set<ObjectIdentifier> = []
            for try await identity in group { seen.insert(identity) }
            return seen
        }
        #expect(identities.count == 1)
    }

    @Test("an isolated type requested from a detached task is the same singleton")
    func detachedRequest() async throws {
        let injector = try Injector(modules: [IsolatedModule()])
        let first = try await injector.instance(NoteArchive.self)
        let detached = try await Task.detached { try await injector.instance(NoteArchive.self) }.value
        #expect(first === detached)
    }
}
