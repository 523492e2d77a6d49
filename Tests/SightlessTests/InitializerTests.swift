import Sightless
import Testing

private final class Engine: Injectable {
    static let initializer = Initializer(Engine.init)
}

private final class Wheel: Injectable {
    static let initializer = Initializer(Wheel.init)
}

private final class Car: Injectable {
    let engine: Engine
    let wheel: Wheel
    init(engine: Engine, wheel: Wheel) { self.engine = engine; self.wheel = wheel }
    static let initializer = Initializer(Car.init(engine:wheel:))
}

private final class Garage4: Injectable {
    let car: Car, engine: Engine, name: String, spots: Int
    init(car: Car, engine: Engine, name: String, spots: Int) {
        self.car = car; self.engine = engine; self.name = name; self.spots = spots
    }
    static let initializer = Initializer(Garage4.init(car:engine:name:spots:), .inject, .inject, .named("name"), .inject)
}

private final class Radio: Injectable {
    let station: String?
    init(station: String?) { self.station = station }
    static let initializer = Initializer(Radio.init(station:), .named("station"))
}

private struct Clock: Injectable {
    let zone: String
    static func utc(name: String) -> Clock { Clock(zone: name) }
    static let initializer = Initializer(Clock.utc(name:), .named("zone"))
}

private struct BrokenError: Error, CustomStringConvertible {
    var description: String { "the engine is on fire" }
}

private final class Broken: Injectable {
    init() throws { throw BrokenError() }
    static let initializer = Initializer(Broken.init)
}

private final class NeedsBroken: Injectable {
    init(broken: Broken) {}
    static let initializer = Initializer(NeedsBroken.init(broken:))
}

private final class Raw: Injectable {
    let engine: Engine
    let title: String
    init(engine: Engine, title: String) { self.engine = engine; self.title = title }
    static let initializer = Initializer<Raw>([.inject(Engine.self), .dynamic(String.self)]) { arguments in
        Raw(engine: try arguments.value(at: 0), title: try arguments.value(at: 1))
    }
}

@Suite("Initializers")
struct InitializerTests {
    @Test("an initializer's arguments are built from their types' bindings")
    func firstOrderDependencies() throws {
        let injector = try Injector(modules: [])
        let car = try injector.getInstance(Car.self)
        #expect(car.engine !== (try injector.getInstance(Car.self)).engine)
    }

    @Test("a four-argument initializer receives every argument in order")
    func fourArguments() throws {
        let injector = try Injector(Bindings {
            $0.bind(Key<String>(named: "name")).to(instance: "home")
            $0.bind(Int.self).to(instance: 3)
        })
        let garage = try injector.getInstance(Garage4.self)
        #expect(garage.name == "home")
        #expect(garage.spots == 3)
    }

    @Test("an argument whose key has no binding is an error when the injector is built")
    func unboundArgumentKey() throws {
        let error = #expect(throws: InjectionError.self) {
            _ = try Injector(Bindings { $0.bind(Garage4.self) })
        }
        #expect(error?.problems.map(\.kind) == [.missingBinding, .missingBinding])
        #expect(error?.problems.first?.path.map(\.description) == ["Garage4", #"String(named: "name")"#])
        guard case .missingBinding(_, let consumer, _, _)? = error?.problems.first?.detail else {
            Issue.record("expected missingBinding, got \(String(describing: error))")
            return
        }
        #expect(consumer?.role == .argument(3))
    }

    @Test("an optional argument with nothing bound gets nil")
    func optionalArgumentNil() throws {
        let injector = try Injector(modules: [])
        #expect(try injector.getInstance(Radio.self).station == nil)
    }

    @Test("an optional argument is filled when its wrapped key is bound")
    func optionalArgumentFilled() throws {
        let injector = try Injector(Bindings { $0.bind(Key<String>(named: "station")).to(instance: "FM4") })
        #expect(try injector.getInstance(Radio.self).station == "FM4")
    }

    @Test("a static factory serves as the initializer")
    func staticFactory() throws {
        let injector = try Injector(Bindings { $0.bind(Key<String>(named: "zone")).to(instance: "UTC") })
        #expect(try injector.getInstance(Clock.self).zone == "UTC")
    }

    @Test("a throwing initializer's error comes back wrapped with the dependency path")
    func throwingInitializer() throws {
        let injector = try Injector(modules: [])
        let error = #expect(throws: InjectionError.self) { _ = try injector.getInstance(NeedsBroken.self) }
        #expect(error?.kind == .initializerFailed)
        #expect(error?.path.map(\.description) == ["NeedsBroken", "Broken"])
        #expect(error?.underlying is BrokenError)
        guard case .initializerFailed(let key, let thrown)? = error?.problems.first?.detail else {
            Issue.record("expected initializerFailed, got \(String(describing: error))")
            return
        }
        #expect(key.description == "Broken")
        #expect(thrown.contains("the engine is on fire"))
        #expect(error?.location != nil)
    }

    @Test("the raw form links a list of slots to a closure over the values")
    func rawForm() throws {
        let injector = try Injector(modules: [])
        let raw = try injector.getInstance(Raw.self, arguments: "raw")
        #expect(raw.title == "raw")
        #expect(Raw.initializer.dependencies.map(\.isDynamic) == [false, true])
    }

    @Test("an initializer records its dependencies as data")
    func dependenciesAreData() {
        let dependencies = Garage4.initializer.dependencies
        #expect(dependencies.map(\.role) == [.argument(1), .argument(2), .argument(3), .argument(4)])
        #expect(dependencies[2].key == Key<String>(named: "name").erased)
    }
}
