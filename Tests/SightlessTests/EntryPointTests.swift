import Sightless
import Testing

private protocol EntryStore {}
private final class EntryHandler: Injectable {
    init(store: any EntryStore) {}
    static let initializer = Initializer(EntryHandler.init(store:))
}
private final class EntryClock: Injectable {
    static let initializer = Initializer(EntryClock.init)
}
private final class EntryScreen: Injectable {
    let title: String
    init(clock: EntryClock, title: String) { self.title = title }
    static let initializer = Initializer(EntryScreen.init(clock:title:), .inject, .dynamic)
}

@MainActor private final class EntryModel: MainActorInjectable {
    init(clock: EntryClock) {}
    static let initializer = Initializer(EntryModel.init(clock:))
}

@Suite("Entry points")
struct EntryPointTests {
    @Test("an entry point that cannot be built fails when the injector is built, not on the first request")
    func unbuildableEntryPointFailsAtBuild() {
        let error = #expect(throws: InjectionError.self) {
            _ = try Injector(Bindings { $0.entryPoint(EntryHandler.self) })
        }
        guard case .missingBinding(let key, let consumer, _, _)? = error?.problems.first?.detail else {
            Issue.record("expected missingBinding, got \(String(describing: error))")
            return
        }
        #expect(key == Key<any EntryStore>().erased)
        #expect(consumer?.key == Key<EntryHandler>().erased)
        #expect(error?.path == [Key<EntryHandler>().erased, Key<any EntryStore>().erased])
    }

    @Test("an entry point of a main-actor type is compiled when the injector is built")
    @MainActor func mainActorEntryPoint() throws {
        let injector = try Injector(Bindings { $0.entryPoint(EntryModel.self) })
        #expect(injector.exportGraph(as: .text).contains("EntryModel"))
        _ = try injector.getInstance(EntryModel.self)
    }

    @Test("a named entry point nothing binds is reported at its declaration")
    func unboundNamedEntryPoint() {
        let error = #expect(throws: InjectionError.self) {
            _ = try Injector(Bindings { $0.entryPoint(Key<String>(named: "motd"), fileID: "App/Main.swift", line: 9) })
        }
        #expect(error?.kind == .missingBinding)
        #expect(error?.location == SourceLocation(fileID: "App/Main.swift", line: 9))
    }

    @Test("entry points are drawn in the graph export")
    func entryPointsExported() throws {
        let injector = try Injector(Bindings { $0.entryPoint(EntryScreen.self) })
        let text = injector.exportGraph(as: .text)
        #expect(text.contains("EntryScreen — unscoped, just-in-time type, dynamic: String"))
        #expect(text.contains("EntryClock"))
    }

    @Test("an entry point with dynamic arguments is requested with them")
    func entryPointWithArguments() throws {
        let injector = try Injector(Bindings { $0.entryPoint(EntryScreen.self) })
        #expect(try injector.getInstance(EntryScreen.self, arguments: "Inbox").title == "Inbox")
    }

    @Test("a wrapper of a buildable type is a valid entry point")
    func wrapperEntryPoint() throws {
        let injector = try Injector(Bindings { binder in
            binder.entryPoint(Lazy<EntryClock>.self)
            binder.entryPoint(EntryClock?.self)
        })
        _ = try injector.getInstance(Lazy<EntryClock>.self).get()
        #expect(try injector.getInstance(EntryClock?.self) != nil)
    }
}

private struct EntryModule: Module {
    func configure(_ binder: Binder) {
        binder.bind(Key<String>(named: "greeting")).to(instance: "hello")
    }
}

@Suite("Overriding in one line")
struct OverridingTests {
    @Test("a closure of overrides replaces a module's binding")
    func closureOverrides() throws {
        let injector = try Injector(modules: [EntryModule()]) { $0.bind(Key<String>(named: "greeting")).to(instance: "hi") }
        #expect(try injector.getInstance(Key<String>(named: "greeting")) == "hi")
    }

    @Test("overrides written in place are validated like any module")
    func closureOverridesValidated() {
        let error = #expect(throws: InjectionError.self) {
            _ = try Injector(modules: [EntryModule()]) { binder in
                binder.bind(Key<String>(named: "greeting")).to(instance: "hi")
                binder.bind(Key<String>(named: "greeting")).to(instance: "hey")
            }
        }
        #expect(error?.kind == .duplicateBinding)
    }
}
