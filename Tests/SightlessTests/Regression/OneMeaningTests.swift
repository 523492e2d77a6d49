import Sightless
import Testing

// The same declarations meant different things depending on the path that reached them: a
// self-declared singleton first reached through a template was built once per child; recursion
// through a Factory with creation-time arguments was a cycle only when awaited; a nested
// optional argument was `nil` where a request of the same type gave the value.

private final class SharedDatabase: Injectable {
    static let initializer = Initializer(SharedDatabase.init)
    static var scope: Scope { .singleton }
}

private final class RequestUser: Sendable {
    let name: String
    init(name: String) { self.name = name }
}

private final class RequestHandler: Injectable {
    let database: SharedDatabase
    let user: RequestUser
    init(database: SharedDatabase, user: RequestUser) {
        self.database = database
        self.user = user
    }
    static let initializer = Initializer(RequestHandler.init(database:user:))
}

/// A self-declared singleton that needs a value only the child has: the child's own.
private final class Session: Injectable {
    let user: RequestUser
    init(user: RequestUser) { self.user = user }
    static let initializer = Initializer(Session.init(user:))
    static var scope: Scope { .singleton }
}

private final class SessionHandler: Injectable {
    let session: Session
    init(session: Session) { self.session = session }
    static let initializer = Initializer(SessionHandler.init(session:))
}

private final class AwaitedDeep: Injectable {
    let depth: Int
    init(depth: Int, factory: Factory<AwaitedDeep, Int>) async throws {
        self.depth = depth
        if depth > 0 { _ = try await factory.instance(depth - 1) }
    }
    static let initializer = Initializer(AwaitedDeep.init(depth:factory:), .dynamic, .inject)
}

private final class SyncDeep: Injectable {
    let depth: Int
    init(depth: Int, factory: Factory<SyncDeep, Int>) throws {
        self.depth = depth
        if depth > 0 { _ = try factory.make(depth - 1) }
    }
    static let initializer = Initializer(SyncDeep.init(depth:factory:), .dynamic, .inject)
}

/// Awaits a Factory of itself with no arguments: nothing new to build from, so a cycle.
private final class AwaitedSelfish: Injectable {
    init(factory: Factory<AwaitedSelfish>) async throws { _ = try await factory.instance() }
    static let initializer = Initializer(AwaitedSelfish.init(factory:))
}

private final class UnitOfWork: Injectable {
    static let initializer = Initializer(UnitOfWork.init)
}

private struct DoublyOptional: Injectable {
    let value: Int??
    init(value: Int??) { self.value = value }
    static let initializer = Initializer(DoublyOptional.init(value:))
}

private struct Eleven: Module {
    func configure(_ binder: Binder) { binder.bind(Int.self).to(instance: 11) }
}

@Suite("Regression: one meaning on every path")
struct RegressionOneMeaningTests {
    @Test("a self-declared singleton reached through a template's children is the family's one")
    func templateSingletonIsTheFamilys() throws {
        let parent = try Injector(modules: [])
        let template = try parent.childTemplate(providing: RequestUser.self) { $0.bind(RequestHandler.self) }
        let first = try template.child(RequestUser(name: "a")).getInstance(RequestHandler.self).database
        let second = try template.child(RequestUser(name: "b")).getInstance(RequestHandler.self).database
        let parents = try parent.getInstance(SharedDatabase.self)
        #expect(first === second)
        #expect(first === parents)
    }

    @Test("a self-declared singleton reached through a plain child is the family's one")
    func childSingletonIsTheFamilys() throws {
        let parent = try Injector(modules: [])
        let first = try parent.child { $0.bind(RequestUser.self).to(instance: RequestUser(name: "a")) }
            .getInstance(RequestHandler.self).database
        let second = try parent.child { $0.bind(RequestUser.self).to(instance: RequestUser(name: "b")) }
            .getInstance(RequestHandler.self).database
        #expect(first === second)
        #expect(first === (try parent.getInstance(SharedDatabase.self)))
    }

    @Test("a self-declared singleton a plain child's own binding reaches is the family's one")
    func childBindingSingletonIsTheFamilys() throws {
        let parent = try Injector(modules: [])
        let first = try parent.child { binder in
            binder.bind(RequestUser.self).to(instance: RequestUser(name: "a"))
            binder.bind(RequestHandler.self)
        }.getInstance(RequestHandler.self).database
        let second = try parent.child { binder in
            binder.bind(RequestUser.self).to(instance: RequestUser(name: "b"))
            binder.bind(RequestHandler.self)
        }.getInstance(RequestHandler.self).database
        #expect(first === second)
        #expect(first === (try parent.getInstance(SharedDatabase.self)))
    }

    @Test("a template's export says its own singletons are kept by each child, the family's by the parent")
    func templateExportShowsOwners() throws {
        let parent = try Injector(modules: [])
        let template = try parent.childTemplate(providing: RequestUser.self) { binder in
            binder.bind(UnitOfWork.self).in(.singleton)
            binder.bind(RequestHandler.self)
        }
        let text = template.exportGraph(as: .text)
        #expect(text.contains("UnitOfWork — singleton, type, kept by each child"), "\(text)")
        #expect(text.contains("SharedDatabase — parent's"), "\(text)")
    }

    @Test("awaiting a Factory of itself with no arguments is a cycle, as it is synchronously")
    func awaitedFactoryWithoutArgumentsIsACycle() async {
        let injector = try? Injector(modules: [])
        await #expect(throws: InjectionError.self) { _ = try await injector?.instance(AwaitedSelfish.self) }
        do {
            _ = try await injector?.instance(AwaitedSelfish.self)
        } catch {
            #expect(error.kind == .cyclicDependency)
        }
    }

    @Test("a self-declared singleton a template's entry point reaches is the family's one, awaited too")
    func templateSingletonAwaitedIsTheFamilys() async throws {
        let parent = try Injector(modules: [])
        let template = try parent.childTemplate(providing: RequestUser.self) { $0.entryPoint(RequestHandler.self) }
        let first = try await template.child(RequestUser(name: "a")).instance(RequestHandler.self).database
        let second = try await template.child(RequestUser(name: "b")).instance(RequestHandler.self).database
        #expect(first === second)
        #expect(first === (try await parent.instance(SharedDatabase.self)))
    }

    @Test("a self-declared singleton that needs a child's value is a scopeConflict, not one per child")
    func singletonNeedingChildValueIsAnError() throws {
        let parent = try Injector(modules: [])
        let error = #expect(throws: InjectionError.self) {
            _ = try parent.childTemplate(providing: RequestUser.self) { $0.bind(SessionHandler.self) }
        }
        #expect(error?.kind == .scopeConflict)
    }

    @Test("a self-declared singleton that needs a child's value, bound in the template, is kept by each child")
    func singletonNeedingChildValueIsPerChild() throws {
        let parent = try Injector(modules: [])
        let template = try parent.childTemplate(providing: RequestUser.self) {
            $0.bind(SessionHandler.self)
            $0.bind(Session.self)
        }
        let child = try template.child(RequestUser(name: "a"))
        let first = try child.getInstance(SessionHandler.self).session
        #expect(first === (try child.getInstance(SessionHandler.self).session))
        let other = try template.child(RequestUser(name: "b")).getInstance(SessionHandler.self).session
        #expect(first !== other)
        #expect(other.user.name == "b")
    }

    @Test("recursion through a Factory with arguments builds when awaited, as it does synchronously")
    func awaitedFactoryRecursionBuilds() async throws {
        let injector = try Injector(modules: [])
        let synchronous = try injector.getInstance(SyncDeep.self, arguments: 50)
        #expect(synchronous.depth == 50)
        let awaited = try await injector.instance(AwaitedDeep.self, arguments: 50)
        #expect(awaited.depth == 50)
    }

    @Test("a nested optional argument gets the value a request of the same type gets")
    func nestedOptionalArgumentMatchesRequest() throws {
        let injector = try Injector(modules: [Eleven()])
        // The argument first: a request of `Int??` compiles `Int?`, which the argument then found.
        #expect(try injector.getInstance(DoublyOptional.self).value == .some(.some(11)))
        #expect(try injector.getInstance(Int??.self) == .some(.some(11)))
    }

    @Test("a Lazy or Factory of an optional nothing binds builds it as a request of it does")
    func lazyOfOptionalBuildsLikeARequest() throws {
        let unbound = try Injector(modules: [])
        #expect(try unbound.getInstance(Lazy<Int??>.self).get() == .some(nil))
        #expect(try unbound.getInstance(Factory<Int?>.self).make() == nil)
        let bound = try Injector(modules: [Eleven()])
        #expect(try bound.getInstance(Lazy<Int??>.self).get() == .some(.some(11)))
    }

    @Test("an awaited request of a stored singleton after shutDown throws injectorShutDown")
    func awaitedStoredSingletonAfterShutDown() async throws {
        let injector = try Injector(modules: [])
        _ = try await injector.instance(SharedDatabase.self)
        try injector.shutDown()
        await #expect(throws: InjectionError.self) { _ = try await injector.instance(SharedDatabase.self) }
        await #expect(throws: InjectionError.self) { _ = try await injector.instance(Key<SharedDatabase>()) }
    }

    @Test("a nested optional argument of nothing bound holds nil, as a request of the same type does")
    func nestedOptionalArgumentOfNothing() throws {
        let injector = try Injector(modules: [])
        #expect(try injector.getInstance(DoublyOptional.self).value == .some(nil))
        #expect(try injector.getInstance(Int??.self) == .some(nil))
    }
}
