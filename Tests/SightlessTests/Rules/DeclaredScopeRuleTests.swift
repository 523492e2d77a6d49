import Sightless
import Testing

private enum Declared {
    final class User: Sendable {
        let name: String
        init(name: String) { self.name = name }
    }

    /// Declares itself a singleton, and needs the request's user.
    final class Session: Injectable {
        let user: User
        init(user: User) { self.user = user }
        static let initializer = Initializer(Session.init(user:))
        static var scope: Scope { .singleton }
    }

    /// Reaches the request's user through an unscoped value.
    final class Audit: Injectable {
        init(greeter: Greeter) {}
        static let initializer = Initializer(Audit.init(greeter:))
        static var scope: Scope { .singleton }
    }

    final class Greeter: Injectable {
        init(user: User) {}
        static let initializer = Initializer(Greeter.init(user:))
    }

    /// Declares itself a singleton and needs nothing of a child's.
    final class Clock: Injectable, Sendable {
        static let initializer = Initializer(Clock.init)
        static var scope: Scope { .singleton }
    }

    final class Handler: Injectable {
        let session: Session
        init(session: Session) { self.session = session }
        static let initializer = Initializer(Handler.init(session:))
    }

    final class AuditedHandler: Injectable {
        init(audit: Audit) {}
        static let initializer = Initializer(AuditedHandler.init(audit:))
    }

    final class ClockHandler: Injectable {
        let clock: Clock
        init(clock: Clock) { self.clock = clock }
        static let initializer = Initializer(ClockHandler.init(clock:))
    }

    /// Declares itself per request, and needs the request's user.
    final class Visit: Injectable {
        let user: User
        init(user: User) { self.user = user }
        static let initializer = Initializer(Visit.init(user:))
        static var scope: Scope { .perRequest }
    }

    final class Footer: Injectable {
        let visit: Visit
        init(visit: Visit) { self.visit = visit }
        static let initializer = Initializer(Footer.init(visit:))
    }

    /// Reaches one visit twice in one request: directly and through its footer.
    final class Page: Injectable {
        let visit: Visit
        let footer: Footer
        init(visit: Visit, footer: Footer) {
            self.visit = visit
            self.footer = footer
        }
        static let initializer = Initializer(Page.init(visit:footer:))
    }

    /// Declares itself weak, and needs the request's user.
    final class Presence: Injectable {
        init(user: User) {}
        static let initializer = Initializer(Presence.init(user:))
        static var scope: Scope { .weak }
    }

    /// Declared unscoped: a new one for every request.
    final class Greeting: Injectable {
        init(user: User) {}
        static let initializer = Initializer(Greeting.init(user:))
    }
}

@Suite("Rule: a declared scope is what a type gets")
struct DeclaredScopeRuleTests {
    @Test("a declared singleton that needs a template's value, reached from a handler, is a scopeConflict at the template's line")
    func declaredSingletonNeedsProvidedValue() throws {
        let app = try Injector(modules: [])
        let line = #line + 1
        let requests = try app.childTemplate(providing: Declared.User.self)
        let error = #expect(throws: InjectionError.self) {
            _ = try requests.child(Declared.User(name: "ada")).getInstance(Declared.Handler.self)
        }
        #expect(error?.kind == .scopeConflict)
        guard case .keptByEachChild(let key, let scope, let needs, let provided)? = error?.problems.first?.detail else {
            Issue.record("expected keptByEachChild, got \(String(describing: error))")
            return
        }
        #expect(key == Key<Declared.Session>().erased)
        #expect(scope == "singleton")
        #expect(needs == Key<Declared.User>().erased)
        #expect(provided)
        #expect(error?.path == [Key<Declared.Handler>().erased, Key<Declared.Session>().erased, Key<Declared.User>().erased])
        #expect(error?.problems.first?.location?.line == line)
        #expect(error?.problems.first?.message.contains("each child would keep its own Session") == true)
        #expect(error?.problems.first?.fix.contains("binder.bind(Session.self).in(.singleton)") == true)
    }

    @Test("the template's entry point that reaches such a singleton is reported when the template is declared")
    func reportedAtDeclaration() throws {
        let app = try Injector(modules: [])
        let error = #expect(throws: InjectionError.self) {
            _ = try app.childTemplate(providing: Declared.User.self) { $0.entryPoint(Declared.Handler.self) }
        }
        #expect(error?.kind == .scopeConflict)
    }

    @Test("the path runs through the unscoped values between the declared singleton and the value it needs")
    func throughUnscopedValues() throws {
        let app = try Injector(modules: [])
        let requests = try app.childTemplate(providing: Declared.User.self)
        let error = #expect(throws: InjectionError.self) {
            _ = try requests.child(Declared.User(name: "ada")).getInstance(Declared.AuditedHandler.self)
        }
        #expect(error?.path == [Key<Declared.AuditedHandler>().erased, Key<Declared.Audit>().erased,
                                Key<Declared.Greeter>().erased, Key<Declared.User>().erased])
    }

    @Test("bound in the template's modules, the singleton is kept per child, as declared there")
    func boundPerChild() throws {
        let app = try Injector(modules: [])
        let requests = try app.childTemplate(providing: Declared.User.self) { $0.bind(Declared.Session.self) }
        let ada = try requests.child(Declared.User(name: "ada"))
        let bob = try requests.child(Declared.User(name: "bob"))
        #expect(try ada.getInstance(Declared.Handler.self).session === ada.getInstance(Declared.Handler.self).session)
        #expect(try ada.getInstance(Declared.Handler.self).session.user.name == "ada")
        #expect(try bob.getInstance(Declared.Handler.self).session.user.name == "bob")
    }

    @Test("a declared singleton that needs nothing of a child's is the family's one")
    func familySingleton() throws {
        let app = try Injector(modules: [])
        let requests = try app.childTemplate(providing: Declared.User.self)
        let ada = try requests.child(Declared.User(name: "ada")).getInstance(Declared.ClockHandler.self)
        let bob = try requests.child(Declared.User(name: "bob")).getInstance(Declared.ClockHandler.self)
        #expect(ada.clock === bob.clock)
        #expect(ada.clock === (try app.getInstance(Declared.Clock.self)))
    }

    @Test("an unscoped type may need a template's value")
    func unscopedNeedsProvidedValue() throws {
        let app = try Injector(modules: [])
        let requests = try app.childTemplate(providing: Declared.User.self)
        _ = try requests.child(Declared.User(name: "ada")).getInstance(Declared.Greeting.self)
    }

    @Test("a type declared per request may need a template's value: one per request, with each child's value")
    func perRequestNeedsProvidedValue() throws {
        let app = try Injector(modules: [])
        let requests = try app.childTemplate(providing: Declared.User.self) { $0.entryPoint(Declared.Page.self) }
        let ada = try requests.child(Declared.User(name: "ada"))
        let page = try ada.getInstance(Declared.Page.self)
        #expect(page.visit === page.footer.visit)
        #expect(page.visit.user.name == "ada")
        #expect(try ada.getInstance(Declared.Page.self).visit !== page.visit)
        #expect(try requests.child(Declared.User(name: "bob")).getInstance(Declared.Page.self).visit.user.name == "bob")
    }

    @Test("a type declared weak that needs a template's value is a scopeConflict: the family would share it")
    func weakNeedsProvidedValue() throws {
        let app = try Injector(modules: [])
        let requests = try app.childTemplate(providing: Declared.User.self)
        let error = #expect(throws: InjectionError.self) {
            _ = try requests.child(Declared.User(name: "ada")).getInstance(Declared.Presence.self)
        }
        #expect(error?.kind == .scopeConflict)
    }

    @Test("a declared singleton that needs a value a plain child binds is a scopeConflict naming the child's binding")
    func plainChildBinding() throws {
        let app = try Injector(modules: [])
        let line = #line + 1
        let child = try app.child { $0.bind(Declared.User.self).to(instance: Declared.User(name: "ada")) }
        let error = #expect(throws: InjectionError.self) { _ = try child.getInstance(Declared.Session.self) }
        #expect(error?.kind == .scopeConflict)
        #expect(error?.problems.first?.location?.line == line)
        #expect(error?.problems.first?.message.contains("which the child binds") == true)
    }
}
