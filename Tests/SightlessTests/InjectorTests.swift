import Sightless
import Testing

/// Blindside's master/detail: the master asks the injector for details it cannot describe ahead.
private final class Master: Injectable {
    let injector: Injector
    init(injector: Injector) { self.injector = injector }
    static let initializer = Initializer(Master.init(injector:))
    func detail(for title: String) throws -> Detail { try injector.getInstance(Detail.self, arguments: title) }
}

private final class Detail: Injectable {
    let title: String
    let api: any Api
    init(title: String, api: any Api) { self.title = title; self.api = api }
    static let initializer = Initializer(Detail.init(title:api:), .dynamic, .inject)
}

private final class Lonely: Injectable {
    static let initializer = Initializer(Lonely.init)
}

@Suite("Injector")
struct InjectorTests {
    @Test("the injector is injected into an object that asks for it")
    func injectorInjected() throws {
        let injector = try Injector(Bindings { $0.bind((any Api).self).to(HttpApi.self) })
        let master = try injector.getInstance(Master.self)
        #expect(master.injector === injector)
        #expect(try master.detail(for: "one").title == "one")
        #expect(try injector.getInstance(Injector.self) === injector)
    }

    @Test("a type first requested after the injector was built is compiled once and reused")
    func justInTimeAtFirstRequest() throws {
        let injector = try Injector(modules: [])
        let first = try injector.getInstance(Lonely.self)
        let second = try injector.getInstance(Lonely.self)
        #expect(first !== second)
    }

    @Test("a bound key wins over building the type just in time")
    func boundKeyWins() throws {
        let injector = try Injector(Bindings {
            $0.bind(Key<String>(named: "street")).to(instance: "JIT")
            $0.bind(Address.self).to { _ in Address(street: "bound") }
        })
        #expect(try injector.getInstance(Address.self).street == "bound")
    }

    @Test("a struct is built and its properties injected")
    func structInjectable() throws {
        let injector = try Injector(Bindings {
            $0.bind(Key<Int>(named: "x")).to(instance: 4)
            $0.bind(String.self).to(instance: "four")
        })
        let point = try injector.getInstance(Point.self)
        #expect(point.x == 4)
        #expect(point.label == "four")
    }

    @Test("the injector can be built from modules listed inline")
    func variadicModules() throws {
        let injector = try Injector(Bindings { $0.bind(Int.self).to(instance: 1) }, Bindings { $0.bind(String.self).to(instance: "s") })
        #expect(try injector.getInstance(Int.self) == 1)
        #expect(try injector.getInstance(String.self) == "s")
    }
}

// A type this module does not own, made injectable by a conformance written here.
extension Duration: Injectable {
    public static var initializer: Initializer<Duration> {
        Initializer({ (seconds: Int) in .seconds(seconds) }, .named("timeoutSeconds"))
    }
}

@Suite("Conformances")
struct ConformanceTests {
    @Test("a type from another module becomes injectable by a conformance in this one")
    func retroactiveConformance() throws {
        let injector = try Injector(Bindings { $0.bind(Key<Int>(named: "timeoutSeconds")).to(instance: 30) })
        #expect(try injector.getInstance(Duration.self) == .seconds(30))
    }
}

@Suite("Requesting wrappers")
struct WrapperRequestDecisionTests {
    @Test("a nested optional unwraps one level at a time")
    func nestedOptional() throws {
        let bound = try Injector(Bindings { $0.bind(Int.self).to(instance: 7) })
        let nested = try bound.getInstance(Int??.self)
        #expect(nested == .some(.some(7)), "\(String(describing: nested))")
        let unbound = try Injector(modules: [])
        // `Int?` can always be built (as nil when nothing provides an Int), so `Int??` holds it.
        #expect(try unbound.getInstance(Int??.self) == .some(nil))
        #expect(try unbound.getInstance(Int?.self) == nil)
    }
}
