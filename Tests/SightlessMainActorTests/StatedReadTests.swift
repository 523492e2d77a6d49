import Sightless
import Testing

// A main-actor type states what it reads where it stands: its key paths are isolated to the main
// actor, and the graph still knows its reads when the injector is built.

/// A main-actor view model the injector builds, stating both of its reads.
final class StatingFeedModel: MainActorInjectable {
    @Injected(default: Settings()) var settings: Settings
    let greeter = Injection<Greeter>()
    let title = Injection<String>(named: "title")
    init() {}
    static let initializer = Initializer(StatingFeedModel.init)
    static let properties = Properties<StatingFeedModel>()
        .reads(\.$settings)
        .reads(\.greeter)
        .reads(\.title, named: "title")
}

/// A nonisolated type made main-actor-injectable in an extension: its key paths are `Sendable`.
nonisolated final class StatingJournal: @unchecked Sendable {
    let title = Injection<String>(named: "title")
    init() {}
}

extension StatingJournal: MainActorInjectable {
    static let initializer = Initializer(StatingJournal.init)
    static let properties = Properties<StatingJournal>().reads(\.title, named: "title")
}

private func feedModule(title: Bool = true) -> AnyModule {
    AnyModule { binder in
        binder.entryPoint(StatingFeedModel.self)
        binder.bind(Settings.self).to { _ in
            let settings = Settings()
            settings.pageSize = 7
            return settings
        }
        if title { binder.bind(Key<String>(named: "title")).to(instance: "Feed") }
    }
}

@Suite("Reads stated by a main-actor type")
struct MainActorStatedReadTests {
    @Test("a main-actor type's stated reads are resolved as it is built")
    func statedReadsResolve() throws {
        let model = try Injector(modules: [feedModule()]).getInstance(StatingFeedModel.self)
        #expect(model.settings.pageSize == 7)
        #expect(try model.greeter.get().greet("ada") == "hello, ada")
        #expect(try model.title.get() == "Feed")
    }

    @Test("a main-actor type's stated read without a binding is reported when the injector is built")
    func missingStatedReadAtBuild() throws {
        let error = #expect(throws: InjectionError.self) { try Injector(modules: [feedModule(title: false)]) }
        #expect(error?.kind == .missingBinding)
        #expect(error?.problems.count == 1)
        #expect(error?.problems.first?.message.contains("StatingFeedModel") == true, "\(String(describing: error))")
    }

    @Test("explain draws a main-actor type's stated reads")
    func explainDrawsStatedReads() throws {
        let text = try Injector(modules: [feedModule()]).explain(StatingFeedModel.self)
        #expect(text.contains("Settings"), "\(text)")
        #expect(text.contains("Greeter"), "\(text)")
        #expect(text.contains("title"), "\(text)")
    }

    @Test("a nonisolated main-actor-injectable type states its reads with the same spelling")
    func nonisolatedTypeStatesReads() throws {
        let injector = try Injector(modules: [AnyModule { binder in
            binder.bind(Key<String>(named: "title")).to(instance: "Journal")
        }])
        #expect(try injector.getInstance(StatingJournal.self).title.get() == "Journal")
        let error = #expect(throws: InjectionError.self) {
            try Injector(modules: [AnyModule { $0.entryPoint(StatingJournal.self) }])
        }
        #expect(error?.kind == .missingBinding)
    }
}
