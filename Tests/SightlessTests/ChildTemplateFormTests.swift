import Sightless
import Testing

// Templates declared as users write them. `childTemplate(modules:)` with no provided values was
// "ambiguous use of 'childTemplate(providing:modules:overrides:fileID:line:)'" until a form of
// no values was added; a helper generic over a template's values compiles as written.

private enum Forms {
    final class Request: Sendable {
        let path: String
        init(path: String) { self.path = path }
    }

    struct RequestLog: Sendable {
        let label: String
    }

    /// One per child when the template binds it in the singleton scope.
    final class Screen: Injectable {
        static let initializer = Initializer(Screen.init)
    }

    final class HomeController: Injectable {
        let request: Request
        let log: RequestLog
        init(request: Request, log: RequestLog) {
            self.request = request
            self.log = log
        }
        static let initializer = Initializer(HomeController.init(request:log:))
    }

    struct ScreenModule: Module {
        func configure(_ binder: Binder) {
            binder.bind(Screen.self).in(.singleton)
            binder.entryPoint(Screen.self)
        }
    }
}

/// A helper generic over any template's values: it makes a child with them and asks it for a
/// handler.
private func serve<Handler, each Value>(
    _ template: ChildTemplate<repeat each Value>, _ handler: Handler.Type, _ values: repeat each Value
) throws -> Handler {
    try template.child(repeat each values).getInstance(handler)
}

/// The same helper, awaiting its handler.
private func serve<Handler: Sendable, each Value>(
    _ template: ChildTemplate<repeat each Value>, _ handler: Handler.Type, _ values: repeat each Value
) async throws -> Handler {
    try await template.child(repeat each values).instance(handler)
}

@Suite("Child templates as they are written")
struct ChildTemplateFormTests {
    @Test("a template of no values takes its modules, and each child keeps its own singletons")
    func templateOfNoValues() throws {
        let screens: ChildTemplate<> = try Injector(modules: []).childTemplate(modules: [Forms.ScreenModule()])
        let first = try screens.child()
        let second = try screens.child()
        #expect(try first.getInstance(Forms.Screen.self) === (try first.getInstance(Forms.Screen.self)))
        #expect(try first.getInstance(Forms.Screen.self) !== (try second.getInstance(Forms.Screen.self)))
    }

    @Test("a template of no values takes overrides, and bindings written in place")
    func templateOfNoValuesWithOverridesAndClosure() throws {
        let app = try Injector(modules: [])
        let overridden = try app.childTemplate(
            modules: [AnyModule { $0.bind(Key<String>(named: "title")).to(instance: "real") }],
            overrides: [AnyModule { $0.bind(Key<String>(named: "title")).to(instance: "fake") }])
        #expect(try overridden.child().getInstance(Key<String>(named: "title")) == "fake")
        let inPlace = try app.childTemplate { $0.bind(Key<String>(named: "title")).to(instance: "in place") }
        #expect(try inPlace.child().getInstance(Key<String>(named: "title")) == "in place")
    }

    @Test("a template of no values is validated when it is declared")
    func templateOfNoValuesValidated() throws {
        let error = #expect(throws: InjectionError.self) {
            _ = try Injector(modules: []).childTemplate(modules: [AnyModule { $0.entryPoint(Forms.HomeController.self) }])
        }
        #expect(error?.problems.first?.kind == .missingBinding)
    }

    @Test("a helper generic over a template's values makes a child with them and gets a handler")
    func genericHelper() throws {
        let requests = try Injector(modules: []).childTemplate(providing: Forms.Request.self, Forms.RequestLog.self) {
            $0.entryPoint(Forms.HomeController.self)
        }
        let request = Forms.Request(path: "/home")
        let home = try serve(requests, Forms.HomeController.self, request, Forms.RequestLog(label: "home"))
        #expect(home.request === request)
        #expect(home.log.label == "home")
    }

    @Test("an async helper generic over a template's values serves templates of any number of values")
    func genericAsyncHelper() async throws {
        let app = try Injector(modules: [])
        let request = Forms.Request(path: "/")
        let one = try app.childTemplate(providing: Forms.Request.self, modules: [])
        #expect(try await serve(one, Forms.Request.self, request) === request)
        let three = try app.childTemplate(providing: Key<Forms.Request>(), Key<Forms.RequestLog>(), Key<String>(named: "id"))
        let log = try await serve(three, Forms.RequestLog.self, request, Forms.RequestLog(label: "log"), "7f3a")
        #expect(log.label == "log")
        let none = try app.childTemplate(modules: [Forms.ScreenModule()])
        let child = try await serve(none, Injector.self)
        #expect(try child.getInstance(Forms.Screen.self) === (try child.getInstance(Forms.Screen.self)))
    }
}
