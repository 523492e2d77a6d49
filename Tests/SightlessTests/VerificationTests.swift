import Sightless
import Testing

private protocol VerifiedStore: Sendable {}
private final class VerifiedFileStore: VerifiedStore, Injectable {
    static let initializer = Initializer(VerifiedFileStore.init)
}
private struct VerifiedUser: Sendable { let name: String }

private final class VerifiedHandler: Injectable {
    init(store: any VerifiedStore, user: VerifiedUser) {}
    static let initializer = Initializer(VerifiedHandler.init(store:user:))
}

private final class VerifiedScreen: Injectable {
    init(store: any VerifiedStore) {}
    static let declaredAt = #line + 1
    static let initializer = Initializer(VerifiedScreen.init(store:))
}

/// A handler whose template nothing gives a `VerifiedSession`.
private final class VerifiedSession: Sendable {}
private final class SessionHandler: Injectable {
    init(session: VerifiedSession) {}
    static let declaredAt = #line + 1
    static let initializer = Initializer(SessionHandler.init(session:))
}

private final class LoopA: Injectable {
    init(b: LoopB) {}
    static let declaredAt = #line + 1
    static let initializer = Initializer(LoopA.init(b:))
}
private final class LoopB: Injectable {
    init(a: LoopA) {}
    static let initializer = Initializer(LoopB.init(a:))
}

/// Counts its builds: an eager singleton the check must not build.
private final class Warmup: Injectable {
    static let builds = BuildCount()
    init() { Self.builds.increment() }
    static let initializer = Initializer(Warmup.init)
}

private final class BuildCount: Sendable {
    private let count = Locked(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

private final class AwaitedSecret: Injectable {
    init() async {}
    static let initializer = Initializer(AwaitedSecret.init)
}

private struct TemplateRefused: Error, CustomStringConvertible {
    var description: String { "the request template is not configured" }
}

/// The app's graph: a store, a screen requested at run time, and a template per request.
private struct VerifiedAppModule: Module {
    func configure(_ binder: Binder) {
        binder.bind(VerifiedStore.self).to(VerifiedFileStore.self).in(.singleton)
        binder.entryPoint(VerifiedScreen.self)
    }
}

private func requests(of app: Injector) throws(InjectionError) -> ChildTemplate<VerifiedUser> {
    try app.childTemplate(providing: VerifiedUser.self) { $0.entryPoint(VerifiedHandler.self) }
}

@Suite("Verifying an app's graph")
struct VerificationTests {
    @Test("a valid app's modules, entry points and templates pass")
    func validAppPasses() throws {
        try Injector.verify(modules: [VerifiedAppModule()], templates: [requests(of:)])
    }

    @Test("a missing binding fails with its path, the line to change and the fix")
    func missingBindingFails() throws {
        let module = Bindings { $0.entryPoint(VerifiedScreen.self) }
        let error = try #require(#expect(throws: InjectionError.self) { try Injector.verify(modules: [module]) })
        #expect(error.kind == .missingBinding)
        let text = "\(error)"
        #expect(text.contains("path: VerifiedScreen → VerifiedStore"), "\(text)")
        #expect(text.contains("declared at: \(#fileID):\(VerifiedScreen.declaredAt)"), "\(text)")
        #expect(text.contains("fix: Bind it in a module"), "\(text)")
    }

    @Test("a cycle fails with its path, the line to change and the fix")
    func cycleFails() throws {
        let module = Bindings { $0.entryPoint(LoopA.self) }
        let error = try #require(#expect(throws: InjectionError.self) { try Injector.verify(modules: [module]) })
        #expect(error.kind == .cyclicDependency)
        let text = "\(error)"
        #expect(text.contains("path: LoopA → LoopB → LoopA"), "\(text)")
        #expect(text.contains("declared at: \(#fileID):\(LoopA.declaredAt)"), "\(text)")
        #expect(text.contains("fix: "), "\(text)")
    }

    @Test("a broken template fails with its path, the line to change and the fix, though the app's graph is valid")
    func brokenTemplateFails() throws {
        let error = try #require(#expect(throws: InjectionError.self) {
            try Injector.verify(modules: [VerifiedAppModule()], templates: [
                { app in try app.childTemplate(providing: VerifiedUser.self) { $0.entryPoint(SessionHandler.self) } },
            ])
        })
        #expect(error.kind == .missingBinding)
        let text = "\(error)"
        #expect(text.contains("path: SessionHandler → VerifiedSession"), "\(text)")
        #expect(text.contains("declared at: \(#fileID):\(SessionHandler.declaredAt)"), "\(text)")
        #expect(text.contains("fix: Bind it in a module"), "\(text)")
    }

    @Test("an entry point nothing can build fails with its path, the line to change and the fix")
    func brokenEntryPointFails() throws {
        let line = #line + 1
        let module = Bindings { $0.entryPoint(Key<VerifiedSession>(named: "current")) }
        let error = try #require(#expect(throws: InjectionError.self) { try Injector.verify(modules: [module]) })
        #expect(error.kind == .missingBinding)
        let text = "\(error)"
        #expect(text.contains("path: VerifiedSession(named: \"current\")"), "\(text)")
        #expect(text.contains("declared at: \(#fileID):\(line)"), "\(text)")
        #expect(text.contains("fix: "), "\(text)")
    }

    @Test("the problems of the app's graph are reported together")
    func graphProblemsTogether() throws {
        let module = Bindings { binder in
            binder.entryPoint(VerifiedScreen.self)
            binder.entryPoint(LoopA.self)
        }
        let error = try #require(#expect(throws: InjectionError.self) { try Injector.verify(modules: [module]) })
        #expect(Set(error.problems.map(\.kind)) == [.missingBinding, .cyclicDependency])
        #expect("\(error)".hasPrefix("The injector found 2 problems:"), "\(error)")
    }

    @Test("every template is checked, a broken one before it or not, and their problems are reported together")
    func templateProblemsTogether() throws {
        let error = try #require(#expect(throws: InjectionError.self) {
            try Injector.verify(modules: [VerifiedAppModule()], templates: [
                { app in try app.childTemplate(providing: VerifiedUser.self) { $0.entryPoint(SessionHandler.self) } },
                requests(of:),
                { app in try app.childTemplate { $0.entryPoint(LoopA.self) } },
            ])
        })
        #expect(error.problems.map(\.kind) == [.missingBinding, .cyclicDependency])
        #expect(error.problems.first?.path == [Key<SessionHandler>().erased, Key<VerifiedSession>().erased])
    }

    @Test("a template is checked against the app's bindings: what the app binds, a template's handler may need")
    func templateSeesAppBindings() throws {
        let error = try #require(#expect(throws: InjectionError.self) {
            try Injector.verify(modules: [], templates: [requests(of:)])
        })
        #expect(error.problems.map(\.path) == [[Key<VerifiedHandler>().erased, Key<any VerifiedStore>().erased]])
    }

    @Test("an eager singleton is not built by the check, where building the injector builds it")
    func eagerSingletonNotBuilt() throws {
        let module = Bindings { $0.bind(Warmup.self).in(.eagerSingleton) }
        let before = Warmup.builds.value
        try Injector.verify(modules: [module])
        #expect(Warmup.builds.value == before)
        _ = try Injector(modules: [module])
        #expect(Warmup.builds.value == before + 1)
    }

    @Test("an eager singleton that needs await is a problem unless the app starts by awaiting")
    func eagerAwaitedValues() throws {
        let module = Bindings { $0.bind(AwaitedSecret.self).in(.eagerSingleton) }
        let error = #expect(throws: InjectionError.self) { try Injector.verify(modules: [module]) }
        #expect(error?.kind == .needsAwait)
        try Injector.verify(modules: [module], awaitingEagerValues: true)
    }

    @Test("an error of its own that a template's closure throws is a problem naming the closure")
    func foreignErrorIsAProblem() throws {
        let error = try #require(#expect(throws: InjectionError.self) {
            try Injector.verify(modules: [VerifiedAppModule()], templates: [requests(of:), { _ in throw TemplateRefused() }])
        })
        #expect(error.kind == .initializerFailed)
        #expect("\(error)".contains("Building Injector(named: \"templates[1]\") threw: the request template is not configured"),
                "\(error)")
    }

    @Test("the check's one-line form in a Swift Testing test")
    func oneLineForm() {
        #expect(throws: Never.self) { try Injector.verify(modules: [VerifiedAppModule()], templates: [requests(of:)]) }
    }
}
