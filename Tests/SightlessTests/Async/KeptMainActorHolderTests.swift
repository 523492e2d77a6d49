import Sightless
import Testing

// A value kept by a scope that is not isolated to the main actor (a nonisolated singleton, an
// actor) may hold a value isolated to it, as Swift lets it: a `@MainActor` class is `Sendable`,
// and the holder calls it with `await`. The graph decides where the holder can be built: its
// first build needs the main actor, so it is built there when requested there, hops there when
// awaited, and throws `offActor` when requested synchronously anywhere else before it is built.

private let holderBuilds = Locked<[String: Int]>([:])

private func countHolder(_ counter: String) {
    holderBuilds.withLock { $0[counter, default: 0] += 1 }
}

private func holders(_ counter: String) -> Int { holderBuilds.withLock { $0[counter] ?? 0 } }

/// A main-actor service, one per injector: inferred `@MainActor` from its conformance.
private final class DialogService: MainActorInjectable {
    private(set) var shown = 0
    func present() { shown += 1 }
    static let initializer = Initializer(DialogService.init)
    static var scope: Scope { .singleton }
}

/// A nonisolated singleton that holds the main-actor service.
private final class AccountCache: Injectable, Sendable {
    let dialogs: DialogService
    init(dialogs: DialogService, counter: String) {
        self.dialogs = dialogs
        countHolder(counter)
    }
    static let initializer = Initializer(AccountCache.init(dialogs:counter:), .inject, .named("counter"))
    static var scope: Scope { .singleton }
}

/// An actor kept as a singleton that holds the main-actor service and calls it with `await`.
private actor AccountService: Injectable {
    let dialogs: DialogService
    init(dialogs: DialogService) { self.dialogs = dialogs }
    static let initializer = Initializer(AccountService.init(dialogs:))
    static var scope: Scope { .singleton }

    func signIn() async { await dialogs.present() }
}

/// A nonisolated, unscoped value between a kept one and the main-actor service.
private final class DialogPresenter: Injectable, Sendable {
    let dialogs: DialogService
    init(dialogs: DialogService) { self.dialogs = dialogs }
    static let initializer = Initializer(DialogPresenter.init(dialogs:))
}

/// A nonisolated value, kept in whatever scope its binding says, that reaches the main-actor
/// service through an unscoped value.
private final class SessionStore: Injectable, Sendable {
    let presenter: DialogPresenter
    init(presenter: DialogPresenter) { self.presenter = presenter }
    static let initializer = Initializer(SessionStore.init(presenter:))
}

@globalActor private actor VaultActor {
    static let shared = VaultActor()
}

/// A value of a custom global actor, built by an `async` closure that awaits its actor.
@VaultActor
private final class Vault {
    private(set) var secrets: [String] = []
    init() {}
    func store(_ secret: String) { secrets.append(secret) }
}

/// A nonisolated singleton that holds the custom global actor's value.
private final class Wallet: Injectable, Sendable {
    let vault: Vault
    init(vault: Vault) { self.vault = vault }
    static let initializer = Initializer(Wallet.init(vault:))
    static var scope: Scope { .singleton }
}

private struct AccountModule: Module {
    let counter: String
    var sessionScope: Scope = .singleton
    func configure(_ binder: Binder) {
        binder.bind(Key<String>(named: "counter")).to(instance: counter)
        binder.bind(SessionStore.self).in(sessionScope)
        binder.bind(AccountService.self)
        binder.bind(Vault.self).to { _ async in await Vault() }.in(.singleton)
    }
}

/// What a synchronous request made on a detached task gave: the identity of its value, or the
/// kind of its error.
private enum Outcome: Equatable {
    case built(ObjectIdentifier)
    case failed(InjectionError.Kind?)
}

private func offMainActor<Value: AnyObject & Sendable>(
    _ request: @escaping @Sendable () throws -> Value
) async -> Outcome {
    await Task.detached {
        do {
            return .built(ObjectIdentifier(try request()))
        } catch {
            return .failed((error as? InjectionError)?.kind)
        }
    }.value
}

@Suite("Kept values that hold main-actor values")
struct KeptMainActorHolderTests {
    @Test("a nonisolated singleton holding a main-actor service is built on the main actor when requested there")
    @MainActor
    func nonisolatedSingletonOnMainActor() throws {
        let injector = try Injector(modules: [AccountModule(counter: #function)])
        let cache = try injector.getInstance(AccountCache.self)
        #expect(cache === (try injector.getInstance(AccountCache.self)))
        #expect(cache.dialogs === (try injector.getInstance(DialogService.self)))
        #expect(holders(#function) == 1)
    }

    @Test("awaited from a task elsewhere, a kept holder hops to the main actor for the service and is built once")
    func awaitedFromElsewhere() async throws {
        let injector = try await Injector.start(modules: [AccountModule(counter: #function)])
        let identities = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<20 {
                group.addTask { ObjectIdentifier(try await injector.instance(AccountCache.self)) }
            }
            var seen: Set<ObjectIdentifier> = []
            for try await identity in group { seen.insert(identity) }
            return seen
        }
        let onMainActor = try await MainActor.run { ObjectIdentifier(try injector.getInstance(AccountCache.self)) }
        #expect(identities == [onMainActor])
        #expect(holders(#function) == 1)
    }

    @Test("a synchronous request elsewhere throws offActor until the holder is built, then returns it")
    @MainActor
    func synchronousElsewhere() async throws {
        let injector = try Injector(modules: [AccountModule(counter: #function)])
        #expect(await offMainActor { try injector.getInstance(AccountCache.self) } == .failed(.offActor))
        #expect(holders(#function) == 0)
        let built = try injector.getInstance(AccountCache.self)
        #expect(await offMainActor { try injector.getInstance(AccountCache.self) } == Outcome.built(ObjectIdentifier(built)))
        #expect(holders(#function) == 1)
    }

    @Test("an actor kept as a singleton holds a main-actor service and calls it with await")
    @MainActor
    func actorSingleton() async throws {
        let injector = try Injector(modules: [AccountModule(counter: #function)])
        let account = try injector.getInstance(AccountService.self)
        await account.signIn()
        #expect(try injector.getInstance(DialogService.self).shown == 1)
    }

    @Test("the exported graph keeps an actor holding a main-actor service as it is declared, not isolated to the main actor")
    @MainActor
    func exportedIsolation() throws {
        let injector = try Injector(modules: [AccountModule(counter: #function)])
        let lines = injector.exportGraph(as: .text).split(separator: "\n")
        #expect(lines.contains("AccountService — singleton, type, kept by this injector, needs MainActor to be built"))
        #expect(lines.contains("DialogService — singleton, just-in-time type, kept by this injector, isolated to MainActor"))
    }

    @Test("a value kept in any scope may reach a main-actor service through unscoped values", arguments: [
        Scope.singleton, .eagerSingleton, .weak, .perRequest,
    ])
    @MainActor
    func everyScope(scope: Scope) throws {
        let injector = try Injector(modules: [AccountModule(counter: "\(#function) \(scope)", sessionScope: scope)])
        let store = try injector.getInstance(SessionStore.self)
        #expect(store.presenter.dialogs === (try injector.getInstance(DialogService.self)))
    }

    @Test("an eager holder is built with an injector started from a task elsewhere, hopping to the main actor")
    func eagerHolderStarted() async throws {
        let injector = try await Task.detached {
            try await Injector.start(modules: [AccountModule(counter: #function, sessionScope: .eagerSingleton)])
        }.value
        let store = try await injector.instance(SessionStore.self)
        #expect(await offMainActor { try injector.getInstance(SessionStore.self) } == Outcome.built(ObjectIdentifier(store)))
    }

    @Test("an eager holder makes a synchronous injector built elsewhere throw offActor")
    func eagerHolderBuiltElsewhere() async throws {
        let kind = await Task.detached { () -> InjectionError.Kind? in
            do {
                _ = try Injector(modules: [AccountModule(counter: #function, sessionScope: .eagerSingleton)])
                return nil
            } catch {
                return (error as? InjectionError)?.kind
            }
        }.value
        #expect(kind == .offActor)
    }

    @Test("a nonisolated singleton holding a value of a custom global actor is awaited and shared")
    func customGlobalActor() async throws {
        let injector = try await Injector.start(modules: [AccountModule(counter: #function)])
        let wallet = try await Task.detached { try await injector.instance(Wallet.self) }.value
        await wallet.vault.store("seed")
        #expect(await (try injector.instance(Wallet.self)).vault.secrets == ["seed"])
    }
}
