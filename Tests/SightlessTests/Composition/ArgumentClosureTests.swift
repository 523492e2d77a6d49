import Sightless
import Testing

private final class Page: Sendable {
    let title: String
    let number: Int
    let api: any Api
    init(title: String, number: Int, api: any Api) { self.title = title; self.number = number; self.api = api }
}

private final class Reader: Injectable {
    let pages: Factory<Page, String, Int>
    init(pages: Factory<Page, String, Int>) { self.pages = pages }
    static let initializer = Initializer(Reader.init(pages:))
}

private final class WrongReader: Injectable {
    init(pages: Factory<Page, Int>) {}
    static let initializer = Initializer(WrongReader.init(pages:))
}

private final class Holder: Injectable {
    init(page: Page) {}
    static let initializer = Initializer(Holder.init(page:))
}

private var pages: Bindings {
    Bindings { binder in
        binder.bind((any Api).self).to(HttpApi.self)
        binder.bind(Page.self).to { (resolver, title: String, number: Int) in
            Page(title: title, number: number, api: try resolver.getInstance((any Api).self))
        }
    }
}

@Suite("Closures with creation-time arguments")
struct ArgumentClosureTests {
    @Test("a closure receives the arguments of getInstance in order")
    func receivesRequestArguments() throws {
        let injector = try Injector(pages)
        let page = try injector.getInstance(Page.self, arguments: "Inbox", 3)
        #expect(page.title == "Inbox")
        #expect(page.number == 3)
        #expect(page.api is HttpApi)
    }

    @Test("a Factory with the closure's argument types makes values through it")
    func factoryMakesThroughClosure() throws {
        let injector = try Injector(pages)
        let page = try injector.getInstance(Reader.self).pages.make("Drafts", 7)
        #expect(page.title == "Drafts")
        #expect(page.number == 7)
    }

    @Test("a Factory with other argument types is an error when the injector is built")
    func factoryWithOtherTypesRejected() throws {
        let error = try #require(throws: InjectionError.self) {
            try Injector(pages, Bindings { $0.bind(WrongReader.self) })
        }
        #expect(error.kind == .factoryArguments)
    }

    @Test("injecting the closure's key directly is an error when the injector is built")
    func directInjectionRejected() throws {
        let error = try #require(throws: InjectionError.self) {
            try Injector(pages, Bindings { $0.bind(Holder.self) })
        }
        #expect(error.kind == .dynamicDependency)
    }

    @Test("a request with too few arguments is a wrong number of arguments")
    func tooFewArguments() throws {
        let injector = try Injector(pages)
        let error = try #require(throws: InjectionError.self) { try injector.getInstance(Page.self, arguments: "Inbox") }
        #expect(error.kind == .argumentCount)
    }

    @Test("a request with an argument of the wrong type names its position")
    func wrongArgumentType() throws {
        let injector = try Injector(pages)
        let error = try #require(throws: InjectionError.self) { try injector.getInstance(Page.self, arguments: "Inbox", "3") }
        guard case .argumentType(_, let position, _, _, _) = error.problems.first?.detail else {
            Issue.record("expected a wrong argument type, got \(error)")
            return
        }
        #expect(position == 2)
    }

    @Test("a closure with arguments in a singleton scope is a scope conflict")
    func singletonRejected() throws {
        let error = try #require(throws: InjectionError.self) {
            try Injector(Bindings { binder in
                binder.bind(Page.self).to { (_, title: String) in Page(title: title, number: 0, api: FakeApi()) }.in(.singleton)
            })
        }
        #expect(error.kind == .scopeConflict)
    }

    @Test("the graph export shows the closure's dynamic arguments")
    func exportShowsArguments() throws {
        let injector = try Injector(pages)
        #expect(injector.exportGraph(as: .text).contains("Page — unscoped, closure, dynamic: String, Int"))
        #expect(try injector.explain(Page.self) == "Page — unscoped, closure, dynamic: String, Int\n")
    }

    @Test("a closure with one argument still binds alongside the plain closure form")
    func plainClosureUnchanged() throws {
        let injector = try Injector(Bindings { binder in
            binder.bind(Key<String>(named: "a")).to { _ in "plain" }
            binder.bind(Key<String>(named: "b")).to { (_, suffix: Int) in "n\(suffix)" }
        })
        #expect(try injector.getInstance(Key<String>(named: "a")) == "plain")
        #expect(try injector.getInstance(Key<String>(named: "b"), arguments: 4) == "n4")
    }
}
