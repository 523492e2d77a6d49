import Sightless
import Testing

// `Factory.make(_:onFailure:)`: a factory an app's non-throwing protocol can wrap.

private enum DetailFailure: Error { case notFound(Int) }

private final class Detail: Injectable, Sendable {
    let item: Int
    init(item: Int) throws {
        guard item >= 0 else { throw DetailFailure.notFound(item) }
        self.item = item
    }
    static let initializer = Initializer(Detail.init(item:), .dynamic)
}

/// An app's protocol, whose factory method cannot throw.
private protocol DetailMaking {
    func detail(item: Int) -> Detail?
}

private struct Details: DetailMaking {
    let factory: Factory<Detail, Int>
    let failures: Locked<[InjectionError]>

    func detail(item: Int) -> Detail? {
        factory.make(item, onFailure: { error in failures.withLock { $0.append(error) } })
    }
}

@Suite("A factory behind a protocol that cannot throw")
struct FactoryFallbackTests {
    private func details(_ injector: Injector) throws -> Details {
        Details(factory: try injector.getInstance(Factory<Detail, Int>.self), failures: Locked([]))
    }

    @Test("make(_:onFailure:) returns the new instance and does not call onFailure when building succeeds")
    func success() throws {
        let details = try details(Injector(modules: []))
        #expect(details.detail(item: 4)?.item == 4)
        #expect(details.failures.withLock { $0 }.isEmpty)
    }

    @Test("make(_:onFailure:) hands an initializer's error to onFailure, with its path")
    func initializerFails() throws {
        let details = try details(Injector(modules: []))
        #expect(details.detail(item: -1) == nil)
        let failures = details.failures.withLock { $0 }
        #expect(failures.map(\.kind) == [.initializerFailed])
        #expect(failures.first?.path == [Key<Detail>().erased])
        #expect(failures.first?.underlying is DetailFailure)
    }

    @Test("make(_:onFailure:) hands injectorShutDown to onFailure after the injector is shut down")
    func shutDown() throws {
        let injector = try Injector(modules: [])
        let details = try details(injector)
        try injector.shutDown()
        #expect(details.detail(item: 1) == nil)
        #expect(details.failures.withLock { $0 }.map(\.kind) == [.injectorShutDown])
    }

    @Test("make(_:onFailure:) gives nil for a value of the app's own fallback, of a supertype")
    func fallbackOfSupertype() throws {
        class Page { let title: String; init(_ title: String) { self.title = title } }
        final class Article: Page, @unchecked Sendable {}
        let articles = Factory<Article, String> { title in
            guard !title.isEmpty else { throw DetailFailure.notFound(0) }
            return Article(title)
        }
        func page(_ title: String) -> Page { articles.make(title, onFailure: { _ in }) ?? Page("missing") }
        #expect(page("news").title == "news")
        #expect(page("").title == "missing")
    }

    @Test("make(_:onFailure:) of a factory made in code hands its closure's error to onFailure")
    func madeInCode() {
        let details = Details(factory: Factory { item in
            guard item != 7 else { throw DetailFailure.notFound(item) }
            return try Detail(item: item)
        }, failures: Locked([]))
        #expect(details.detail(item: 2)?.item == 2)
        #expect(details.detail(item: 7) == nil)
        #expect(details.failures.withLock { $0 }.map(\.kind) == [.initializerFailed])
    }
}
