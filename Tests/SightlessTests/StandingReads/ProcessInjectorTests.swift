import Sightless
import Testing

// The injector an app chooses for the code no scope reaches. The process has one: these tests
// hold ProcessInjectorLock, so that none sees another's choice.

private final class Theme: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

/// Made by hand, outside every scope, like a view the UI framework makes.
private struct ThemedView {
    @Injected(default: Theme("plain")) var theme: Theme
}

private func themeModule(_ name: String) -> AnyModule {
    AnyModule { $0.bind(Theme.self).to(instance: Theme(name)) }
}

@Suite("The process's injector")
struct ProcessInjectorTests {
    @Test("outside every scope, with no injector chosen, an Injection throws noInjector")
    func noInjectorOutsideScopes() {
        ProcessInjectorLock.holding {
            #expect(Injector.current == nil)
            let error = #expect(throws: InjectionError.self) { try Injection<Theme>().get() }
            #expect(error?.kind == .noInjector)
            #expect(error?.problems.first?.fix.contains("chooseForProcess") == true)
        }
    }

    @Test("outside every scope, with no injector chosen, an Injected property reads its default")
    func defaultOutsideScopes() {
        ProcessInjectorLock.holding {
            #expect(ThemedView().theme.name == "plain")
        }
    }

    @Test("the chosen injector serves reads outside every scope, and a scope wins over it")
    func chosenInjectorServesReads() throws {
        try ProcessInjectorLock.holding {
            defer { ProcessInjectorLock.forget() }
            let app = try Injector(modules: [themeModule("dark")])
            try app.chooseForProcess()
            #expect(Injector.current === app)
            #expect(ThemedView().theme.name == "dark")
            let scoped = try Injector(modules: [themeModule("light")])
            #expect(scoped.withCurrent { ThemedView() }.theme.name == "light")
        }
    }

    @Test("choosing a second injector for the process throws, naming where the first was chosen")
    func chooseTwice() throws {
        try ProcessInjectorLock.holding {
            defer { ProcessInjectorLock.forget() }
            let first = try Injector(modules: [])
            try first.chooseForProcess(fileID: "App/Main.swift", line: 3)
            let error = #expect(throws: InjectionError.self) { try Injector(modules: []).chooseForProcess() }
            #expect(error?.kind == .processInjectorChosen)
            #expect(error?.problems.first?.message.contains("App/Main.swift:3") == true)
            #expect(Injector.current === first)
        }
    }
}
