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

private enum ThingA {
    struct Thing: Sendable {}
    protocol Store: Sendable {}
    protocol Widget {}
}
private enum ThingB {
    struct Thing: Sendable {}
    protocol Store: Sendable {}
    final class Widget: Injectable {
        static let initializer = Initializer(Widget.init)
    }
}
private final class Labeller: Injectable {
    init(thing: ThingA.Thing) {}
    static let initializer = Initializer(Labeller.init(thing:), .dynamic)
}
private final class LabelMaker: Injectable {
    init(make: Factory<Labeller, ThingB.Thing>) {}
    static let initializer = Initializer(LabelMaker.init(make:))
}
private final class TwoStores: Injectable {
    init(a: any ThingA.Store, b: any ThingB.Store) {}
    static let initializer = Initializer(TwoStores.init(a:b:))
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
        let problem = InjectionError.Problem(.aliasTarget(key: api, target: web, actual: web), path: [api, web])
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

    @Test("a wrong argument type of a type that reads like its slot's is written with its module and namespace")
    func argumentTypeQualified() throws {
        let injector = try Injector(modules: [])
        let error = try #require(#expect(throws: InjectionError.self) {
            _ = try injector.getInstance(Labeller.self, arguments: ThingB.Thing())
        })
        #expect(error.problems.first?.message
            == "Dynamic argument 1 of Labeller fills argument 1, of type SightlessTests.ThingA.Thing, but the value passed is of type SightlessTests.ThingB.Thing.")
        #expect(error.problems.first?.fix.hasPrefix("Pass a SightlessTests.ThingA.Thing in position 1") == true)
    }

    @Test("a factory's argument type that reads like its target's slot is written with its module and namespace")
    func factoryArgumentsQualified() throws {
        let error = try #require(#expect(throws: InjectionError.self) {
            _ = try Injector(modules: [Bindings { $0.bind(LabelMaker.self) }])
        })
        let message = try #require(error.problems.first { $0.kind == .factoryArguments }?.message)
        #expect(message.contains("makes Labeller from (SightlessTests.ThingB.Thing), but Labeller takes (argument 1: SightlessTests.ThingA.Thing)"), "\(message)")
    }

    @Test("a bound type that reads like the key it does not conform to is written with its module and namespace")
    func typeMismatchQualified() throws {
        let injector = try Injector(modules: [Bindings { $0.bind((any ThingA.Widget).self).to(ThingB.Widget.self) }])
        let error = try #require(#expect(throws: InjectionError.self) { _ = try injector.getInstance((any ThingA.Widget).self) })
        let message = try #require(error.problems.first?.message)
        #expect(message.contains("but SightlessTests.ThingB.Widget is not a SightlessTests.ThingA.Widget"), "\(message)")
    }

    @Test("each problem of an error, read on its own, writes alike types of other problems of that error in full")
    func problemsOfOneErrorQualifiedAlone() throws {
        let error = try #require(#expect(throws: InjectionError.self) {
            _ = try Injector(modules: [Bindings { $0.bind(TwoStores.self) }])
        })
        #expect(error.problems.count == 2)
        #expect(error.problems.map(\.message) == [
            "Nothing provides SightlessTests.ThingA.Store, needed by TwoStores (argument 1).",
            "Nothing provides SightlessTests.ThingB.Store, needed by TwoStores (argument 2).",
        ])
    }

    @Test("types that read alike inside a generic type are written with their module and namespace")
    func alikeInsideGenericQualified() throws {
        let error = try #require(#expect(throws: InjectionError.self) {
            _ = try Injector(modules: [Bindings { $0.bind(LabelMaker.self) }])
        })
        let text = error.description
        #expect(text.contains("Factory<Labeller, SightlessTests.ThingB.Thing>"), "\(text)")
    }
}

