@testable import Sightless
import Testing

// How a problem writes the names of types: short, unless two distinct types of one error would
// read alike; then with their module and namespace.

private protocol PackageStore: Sendable {}
private struct MemoryStore: PackageStore {}
private enum PackageAPI {
    final class PackageController: Injectable {
        init(store: any PackageStore) {}
        static let initializer = Initializer(PackageController.init(store:))
    }
}
private enum PackageWeb {
    final class PackageController: Injectable {
        init(store: any PackageStore) {}
        static let initializer = Initializer(PackageController.init(store:))
    }
}
private final class PackageRouter: Injectable {
    init(api: PackageAPI.PackageController, web: PackageWeb.PackageController) {}
    static let initializer = Initializer(PackageRouter.init(api:web:))
}

@Suite("Problem names")
struct ProblemNameTests {
    @Test("two types of one error that share a name are written with their module and namespace")
    func alikeTypesQualified() throws {
        let error = try #require(#expect(throws: InjectionError.self) {
            _ = try Injector(modules: [Bindings { $0.bind(PackageRouter.self) }])
        })
        let text = error.description
        #expect(text.contains("needed by SightlessTests.PackageAPI.PackageController (argument 1)"), "\(text)")
        #expect(text.contains("needed by SightlessTests.PackageWeb.PackageController (argument 1)"), "\(text)")
        #expect(text.contains("path: PackageRouter → SightlessTests.PackageWeb.PackageController → PackageStore"), "\(text)")
    }

    @Test("a problem whose types read apart writes them short")
    func distinctTypesShort() throws {
        let error = try #require(#expect(throws: InjectionError.self) {
            _ = try Injector(modules: [Bindings { $0.bind(PackageAPI.PackageController.self) }])
        })
        #expect(error.problems.first?.message == "Nothing provides PackageStore, needed by PackageController (argument 1).")
    }

    @Test("the names of one problem read on their own are qualified within it")
    func oneProblemQualified() {
        let api = Key<PackageAPI.PackageController>().erased, web = Key<PackageWeb.PackageController>().erased
        let problem = InjectionError.Problem(.aliasTarget(key: api, target: web, actual: "PackageController"), path: [api, web])
        #expect(problem.pathDescription == "SightlessTests.PackageAPI.PackageController → SightlessTests.PackageWeb.PackageController")
        #expect(api.description == "PackageController")
    }

    @Test("a graph export writes two types that share a name with their module and namespace")
    func exportQualifiesAlikeTypes() throws {
        let injector = try Injector(modules: [Bindings { binder in
            binder.bind((any PackageStore).self).to(instance: MemoryStore())
            binder.bind(PackageAPI.PackageController.self)
            binder.bind(PackageWeb.PackageController.self)
        }])
        let text = injector.exportGraph(as: .text)
        #expect(text.contains("SightlessTests.PackageAPI.PackageController — "), "\(text)")
        #expect(text.contains("SightlessTests.PackageWeb.PackageController — "), "\(text)")
    }

    @Test("an explanation writes two types that share a name with their module and namespace")
    func explanationQualifiesAlikeTypes() throws {
        let injector = try Injector(modules: [Bindings { binder in
            binder.bind((any PackageStore).self).to(instance: MemoryStore())
        }])
        let text = try injector.explain(PackageRouter.self)
        #expect(text.contains("SightlessTests.PackageAPI.PackageController — "), "\(text)")
        #expect(text.contains("SightlessTests.PackageWeb.PackageController — "), "\(text)")
    }
}
