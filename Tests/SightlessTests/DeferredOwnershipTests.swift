import Sightless
import Testing

// A Lazy or Factory works for as long as it is reachable, and releasing every outside
// reference to an injector and to what it built frees all of it.

private final class Note: Injectable {
    static let initializer = Initializer(Note.init)
}

/// Unscoped: made at start-up and kept by the app, like a server's router.
private final class Router: Injectable {
    let notes: Factory<Note>
    let later: Lazy<Note>
    init(notes: Factory<Note>, later: Lazy<Note>) {
        self.notes = notes
        self.later = later
    }
    static let initializer = Initializer(Router.init(notes:later:))
}

/// A singleton: the injector holds it, so what it is given holds the injector weakly.
private final class Registry: Injectable {
    let notes: Factory<Note>
    let later: Lazy<Router>
    init(notes: Factory<Note>, later: Lazy<Router>) {
        self.notes = notes
        self.later = later
    }
    static let initializer = Initializer(Registry.init(notes:later:))
    static var scope: Scope { .singleton }
}

/// A singleton given the injector, a Lazy and a Factory: first requested through a child, it is
/// the parent's, and so is everything it is given.
private final class Archive: Injectable {
    let injector: Injector
    let router: Lazy<Router>
    let notes: Factory<Note>
    init(injector: Injector, router: Lazy<Router>, notes: Factory<Note>) {
        self.injector = injector
        self.router = router
        self.notes = notes
    }
    static let initializer = Initializer(Archive.init(injector:router:notes:))
    static var scope: Scope { .singleton }
}

private final class RequestUser: Sendable {}

/// Holds a weak reference, so a test can ask whether an object was freed.
private final class Watch<Object: AnyObject> {
    weak var object: Object?
    init(_ object: Object?) { self.object = object }
}

@Suite("Lazy and Factory ownership")
struct DeferredOwnershipTests {
    @Test("a Factory keeps working after every other reference to its injector is released")
    func factoryKeepsInjector() throws {
        var injector: Injector? = try Injector(modules: [])
        let router = try #require(try injector?.getInstance(Router.self))
        let watch = Watch(injector)
        injector = nil
        #expect(watch.object != nil)
        #expect(try router.notes.make() !== (try router.notes.make()))
    }

    @Test("a Lazy first used after every other reference to its injector is released builds its value")
    func lazyKeepsInjector() throws {
        var injector: Injector? = try Injector(modules: [])
        let router = try #require(try injector?.getInstance(Router.self))
        injector = nil
        #expect(try router.later.get() === (try router.later.get()))
    }

    @Test("releasing the object that holds a Factory releases its injector")
    func releasingHolderReleasesInjector() throws {
        var router: Router?
        let watch: Watch<Injector>
        do {
            let injector = try Injector(modules: [])
            router = try injector.getInstance(Router.self)
            _ = try router?.notes.make()
            watch = Watch(injector)
        }
        #expect(watch.object != nil)
        router = nil
        #expect(watch.object == nil)
    }

    @Test("a singleton holding a Lazy and a Factory is released with its injector")
    func singletonDoesNotKeepInjector() throws {
        let watchInjector: Watch<Injector>, watchRegistry: Watch<Registry>, watchRouter: Watch<Router>
        do {
            let injector = try Injector(modules: [])
            let registry = try injector.getInstance(Registry.self)
            _ = try registry.notes.make()
            let router = try registry.later.get()
            _ = try router.notes.make()
            watchInjector = Watch(injector)
            watchRegistry = Watch(registry)
            watchRouter = Watch(router)
        }
        #expect(watchInjector.object == nil)
        #expect(watchRegistry.object == nil)
        #expect(watchRouter.object == nil)
    }

    @Test("a value a singleton's Lazy keeps holds the injector weakly in turn")
    func lazyOfSingletonBuildsKeptValue() throws {
        let injector = try Injector(modules: [])
        let router = try injector.getInstance(Registry.self).later.get()
        // Kept by the singleton's Lazy, so its own Factory must not hold the injector.
        let watch = Watch(router)
        #expect(try router.notes.make() !== (try router.notes.make()))
        #expect(watch.object != nil)
    }

    @Test("a Factory given to a singleton throws injectorReleased once the injector is released")
    func singletonFactoryAfterRelease() throws {
        var injector: Injector? = try Injector(modules: [])
        let registry = try #require(try injector?.getInstance(Registry.self))
        injector = nil
        let error = #expect(throws: InjectionError.self) { _ = try registry.notes.make() }
        #expect(error?.kind == .injectorReleased)
    }

    @Test("a Factory used after its injector is shut down throws injectorShutDown")
    func factoryAfterShutDown() throws {
        let injector = try Injector(modules: [])
        let router = try injector.getInstance(Router.self)
        try injector.shutDown()
        let error = #expect(throws: InjectionError.self) { _ = try router.notes.make() }
        #expect(error?.kind == .injectorShutDown)
    }

    @Test("a parent's singleton first requested through a child is given the parent as its Injector")
    func parentSingletonGetsParentInjector() throws {
        let parent = try Injector(modules: [])
        let child = try parent.child { $0.bind(RequestUser.self).to(instance: RequestUser()) }
        let archive = try child.getInstance(Archive.self)
        #expect(archive.injector === parent)
        #expect(archive === (try parent.getInstance(Archive.self)))
    }

    @Test("a parent's singleton first requested through a child does not keep the child alive")
    func parentSingletonDoesNotKeepChild() throws {
        let parent = try Injector(modules: [])
        var child: Injector? = try parent.child { $0.bind(RequestUser.self).to(instance: RequestUser()) }
        let archive = try #require(try child?.getInstance(Archive.self))
        let watch = Watch(child)
        child = nil
        #expect(watch.object == nil)
        #expect(try archive.notes.make() !== (try archive.notes.make()))
        _ = try archive.router.get()
    }

    @Test("a parent's singleton closure first run through a child resolves through the parent")
    func parentSingletonClosureGetsParentResolver() throws {
        final class Seen: Sendable {
            let injector: Injector
            init(_ injector: Injector) { self.injector = injector }
        }
        let parent = try Injector(Bindings { $0.bind(Seen.self).to { resolver in Seen(resolver.injector) }.in(.singleton) })
        let child = try parent.child { $0.bind(RequestUser.self).to(instance: RequestUser()) }
        #expect(try child.getInstance(Seen.self).injector === parent)
    }

    @Test("an unscoped value built through a child is given the child as its Injector")
    func unscopedValueGetsChild() throws {
        final class Screen: Injectable {
            let injector: Injector
            init(injector: Injector) { self.injector = injector }
            static let initializer = Initializer(Screen.init(injector:))
        }
        let parent = try Injector(modules: [])
        let child = try parent.child { $0.bind(RequestUser.self).to(instance: RequestUser()) }
        #expect(try child.getInstance(Screen.self).injector === child)
    }

    @Test("a child's own singleton is given the child as its Injector")
    func childSingletonGetsChild() throws {
        let parent = try Injector(modules: [])
        let child = try parent.child { $0.bind(Archive.self).in(.singleton) }
        #expect(try child.getInstance(Archive.self).injector === child)
        #expect(try parent.getInstance(Archive.self).injector === parent)
    }
}
