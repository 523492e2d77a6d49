import Sightless
import Testing

// Modules as users write them. A global list of modules was "let 'appModules' is not
// concurrency-safe because non-'Sendable' type '[any Module]' may have shared mutable state"
// until `Module` refined `Sendable`; a module written in place needed a type of one's own until
// `AnyModule`.

private protocol Greeting: Sendable {
    var text: String { get }
}

private struct Hello: Greeting {
    var text: String { "hello" }
}

private struct Fake: Greeting {
    var text: String { "fake" }
}

private final class Greeter: Injectable, Sendable {
    let greeting: any Greeting
    init(greeting: any Greeting) { self.greeting = greeting }
    static let initializer = Initializer(Greeter.init(greeting:))
}

private struct GreetingModule: Module {
    func configure(_ binder: Binder) {
        binder.bind((any Greeting).self).to(instance: Hello())
    }
}

/// A global constant, shared by every test below.
private let appModules: [any Module] = [GreetingModule(), AnyModule { $0.bind(Key<Int>(named: "port")).to(instance: 8080) }]

private let fakeGreeting = AnyModule { $0.bind((any Greeting).self).to(instance: Fake()) }

@Suite("Modules")
struct ModuleTests {
    @Test("a global list of modules builds an injector")
    func globalModules() throws {
        let injector = try Injector(modules: appModules)
        #expect(try injector.getInstance(Greeter.self).greeting.text == "hello")
        #expect(try injector.getInstance(Key<Int>(named: "port")) == 8080)
    }

    @Test("a module written in place records its bindings as a module type does")
    func anyModuleAsModule() throws {
        let injector = try Injector(modules: [AnyModule { $0.bind((any Greeting).self).to(instance: Hello()) }])
        #expect(try injector.getInstance(Greeter.self).greeting.text == "hello")
    }

    @Test("a module written in place overrides the modules of an injector")
    func anyModuleOverridesInjector() throws {
        let injector = try Injector(modules: appModules, overrides: [fakeGreeting])
        #expect(try injector.getInstance(Greeter.self).greeting.text == "fake")
    }

    @Test("a module written in place overrides the modules of an injector that starts")
    func anyModuleOverridesStart() async throws {
        let injector = try await Injector.start(modules: appModules, overrides: [fakeGreeting])
        #expect(try injector.getInstance(Greeter.self).greeting.text == "fake")
    }

    @Test("a module written in place overrides its parent's binding in a child")
    func anyModuleOverridesChild() throws {
        let app = try Injector(modules: appModules)
        let child = try app.child(modules: [AnyModule { $0.bind(Key<String>(named: "user")).to(instance: "ada") }],
                                  overrides: [fakeGreeting])
        #expect(try child.getInstance(Greeter.self).greeting.text == "fake")
        #expect(try child.getInstance(Key<String>(named: "user")) == "ada")
        #expect(try app.getInstance(Greeter.self).greeting.text == "hello")
    }

    @Test("a module written in place serves a template's modules and overrides")
    func anyModuleInTemplate() throws {
        let app = try Injector(modules: appModules)
        let requests = try app.childTemplate(
            providing: Key<String>(named: "user"),
            modules: [AnyModule { $0.entryPoint(Greeter.self) }], overrides: [fakeGreeting])
        #expect(try requests.child("ada").getInstance(Greeter.self).greeting.text == "fake")
        let typed = try app.childTemplate(providing: Int.self, modules: [AnyModule { $0.entryPoint(Greeter.self) }])
        #expect(try typed.child(1).getInstance(Greeter.self).greeting.text == "hello")
    }

    @Test("a module written in place is installed by another module")
    func anyModuleInstalled() throws {
        struct Installing: Module {
            func configure(_ binder: Binder) { binder.install(fakeGreeting) }
        }
        #expect(try Injector(modules: [Installing()]).getInstance(Greeter.self).greeting.text == "fake")
    }
}
