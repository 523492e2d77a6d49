import Sightless
import Testing

// Dependencies read where they stand, from code isolated to the main actor by the target's
// default: a view the framework makes (a struct reading in a getter), a view model made by hand
// inside a scope, and a view model the injector builds on the main actor.

/// A main-actor service, bound by an `async` closure or built as a main-actor type.
final class Greeter: MainActorInjectable {
    init() {}
    func greet(_ name: String) -> String { "hello, \(name)" }
    static let initializer = Initializer(Greeter.init)
}

/// Like a SwiftUI view: a struct the framework makes, whose getter reads its dependencies.
struct GreetingView {
    @Injected(default: Settings()) var settings: Settings
    let greeter = Injection<Greeter>()
    var body: String {
        let greeting = (try? greeter.get().greet("ada")) ?? "no greeter"
        return "\(greeting) ×\(settings.pageSize)"
    }
}

/// A view model made by hand, on the way to constructor injection.
final class LegacyViewModel {
    @Injected(default: Settings()) var settings: Settings
    @Injected(default: Greeter()) var greeter: Greeter
    func title() -> String { greeter.greet("page \(settings.pageSize)") }
}

/// A view model the injector builds on the main actor, reading where it stands.
final class ReadingViewModel: MainActorInjectable {
    let greeter = Injection<Greeter>()
    @Injected(default: Settings()) var settings: Settings
    init() {}
    static let initializer = Initializer(ReadingViewModel.init)
}

@Suite("Dependencies read where they stand, on the main actor")
struct StandingReadTests {
    @Test("a view struct made inside withCurrent reads its dependencies in its getter")
    func viewReadsInGetter() throws {
        let injector = try Injector(modules: [AnyModule { binder in
            binder.bind(Settings.self).to { _ in
                let settings = Settings()
                settings.pageSize = 3
                return settings
            }
        }])
        let view = injector.withCurrent { GreetingView() }
        #expect(view.body == "hello, ada ×3")
    }

    @Test("a view model made by hand inside a scope reads main-actor and nonisolated services")
    func legacyViewModel() throws {
        let injector = try Injector(modules: [])
        let model = injector.withCurrent { LegacyViewModel() }
        #expect(model.title() == "hello, page 1")
    }

    @Test("a main-actor view model the injector builds reads where it stands on the main actor")
    func builtViewModel() throws {
        let injector = try Injector(modules: [])
        let model = try injector.getInstance(ReadingViewModel.self)
        #expect(try model.greeter.get().greet("x") == "hello, x")
        #expect(model.settings.pageSize == 1)
    }

    @Test("a main-actor view model awaited from a detached task reads where it stands")
    func awaitedViewModel() async throws {
        let injector = try Injector(modules: [])
        let model = try await Task.detached { try await injector.instance(ReadingViewModel.self) }.value
        #expect(try model.greeter.get().greet("y") == "hello, y")
    }

    @Test("a patch in one line reaches main-actor code that reads where it stands")
    func patchReachesMainActorCode() throws {
        let injector = try Injector(modules: [])
        let patched = Settings()
        patched.pageSize = 9
        // The patch's closure runs in place: it may capture a value that is not Sendable.
        let title = try injector.withOverrides({ $0.bind(Settings.self).to(uncheckedInstance: patched) }) { _ in
            LegacyViewModel().title()
        }
        #expect(title == "hello, page 9")
    }
}
