import Sightless
import Testing

// In a target isolated to the main actor by default: a main-actor service (inferred from its
// conformance), held by an actor and by a nonisolated class, both kept as singletons, with no
// type relabelled to the main actor.

final class DialogCenter: MainActorInjectable {
    private(set) var shown: [String] = []
    func show(_ text: String) { shown.append(text) }
    static let initializer = Initializer(DialogCenter.init)
    static var scope: Scope { .singleton }
}

actor AccountService: Injectable {
    let dialogs: DialogCenter
    init(dialogs: DialogCenter) { self.dialogs = dialogs }
    static let initializer = Initializer(AccountService.init(dialogs:))
    static var scope: Scope { .singleton }

    func signOut() async { await dialogs.show("signed out") }
}

nonisolated final class SyncEngine: Injectable, Sendable {
    let dialogs: DialogCenter
    init(dialogs: DialogCenter) { self.dialogs = dialogs }
    static let initializer = Initializer(SyncEngine.init(dialogs:))
    static var scope: Scope { .singleton }
}

struct AccountModule: Module {
    func configure(_ binder: Binder) {
        binder.bind(AccountService.self)
        binder.bind(SyncEngine.self)
    }
}

@Suite("Kept values holding main-actor services, with default main-actor isolation")
struct KeptHolderTests {
    @Test("an actor singleton holding a main-actor service is accepted and calls it with await")
    func actorHolder() async throws {
        let injector = try Injector(modules: [AccountModule()])
        let account = try injector.getInstance(AccountService.self)
        await account.signOut()
        #expect(try injector.getInstance(DialogCenter.self).shown == ["signed out"])
    }

    @Test("a nonisolated singleton holding a main-actor service is awaited from a detached task")
    func nonisolatedHolderAwaited() async throws {
        let injector = try Injector(modules: [AccountModule()])
        let engine = try await Task.detached { try await injector.instance(SyncEngine.self) }.value
        #expect(engine === (try injector.getInstance(SyncEngine.self)))
        #expect(engine.dialogs === (try injector.getInstance(DialogCenter.self)))
    }
}
