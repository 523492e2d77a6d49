import Sightless
import Testing

// The benchmark's async graph: one async leaf under a diamond of consumers, the root taking a
// dynamic argument.

private final class Leaf: Injectable, Sendable {
    init() async {}
    static let initializer = Initializer(Leaf.init)
}

private final class Middle: Injectable, Sendable {
    let leaf: Leaf
    init(leaf: Leaf) { self.leaf = leaf }
    static let initializer = Initializer(Middle.init(leaf:))
}

private final class Users: Injectable, Sendable {
    let middle: Middle
    init(middle: Middle) { self.middle = middle }
    static let initializer = Initializer(Users.init(middle:))
}

private final class Feed: Injectable, Sendable {
    let middle: Middle
    let users: Users
    init(middle: Middle, users: Users) {
        self.middle = middle
        self.users = users
    }
    static let initializer = Initializer(Feed.init(middle:users:))
}

private final class Page: Injectable, Sendable {
    let feed: Feed
    let users: Users
    let title: String
    init(feed: Feed, users: Users, title: String) {
        self.feed = feed
        self.users = users
        self.title = title
    }
    static let initializer = Initializer(Page.init(feed:users:title:), .inject, .inject, .dynamic)
}

@Suite("Async graph shapes")
struct AsyncGraphShapeTests {
    @Test("a diamond of consumers over one async leaf is built, each consumer with its own values")
    func diamond() async throws {
        let injector = try Injector(modules: [])
        let page = try await injector.instance(Page.self, arguments: "Inbox")
        #expect(page.title == "Inbox")
        #expect(page.feed.middle !== page.feed.users.middle)
        #expect(page.users !== page.feed.users)
    }
}

@Suite("Async values and child injectors")
struct AsyncChildTests {
    @Test("a child awaits its parent's async singleton, shared with the parent")
    func childAwaitsParentSingleton() async throws {
        let parent = try Injector(asyncBindings { $0.bind(DatabasePool.self).in(.singleton) })
        let child = try parent.child { binder in
            binder.bind(Key<String>(named: "user")).to { _ async in "ada" }
        }
        let fromChild = try await child.instance(RecordStore.self)
        #expect(try await parent.instance(DatabasePool.self) === fromChild.pool)
        #expect(try await child.instance(Key<String>(named: "user")) == "ada")
    }
}

private final class SelfAwaiting: Injectable, Sendable {
    init(me: Lazy<SelfAwaiting>) async throws {
        _ = try await me.value
    }
    static let initializer = Initializer(SelfAwaiting.init(me:))
}

private final class SelfMaking: Injectable, Sendable {
    init(me: Factory<SelfMaking>) async throws {
        _ = try await me.instance()
    }
    static let initializer = Initializer(SelfMaking.init(me:))
}

@Suite("Awaited re-entry")
struct AwaitedReentryTests {
    @Test("an async initializer that awaits a Lazy of its own type is a cycle error, not an endless await")
    func lazyOfItself() async throws {
        let injector = try Injector(modules: [])
        let error = await #expect(throws: InjectionError.self) { _ = try await injector.instance(SelfAwaiting.self) }
        #expect(error?.kind == .cyclicDependency)
    }

    @Test("an async initializer that awaits a Factory of its own type is a cycle error, not an endless await")
    func factoryOfItself() async throws {
        let injector = try Injector(modules: [])
        let error = await #expect(throws: InjectionError.self) { _ = try await injector.instance(SelfMaking.self) }
        #expect(error?.kind == .cyclicDependency)
    }
}

private final class Hub: Sendable {}

private final class Spoke: Injectable, Sendable {
    init(hub: Hub) {}
    static let initializer = Initializer(Spoke.init(hub:))
}

private final class SpokeHolder: Injectable, Sendable {
    let spoke: Lazy<Spoke>
    init(spoke: Lazy<Spoke>) { self.spoke = spoke }
    static let initializer = Initializer(SpokeHolder.init(spoke:))
}

extension AwaitedReentryTests {
    @Test("an async singleton whose build awaits, through a Lazy, something that needs the singleton is a cycle error, not a deadlock")
    func singletonThroughLazy() async throws {
        let injector = try Injector(Bindings { binder in
            binder.bind(Hub.self).to { resolver async throws in
                _ = try await resolver.getInstance(SpokeHolder.self).spoke.value
                return Hub()
            }.in(.singleton)
        })
        let error = await #expect(throws: InjectionError.self) { _ = try await injector.instance(Hub.self) }
        #expect(error?.kind == .cyclicDependency)
    }
}

private protocol Vault: Sendable { var sealed: Bool { get } }

private final class RemoteVault: Vault, Injectable {
    let sealed = true
    init() async {}
    static let initializer = Initializer(RemoteVault.init)
}

private final class VaultUser: Injectable, Sendable {
    let vault: any Vault
    let spare: (any Vault)?
    init(vault: any Vault, spare: (any Vault)?) {
        self.vault = vault
        self.spare = spare
    }
    static let initializer = Initializer(VaultUser.init(vault:spare:))
}

@Suite("Awaited aliases")
struct AwaitedAliasTests {
    @Test("a protocol bound to a type with an async initializer is awaited, directly and as an optional")
    func aliasToAsyncType() async throws {
        let injector = try Injector(Bindings { binder in
            binder.bind((any Vault).self).to(RemoteVault.self).in(.singleton)
        })
        let user = try await injector.instance(VaultUser.self)
        #expect(user.vault.sealed)
        #expect(user.spare.map { ($0 as AnyObject) === (user.vault as AnyObject) } == true)
        let error = #expect(throws: InjectionError.self) { _ = try Injector(Bindings { _ in }).getInstance(VaultUser.self) }
        #expect(error?.kind == .missingBinding)
    }
}
