import Sightless
import Synchronization
import Testing

private final class ChildDatabase: Injectable {
    static let initializer = Initializer(ChildDatabase.init)
}

private final class ChildUser: Sendable {
    let name: String
    init(name: String) { self.name = name }
}

private final class ChildHandler: Injectable {
    let database: ChildDatabase
    let user: ChildUser
    let injector: Injector
    init(database: ChildDatabase, user: ChildUser, injector: Injector) {
        self.database = database
        self.user = user
        self.injector = injector
    }
    static let initializer = Initializer(ChildHandler.init(database:user:injector:))
}

private final class ChildSession: Injectable {
    static let initializer = Initializer(ChildSession.init)
}

private final class ChildNeedsUser: Injectable {
    init(user: ChildUser) {}
    static let initializer = Initializer(ChildNeedsUser.init(user:))
}

private struct ParentModule: Module {
    func configure(_ binder: Binder) {
        binder.bind(ChildDatabase.self).in(.singleton)
        binder.bind(Key<String>(named: "region")).to(instance: "eu")
    }
}

@Suite("Child injectors")
struct ChildInjectorTests {
    @Test("a child resolves its parent's bindings")
    func resolvesParentBinding() throws {
        let child = try Injector(modules: [ParentModule()]).child()
        #expect(try child.getInstance(Key<String>(named: "region")) == "eu")
    }

    @Test("a child shares its parent's singletons")
    func sharesParentSingleton() throws {
        let parent = try Injector(modules: [ParentModule()])
        let child = try parent.child { $0.bind(ChildUser.self).to(instance: ChildUser(name: "ada")) }
        #expect(try child.getInstance(ChildHandler.self).database === (try parent.getInstance(ChildDatabase.self)))
    }

    @Test("a child's own singletons differ between two children")
    func childSingletonsDiffer() throws {
        let parent = try Injector(modules: [ParentModule()])
        let first = try parent.child { $0.bind(ChildSession.self).in(.singleton) }
        let second = try parent.child { $0.bind(ChildSession.self).in(.singleton) }
        #expect(try first.getInstance(ChildSession.self) === (try first.getInstance(ChildSession.self)))
        #expect(try first.getInstance(ChildSession.self) !== (try second.getInstance(ChildSession.self)))
    }

    @Test("a child's override does not change its parent")
    func overrideStaysInChild() throws {
        let parent = try Injector(modules: [ParentModule()])
        let child = try parent.child(overrides: [Bindings { $0.bind(Key<String>(named: "region")).to(instance: "us") }])
        #expect(try child.getInstance(Key<String>(named: "region")) == "us")
        #expect(try parent.getInstance(Key<String>(named: "region")) == "eu")
    }

    @Test("a child module binding a key its parent binds is an error naming the key")
    func shadowingIsAnError() throws {
        let parent = try Injector(modules: [ParentModule()])
        let error = #expect(throws: InjectionError.self) {
            _ = try parent.child { $0.bind(Key<String>(named: "region")).to(instance: "us") }
        }
        guard case .boundByParent(let key, _)? = error?.problems.first?.detail else {
            Issue.record("expected boundByParent, got \(String(describing: error))")
            return
        }
        #expect(key == Key<String>(named: "region").erased)
    }

    @Test("a child that cannot build one of its types fails when it is made")
    func childValidatedWhenMade() throws {
        let parent = try Injector(modules: [ParentModule()])
        let error = #expect(throws: InjectionError.self) { _ = try parent.child { $0.bind(ChildNeedsUser.self) } }
        #expect(error?.kind == .missingBinding)
        #expect(error?.path == [Key<ChildNeedsUser>().erased, Key<ChildUser>().erased])
    }

    @Test("the injector injected into an object built by a child is the child")
    func injectedInjectorIsChild() throws {
        let parent = try Injector(modules: [ParentModule()])
        let child = try parent.child { $0.bind(ChildUser.self).to(instance: ChildUser(name: "ada")) }
        #expect(try child.getInstance(ChildHandler.self).injector === child)
    }

    @Test("a child and its singletons are released when dropped; the parent stays")
    func childReleased() throws {
        let parent = try Injector(modules: [ParentModule()])
        weak var weakChild: Injector?
        weak var weakSession: ChildSession?
        do {
            let child = try parent.child { $0.bind(ChildSession.self).in(.singleton) }
            weakSession = try child.getInstance(ChildSession.self)
            weakChild = child
        }
        #expect(weakChild == nil)
        #expect(weakSession == nil)
        #expect(try parent.getInstance(Key<String>(named: "region")) == "eu")
    }

    @Test("children made from 8 threads each see their own values and build the parent's singleton once")
    func childrenFromManyThreads() throws {
        let builds = Counter()
        let parent = try Injector(Bindings { binder in
            binder.bind(ChildDatabase.self).to { _ in
                builds.increment()
                return ChildDatabase()
            }.in(.singleton)
        })
        let failures = Counter()
        race(threads: 8) { thread in
            for round in 0..<250 {
                let name = "user-\(thread)-\(round)"
                do {
                    let child = try parent.child { $0.bind(ChildUser.self).to(instance: ChildUser(name: name)) }
                    let handler = try child.getInstance(ChildHandler.self)
                    if handler.user.name != name { failures.increment() }
                } catch {
                    failures.increment()
                }
            }
        }
        #expect(failures.count == 0)
        #expect(builds.count == 1)
    }
}

@Suite("Child injectors, exported")
struct ChildExportTests {
    @Test("a child's graph marks the keys it takes from its parent")
    func parentKeysMarked() throws {
        let parent = try Injector(modules: [ParentModule()])
        let child = try parent.child { binder in
            binder.bind(ChildUser.self).to(instance: ChildUser(name: "ada"))
            binder.bind(ChildHandler.self)
        }
        let text = child.exportGraph(as: .text)
        #expect(text.contains("ChildDatabase — parent's"))
        #expect(text.contains("ChildUser — unscoped, instance"))
        #expect(text.contains("ChildHandler — unscoped, type"))
    }
}

private final class ChildSharedClock: Injectable {
    static let initializer = Initializer(ChildSharedClock.init)
    static var scope: Scope { .singleton }
}

private final class ChildClockUser: Injectable {
    let clock: ChildSharedClock
    let user: ChildUser
    init(clock: ChildSharedClock, user: ChildUser) {
        self.clock = clock
        self.user = user
    }
    static let initializer = Initializer(ChildClockUser.init(clock:user:))
}

@Suite("Child injectors, types first requested through a child")
struct ChildJustInTimeTests {
    @Test("a self-declared singleton first requested through two children is the parent's one")
    func sharedJustInTimeSingleton() throws {
        let parent = try Injector(modules: [])
        let first = try parent.child { $0.bind(ChildUser.self).to(instance: ChildUser(name: "ada")) }
        let second = try parent.child { $0.bind(ChildUser.self).to(instance: ChildUser(name: "grace")) }
        let one = try first.getInstance(ChildClockUser.self)
        let two = try second.getInstance(ChildClockUser.self)
        #expect(one.clock === two.clock)
        #expect(one.clock === (try parent.getInstance(ChildSharedClock.self)))
        #expect(one.user.name == "ada")
        #expect(two.user.name == "grace")
    }
}
