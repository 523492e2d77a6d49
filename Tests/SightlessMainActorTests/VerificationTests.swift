import Sightless
import Testing

// The check in an app target isolated to the main actor by default: its tests run there, so the
// check reads the view models' main-actor descriptors as the app's start-up does.

@MainActor
final class ComposeViewModel: MainActorInjectable {
    init(inbox: InboxViewModel, draft: Draft) {}
    static let initializer = Initializer(ComposeViewModel.init(inbox:draft:))
}

final class Draft: Sendable {}

/// A module any task may read, whose entry point is a view model on the main actor.
nonisolated let shellModules: [any Module] = [AnyModule { $0.entryPoint(ShellViewModel.self) }]

@Suite("Verifying an app whose view models are on the main actor")
struct VerificationTests {
    @Test("an app's view models, entry points and a screen template pass, checked on the main actor")
    func mainActorAppPasses() throws {
        try Injector.verify(modules: [SyncApiModule(), AnyModule { $0.entryPoint(InboxViewModel.self) }], templates: [
            { app in try app.childTemplate(providing: Draft.self) { $0.entryPoint(ComposeViewModel.self) } },
        ])
    }

    @Test("a main-actor view model's missing dependency in a screen template is reported with its path")
    func mainActorTemplateFails() throws {
        let error = try #require(#expect(throws: InjectionError.self) {
            try Injector.verify(modules: [SyncApiModule()], templates: [
                { app in try app.childTemplate { $0.entryPoint(ComposeViewModel.self) } },
            ])
        })
        #expect(error.problems.map(\.path) == [[Key<ComposeViewModel>().erased, Key<Draft>().erased]])
    }

    @Test("off the main actor, a view model's main-actor descriptors are a problem of kind offActor")
    func offMainActorIsAProblem() async {
        let kinds = await Task.detached { () -> [InjectionError.Kind] in
            do throws(InjectionError) {
                try Injector.verify(modules: shellModules)
                return []
            } catch {
                return error.problems.map(\.kind)
            }
        }.value
        #expect(kinds == [.offActor])
    }
}
