import Sightless
import Testing

private final class Expensive: Injectable {
    static let built = Counter()
    init() { Expensive.built.increment() }
    static let initializer = Initializer(Expensive.init)
}

private final class UsesLazy: Injectable {
    let expensive: Lazy<Expensive>
    init(expensive: Lazy<Expensive>) { self.expensive = expensive }
    static let initializer = Initializer(UsesLazy.init(expensive:))
}

// A constructor cycle broken by a Lazy edge: Parent → Child → Lazy<Parent>.
private final class Parent: Injectable {
    let child: Child
    init(child: Child) { self.child = child }
    static let initializer = Initializer(Parent.init(child:))
}

private final class Child: Injectable {
    let parent: Lazy<Parent>
    init(parent: Lazy<Parent>) { self.parent = parent }
    static let initializer = Initializer(Child.init(parent:))
}

private final class Screen: Injectable {
    let title: String
    let count: Int
    let api: any Api
    init(title: String, api: any Api, count: Int) { self.title = title; self.api = api; self.count = count }
    static let initializer = Initializer(Screen.init(title:api:count:), .dynamic, .inject, .dynamic)
}

private final class Router: Injectable {
    let screens: Factory<Screen, String, Int>
    init(screens: Factory<Screen, String, Int>) { self.screens = screens }
    static let initializer = Initializer(Router.init(screens:))
}

private final class WrongRouter: Injectable {
    init(screens: Factory<Screen, Int>) {}
    static let initializer = Initializer(WrongRouter.init(screens:))
}

private final class LazyScreen: Injectable {
    init(screen: Lazy<Screen>) {}
    static let initializer = Initializer(LazyScreen.init(screen:))
}

private final class Pool: Injectable {
    let connections: Factory<Connection>
    init(connections: Factory<Connection>) { self.connections = connections }
    static let initializer = Initializer(Pool.init(connections:))
}

private final class Connection: Injectable {
    static let initializer = Initializer(Connection.init)
}

private var apiModule: Bindings { Bindings { $0.bind((any Api).self).to(HttpApi.self) } }

@Suite("Lazy and Factory dependencies")
struct DeferredDependencyTests {
    @Test("a Lazy dependency is built on first use, once, and then kept")
    func lazyBuildsOnFirstUse() throws {
        let injector = try Injector(modules: [])
        let consumer = try injector.getInstance(UsesLazy.self)
        let before = Expensive.built.count
        let first = try consumer.expensive.get()
        #expect(Expensive.built.count == before + 1)
        #expect(try consumer.expensive.get() === first)
        #expect(Expensive.built.count == before + 1)
    }

    @Test("a Lazy edge may close a dependency cycle")
    func lazyBreaksCycle() throws {
        let injector = try Injector(Bindings { $0.bind(Parent.self).in(.singleton) })
        let parent = try injector.getInstance(Parent.self)
        #expect(try parent.child.parent.get() === parent)
    }

    @Test("a Lazy of a key nothing provides is reported when the injector is built")
    func lazyOfMissingKey() throws {
        final class NeedsLazyInt: Injectable {
            init(value: Lazy<Int>) {}
            static let initializer = Initializer(NeedsLazyInt.init(value:))
        }
        let error = #expect(throws: InjectionError.self) { _ = try Injector(Bindings { $0.bind(NeedsLazyInt.self) }) }
        #expect(error?.kind == .missingBinding)
        #expect(error?.path.map(\.description) == ["NeedsLazyInt", "Int"])
    }

    @Test("a Factory fills the target's dynamic arguments in order")
    func factoryMakesWithArguments() throws {
        let injector = try Injector(apiModule)
        let router = try injector.getInstance(Router.self)
        let screen = try router.screens.make("Inbox", 7)
        #expect(screen.title == "Inbox")
        #expect(screen.count == 7)
        #expect(try router.screens.make("Other", 1) !== screen)
    }

    @Test("a Factory whose argument types do not match the target's slots is rejected at build")
    func factoryArgumentMismatch() throws {
        let error = #expect(throws: InjectionError.self) {
            _ = try Injector(modules: [apiModule, Bindings { $0.bind(WrongRouter.self) }])
        }
        guard case .factoryArguments(_, _, let target, let passed, let slots)? = error?.problems.first?.detail else {
            Issue.record("expected factoryArguments, got \(String(describing: error))")
            return
        }
        #expect(target.description == "Screen")
        #expect(passed == [Key<Int>().erased])
        #expect(slots.map(\.key.typeName) == ["String", "Int"])
    }

    @Test("a Factory requested itself with the wrong argument types is named once, with no consumer")
    func requestedFactoryOfWrongArguments() throws {
        let injector = try Injector(modules: [apiModule])
        let error = #expect(throws: InjectionError.self) { _ = try injector.getInstance(Factory<Screen, Int>.self) }
        let problem = try #require(error?.problems.first)
        guard case .factoryArguments(let factory, let consumer, _, _, _) = problem.detail else {
            Issue.record("expected factoryArguments, got \(String(describing: error))")
            return
        }
        #expect(consumer.key == factory)
        #expect(problem.message.hasPrefix("Factory<Screen, Int> makes Screen from (Int), but Screen takes"))
    }

    @Test("a Lazy of a type with dynamic arguments is rejected at build")
    func lazyOfDynamicType() throws {
        let error = #expect(throws: InjectionError.self) {
            _ = try Injector(modules: [apiModule, Bindings { $0.bind(LazyScreen.self) }])
        }
        #expect(error?.kind == .dynamicDependency)
    }

    @Test("a Factory without arguments gives a new unscoped instance on every call")
    func factoryAsProvider() throws {
        let injector = try Injector(modules: [])
        let pool = try injector.getInstance(Pool.self)
        #expect(try pool.connections.make() !== (try pool.connections.make()))
    }

    @Test("a Factory of a singleton gives the singleton")
    func factoryOfSingleton() throws {
        let injector = try Injector(Bindings { $0.bind(Connection.self).in(.singleton) })
        let pool = try injector.getInstance(Pool.self)
        #expect(try pool.connections.make() === (try injector.getInstance(Connection.self)))
    }

    @Test("a Factory given to a singleton and used after its injector is gone throws injectorReleased")
    func factoryAfterInjectorReleased() throws {
        var injector: Injector? = try Injector(Bindings { $0.bind(Pool.self).in(.singleton) })
        let pool = try injector?.getInstance(Pool.self)
        injector = nil
        let error = #expect(throws: InjectionError.self) { _ = try pool?.connections.make() }
        #expect(error?.kind == .injectorReleased)
    }

    @Test("the dynamic-dependency error points to the Factory form")
    func dynamicErrorPointsToFactory() throws {
        final class Direct: Injectable {
            init(screen: Screen) {}
            static let initializer = Initializer(Direct.init(screen:))
        }
        let error = #expect(throws: InjectionError.self) {
            _ = try Injector(modules: [apiModule, Bindings { $0.bind(Direct.self) }])
        }
        #expect(error?.problems.first?.fix.hasPrefix("Inject Factory<Screen, String, Int> into Direct") == true)
    }
}

private final class EagerParent: Injectable {
    let child: EagerChild
    init(child: EagerChild) throws {
        self.child = child
        _ = try child.parent.get()   // asks for itself while being built
    }
    static let initializer = Initializer(EagerParent.init(child:))
}

private final class EagerChild: Injectable {
    let parent: Lazy<EagerParent>
    init(parent: Lazy<EagerParent>) { self.parent = parent }
    static let initializer = Initializer(EagerChild.init(parent:))
}

@Suite("Lazy cycles at run time")
struct LazyCycleTests {
    @Test("a singleton that uses a Lazy of itself while being built fails instead of waiting forever")
    func singletonUsingLazyOfItself() throws {
        let injector = try Injector(Bindings { $0.bind(EagerParent.self).in(.singleton) })
        let error = #expect(throws: InjectionError.self) { _ = try injector.getInstance(EagerParent.self) }
        #expect(error?.kind == .cyclicDependency)
        #expect(error?.path.first?.description == "EagerParent")
        #expect(error?.path.last?.description == "EagerParent")
    }
}

@Suite("Creation-time arguments across compilations")
struct DynamicAcrossCompilationTests {
    private final class Page: Injectable {
        let number: Int
        init(number: Int) { self.number = number }
        static let initializer = Initializer(Page.init(number:), .dynamic)
    }

    private final class Book: Injectable {
        let pages: Factory<Page, Int>
        init(pages: Factory<Page, Int>) { self.pages = pages }
        static let initializer = Initializer(Book.init(pages:))
    }

    private final class Binder2: Injectable {
        init(page: Page) {}
        static let initializer = Initializer(Binder2.init(page:))
    }

    @Test("a Factory compiled after its target was requested still matches the target's arguments")
    func factoryAfterTargetCompiled() throws {
        let injector = try Injector(modules: [])
        #expect(try injector.getInstance(Page.self, arguments: 1).number == 1)
        #expect(try injector.getInstance(Book.self).pages.make(2).number == 2)
    }

    @Test("injecting a type with arguments that an earlier request compiled is still rejected")
    func plainInjectionAfterTargetCompiled() throws {
        let injector = try Injector(modules: [])
        _ = try injector.getInstance(Page.self, arguments: 1)
        let error = #expect(throws: InjectionError.self) { _ = try injector.getInstance(Binder2.self) }
        #expect(error?.kind == .dynamicDependency)
    }
}
