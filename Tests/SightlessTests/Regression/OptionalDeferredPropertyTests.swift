import Sightless
import Testing

// A stored property needs a starting value, so a deferred property is written
// `Lazy<T>?`, `Lazy<T>!` or `Factory<T, …>?`; the wrapper inside the optional was not
// recognised and the property was silently left nil.

private enum DeferredProperty {
    final class Engine: Injectable {
        static let initializer = Initializer(Engine.init)
    }

    final class Part: Injectable {
        let label: String
        init(label: String) { self.label = label }
        static let initializer = Initializer(Part.init(label:), .dynamic)
    }

    final class Car: Injectable {
        var optionalLazy: Lazy<Engine>?
        var unwrappedLazy: Lazy<Engine>!
        var optionalFactory: Factory<Engine>?
        var optionalArgumentFactory: Factory<Part, String>?
        static let initializer = Initializer(Car.init)
        static let properties = Properties<Car>()
            .inject(\.optionalLazy)
            .inject(\.unwrappedLazy)
            .inject(\.optionalFactory)
            .inject(\.optionalArgumentFactory)
    }

    /// A property cycle broken by a deferred property: Driver → Lazy<Seat>?, Seat → Driver.
    final class Driver: Injectable {
        var seat: Lazy<Seat>?
        static let initializer = Initializer(Driver.init)
        static let properties = Properties<Driver>().inject(\.seat)
    }

    final class Seat: Injectable {
        let driver: Driver
        init(driver: Driver) { self.driver = driver }
        static let initializer = Initializer(Seat.init(driver:))
    }
}

@Suite("Regression: optional deferred properties")
struct RegressionOptionalDeferredPropertyTests {
    @Test("a stored Lazy<T>? property is filled")
    func optionalLazyPropertyFilled() throws {
        let injector = try Injector(modules: [])
        let car = try injector.getInstance(DeferredProperty.Car.self)
        let lazy = try #require(car.optionalLazy)
        _ = try lazy.get()
    }

    @Test("a stored Lazy<T>! property is filled")
    func unwrappedLazyPropertyFilled() throws {
        let injector = try Injector(modules: [])
        let car = try injector.getInstance(DeferredProperty.Car.self)
        let lazy: Lazy<DeferredProperty.Engine>? = car.unwrappedLazy
        let filled = try #require(lazy)
        _ = try filled.get()
    }

    @Test("a stored Factory<T>? property is filled")
    func optionalFactoryPropertyFilled() throws {
        let injector = try Injector(modules: [])
        let car = try injector.getInstance(DeferredProperty.Car.self)
        let factory = try #require(car.optionalFactory)
        #expect(try factory.make() !== (try factory.make()))
    }

    @Test("a stored Factory<T, String>? property is filled and passes its argument")
    func optionalArgumentFactoryPropertyFilled() throws {
        let injector = try Injector(modules: [])
        let car = try injector.getInstance(DeferredProperty.Car.self)
        let factory = try #require(car.optionalArgumentFactory)
        #expect(try factory.make("wheel").label == "wheel")
    }

    @Test("a property cycle broken by a Lazy<T>? property resolves")
    func optionalLazyPropertyBreaksCycle() throws {
        let injector = try Injector(Bindings { $0.bind(DeferredProperty.Driver.self).in(.singleton) })
        let driver = try injector.getInstance(DeferredProperty.Driver.self)
        let seat = try #require(driver.seat)
        #expect(try seat.get().driver === driver)
    }
}
