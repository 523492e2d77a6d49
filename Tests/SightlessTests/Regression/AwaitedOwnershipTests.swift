import Sightless
import Testing

// An awaited singleton was built for whichever injector awaited it first: first awaited
// through a child, a parent's singleton was given the child as its Injector, Lazy and Factory
// (a parent's value keeping a child alive and using its bindings); and what it was given held
// the injector strongly, so the injector and the singleton kept each other alive for good.

private final class Page: Injectable {
    static let initializer = Initializer(Page.init)
}

/// A singleton built with `await`, given a Lazy and a Factory.
private final class Library: Injectable {
    let pages: Factory<Page>
    let first: Lazy<Page>
    init(pages: Factory<Page>, first: Lazy<Page>) async {
        self.pages = pages
        self.first = first
    }
    static let initializer = Initializer(Library.init(pages:first:))
    static var scope: Scope { .singleton }
}

/// A singleton built with `await`, given the injector.
private final class Catalog: Injectable {
    let injector: Injector
    init(injector: Injector) async { self.injector = injector }
    static let initializer = Initializer(Catalog.init(injector:))
    static var scope: Scope { .singleton }
}

private final class Visitor: Sendable {}

private final class Watch<Object: AnyObject>: @unchecked Sendable {
    weak var object: Object?
    init(_ object: Object?) { self.object = object }
}

@Suite("Regression: what an awaited singleton is given")
struct RegressionAwaitedOwnershipTests {
    @Test("a parent's awaited singleton first awaited through a child is given the parent as its Injector")
    func parentAwaitedSingletonGetsParent() async throws {
        let parent = try Injector(modules: [])
        let child = try parent.child { $0.bind(Visitor.self).to(instance: Visitor()) }
        let catalog = try await child.instance(Catalog.self)
        #expect(catalog.injector === parent)
        #expect(catalog === (try await parent.instance(Catalog.self)))
    }

    @Test("a parent's awaited singleton first awaited through a child does not keep the child alive")
    func parentAwaitedSingletonDoesNotKeepChild() async throws {
        let parent = try Injector(modules: [])
        var child: Injector? = try parent.child { $0.bind(Visitor.self).to(instance: Visitor()) }
        let library = try #require(await child?.instance(Library.self))
        let watch = Watch(child)
        child = nil
        #expect(watch.object == nil)
        #expect(try library.pages.make() !== (try library.pages.make()))
    }

    @Test("an awaited singleton holding a Lazy and a Factory is released with its injector")
    func awaitedSingletonDoesNotKeepInjector() async throws {
        let watchInjector: Watch<Injector>, watchLibrary: Watch<Library>
        do {
            let injector = try Injector(modules: [])
            let library = try await injector.instance(Library.self)
            _ = try library.first.get()
            watchInjector = Watch(injector)
            watchLibrary = Watch(library)
        }
        #expect(watchInjector.object == nil)
        #expect(watchLibrary.object == nil)
    }
}
