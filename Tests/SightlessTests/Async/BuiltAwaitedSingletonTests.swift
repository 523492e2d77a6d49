import Sightless
import Testing

private final class Vault: Injectable {
    init() async {}
    static let initializer = Initializer(Vault.init)
    static var scope: Scope { .singleton }
}

private final class Keeper: Injectable {
    init(vault: Vault) {}
    static let initializer = Initializer(Keeper.init(vault:))
    static var scope: Scope { .singleton }
}

private final class Reader: Injectable {
    init(vault: Vault) {}
    static let initializer = Initializer(Reader.init(vault:))
}

@Suite("A kept value built with await, requested synchronously")
struct BuiltAwaitedSingletonTests {
    @Test("a singleton built with await is returned to a synchronous request once an awaited request built it")
    func builtSingletonReturned() async throws {
        let injector = try Injector(modules: [])
        let vault = try await injector.instance(Vault.self)
        #expect(try injector.getInstance(Vault.self) === vault)
    }

    @Test("an unscoped value whose awaited singleton is built is built by a synchronous request")
    func unscopedOverBuiltSingleton() async throws {
        let injector = try Injector(modules: [])
        _ = try await injector.instance(Vault.self)
        _ = try injector.getInstance(Reader.self)
    }

    @Test("a singleton whose awaited dependency is built is built by a synchronous request, once")
    func keptBuiltOverBuiltDependency() async throws {
        let injector = try Injector(modules: [])
        _ = try await injector.instance(Vault.self)
        let keeper = try injector.getInstance(Keeper.self)
        #expect(try injector.getInstance(Keeper.self) === keeper)
        #expect(try await injector.instance(Keeper.self) === keeper)
    }

    @Test("a singleton whose awaited dependency is not built yet is told it needs await")
    func keptNotBuiltBeforeDependency() throws {
        let injector = try Injector(modules: [])
        let error = try #require(#expect(throws: InjectionError.self) { _ = try injector.getInstance(Keeper.self) })
        #expect(error.kind == .needsAwait)
        guard case .keptNotBuilt(let key, let scope, let awaited, let awaitedIsBuilt)? = error.problems.first?.detail else {
            Issue.record("expected keptNotBuilt, got \(error)")
            return
        }
        #expect(key == Key<Keeper>().erased && scope == "singleton" && awaited == Key<Vault>().erased && !awaitedIsBuilt)
    }

    @Test("a singleton built with await, requested synchronously before any awaited request, is told it is not built yet")
    func singletonNotBuiltYet() throws {
        let injector = try Injector(modules: [])
        let error = try #require(#expect(throws: InjectionError.self) { _ = try injector.getInstance(Vault.self) })
        #expect(error.problems.first?.message == "Vault is a singleton built with await (its initializer, closure or provider is async), and was requested synchronously before an awaited request built it.")
    }

    @Test("once built by an awaited request, the singleton whose build awaits is read synchronously")
    func keptReadOnceBuilt() async throws {
        let injector = try Injector(modules: [])
        let keeper = try await injector.instance(Keeper.self)
        #expect(try injector.getInstance(Keeper.self) === keeper)
    }
}
