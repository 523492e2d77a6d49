import Sightless
import Testing

private struct RequestUser: Sendable { let name: String }

private final class AccountService: Injectable {
    init(user: RequestUser) {}
    static let initializer = Initializer(AccountService.init(user:))
    static var scope: Scope { .singleton }
}

private final class ApiHandler: Sendable {}

private final class ApiClient: Sendable {}
private final class ClientHandler: Injectable {
    init(client: ApiClient) {}
    static let initializer = Initializer(ClientHandler.init(client:))
}

@Suite("Rule: missing binding, in a family with templates")
struct MissingBindingTemplateTests {
    @Test("a singleton of the parent that needs a value a template provides names the template, with a fix for a per-child value")
    func parentSingletonNeedsProvidedValue() throws {
        let app = try Injector(modules: [])
        let line = #line + 1
        _ = try app.childTemplate(providing: RequestUser.self) { _ in }
        let error = try #require(#expect(throws: InjectionError.self) { _ = try app.getInstance(AccountService.self) })
        let problem = try #require(error.problems.first)
        guard case .providedByTemplate(let key, let consumer, let template) = problem.detail else {
            Issue.record("expected providedByTemplate, got \(error)")
            return
        }
        #expect(problem.kind == .missingBinding)
        #expect(key == Key<RequestUser>().erased)
        #expect(consumer?.key == Key<AccountService>().erased)
        #expect(template == SourceLocation(fileID: #fileID, line: line))
        #expect(problem.fix.contains("the template declared at \(#fileID):\(line)"), "\(problem.fix)")
        #expect(problem.fix.contains("Factory<AccountService, RequestUser>"), "\(problem.fix)")
        #expect(!problem.fix.contains("Bind it in a module"), "\(problem.fix)")
    }

    @Test("a singleton bound in the root that needs a value nothing binds says how a template's value reaches it")
    func rootSingletonNeedsValueNothingBinds() throws {
        let error = try #require(#expect(throws: InjectionError.self) {
            _ = try Injector(modules: [Bindings { $0.bind(AccountService.self).in(.singleton) }])
        })
        let fix = try #require(error.problems.first?.fix)
        #expect(fix.contains("If each child of a template is made with RequestUser (childTemplate(providing: RequestUser.self, …)), "
            + "AccountService cannot be one singleton for the whole family: bind AccountService in that template's modules instead, "
            + "kept per child (.in(.singleton)), per request (.in(.perRequest)) or unscoped."), "\(fix)")
    }

    @Test("an unscoped key that needs a value nothing binds is not told about templates")
    func unscopedNeedsValueNothingBinds() throws {
        let error = try #require(#expect(throws: InjectionError.self) {
            _ = try Injector(modules: [Bindings { $0.bind(AccountService.self).in(.unscoped) }])
        })
        #expect(error.problems.first?.fix.contains("template") == false)
    }

    @Test("a singleton of the root built by a closure that needs a value a template provides names itself and the template in its fix")
    func rootClosureSingletonNeedsProvidedValue() throws {
        let app = try Injector(modules: [Bindings { binder in
            binder.bind(AccountService.self).to { resolver in AccountService(user: try resolver.getInstance(RequestUser.self)) }.in(.singleton)
        }])
        let line = #line + 1
        let requests = try app.childTemplate(providing: RequestUser.self) { _ in }
        let error = try #require(#expect(throws: InjectionError.self) {
            _ = try requests.child(RequestUser(name: "ada")).getInstance(AccountService.self)
        })
        let fix = try #require(error.problems.first?.fix)
        #expect(fix.hasPrefix("Build AccountService in the children of the template declared at \(#fileID):\(line)"), "\(fix)")
    }

    @Test("a value a template provides, requested from its parent, names the template")
    func providedValueRequestedFromParent() throws {
        let app = try Injector(modules: [])
        let line = #line + 1
        _ = try app.childTemplate(providing: RequestUser.self) { _ in }
        let error = try #require(#expect(throws: InjectionError.self) { _ = try app.getInstance(RequestUser.self) })
        #expect(error.problems.first?.message == "Nothing in this injector provides RequestUser: each child of the template declared at \(#fileID):\(line) is made with its own RequestUser.")
    }

    @Test("a child whose module needs a value a template of its parent provides names the template")
    func childNeedsProvidedValue() throws {
        let app = try Injector(modules: [])
        _ = try app.childTemplate(providing: RequestUser.self) { _ in }
        let error = try #require(#expect(throws: InjectionError.self) {
            _ = try app.child(modules: [Bindings { $0.bind(AccountService.self) }])
        })
        guard case .providedByTemplate? = error.problems.first?.detail else {
            Issue.record("expected providedByTemplate, got \(error)")
            return
        }
    }

    @Test("a key one template binds, asked of another template's child, names the template that binds it instead of asking for Injectable")
    func boundInAnotherTemplate() throws {
        let app = try Injector(modules: [])
        let line = #line + 1
        _ = try app.childTemplate(providing: RequestUser.self) { $0.bind(ApiHandler.self).to { _ in ApiHandler() } }
        let web = try app.childTemplate(providing: RequestUser.self) { _ in }
        let child = try web.child(RequestUser(name: "ada"))
        let error = try #require(#expect(throws: InjectionError.self) { _ = try child.getInstance(ApiHandler.self) })
        let problem = try #require(error.problems.first)
        guard case .boundInTemplate(let key, nil, let template) = problem.detail else {
            Issue.record("expected boundInTemplate, got \(error)")
            return
        }
        #expect(key == Key<ApiHandler>().erased)
        #expect(template == SourceLocation(fileID: #fileID, line: line))
        #expect(!problem.fix.contains("Injectable"), "\(problem.fix)")
        #expect(problem.fix.hasPrefix("Request it from a child of the template declared at \(#fileID):\(line)"), "\(problem.fix)")
    }

    @Test("a type built just in time that needs a key another template binds says to request the type from that template's child")
    func dependencyBoundInAnotherTemplate() throws {
        let app = try Injector(modules: [])
        let line = #line + 1
        _ = try app.childTemplate(providing: RequestUser.self) { $0.bind(ApiClient.self).to { _ in ApiClient() } }
        let web = try app.childTemplate(providing: RequestUser.self) { _ in }
        let child = try web.child(RequestUser(name: "ada"))
        let error = try #require(#expect(throws: InjectionError.self) { _ = try child.getInstance(ClientHandler.self) })
        let problem = try #require(error.problems.first)
        guard case .boundInTemplate(let key, let consumer?, _) = problem.detail else {
            Issue.record("expected boundInTemplate, got \(error)")
            return
        }
        #expect(key == Key<ApiClient>().erased && consumer.key == Key<ClientHandler>().erased)
        #expect(problem.fix == "Request ClientHandler from a child of the template declared at \(#fileID):\(line), whose modules bind ApiClient, or bind ApiClient in this injector's modules too.")
    }
}
