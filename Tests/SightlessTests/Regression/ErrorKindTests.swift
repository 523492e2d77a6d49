import Sightless
import Testing

// Each kind of error must mean one thing, and name where the fault is.

private enum ErrorKind {
    struct Broken: Error {}

    final class Brittle: Injectable {
        init() throws { throw Broken() }
        static let initializer = Initializer(Brittle.init)
    }

    /// A raw initializer that reads an argument index it does not have.
    final class Misread: Injectable {
        init(value: Int) {}
        static let initializer = Initializer<Misread>([.inject(Key<Int>(named: "one"))]) { arguments in
            Misread(value: try arguments.value(at: 5))
        }
    }

    final class Engine: Injectable {
        static let initializer = Initializer(Engine.init)
    }

    final class Car: Injectable {
        let engine: Lazy<Engine>
        let engines: Factory<Engine>
        init(engine: Lazy<Engine>, engines: Factory<Engine>) { self.engine = engine; self.engines = engines }
        static let initializer = Initializer(Car.init(engine:engines:))
    }

    protocol Pet: AnyObject {}

    final class Cat: Injectable {
        static let initializer = Initializer(Cat.init)
    }

    /// A Car kept as a singleton (so its Lazy and Factory hold the injector weakly) whose
    /// injector is already gone.
    static func orphanedCar() throws -> Car {
        try Injector(Bindings { $0.bind(Car.self).in(.singleton) }).getInstance(Car.self)
    }
}

@Suite("Regression: error kinds and wording")
struct RegressionErrorKindTests {
    @Test("initializerFailed names the source location of the failing initializer")
    func initializerFailedHasLocation() throws {
        let injector = try Injector(modules: [])
        let error = #expect(throws: InjectionError.self) { _ = try injector.getInstance(ErrorKind.Brittle.self) }
        #expect(error?.kind == .initializerFailed)
        #expect(error?.location != nil, "\(String(describing: error))")
        #expect(error?.location == ErrorKind.Brittle.initializer.location)
    }

    @Test("an out-of-range raw argument index is not reported as argumentType")
    func outOfRangeRawIndexIsNotArgumentType() throws {
        let injector = try Injector(Bindings { $0.bind(Key<Int>(named: "one")).to(instance: 1) })
        let error = #expect(throws: InjectionError.self) { _ = try injector.getInstance(ErrorKind.Misread.self) }
        #expect(error?.kind != .argumentType, "\(String(describing: error))")
    }

    @Test("an out-of-range raw argument index names the raw initializer and the index")
    func outOfRangeRawIndexNamesInitializerAndIndex() throws {
        let injector = try Injector(Bindings { $0.bind(Key<Int>(named: "one")).to(instance: 1) })
        let error = #expect(throws: InjectionError.self) { _ = try injector.getInstance(ErrorKind.Misread.self) }
        #expect(error?.location == ErrorKind.Misread.initializer.location, "\(String(describing: error))")
        #expect(error?.problems.first?.message.contains("5") == true)
        #expect(error?.path.first == Key<ErrorKind.Misread>().erased)
    }

    @Test("a Lazy first used after its injector is released is not reported as missingBinding")
    func lazyAfterInjectorReleasedIsNotMissingBinding() throws {
        let car = try ErrorKind.orphanedCar()
        let error = #expect(throws: InjectionError.self) { _ = try car.engine.get() }
        #expect(error?.kind != .missingBinding, "\(String(describing: error))")
    }

    @Test("a Factory used after its injector is released is not reported as missingBinding")
    func factoryAfterInjectorReleasedIsNotMissingBinding() throws {
        let car = try ErrorKind.orphanedCar()
        let error = #expect(throws: InjectionError.self) { _ = try car.engines.make() }
        #expect(error?.kind != .missingBinding, "\(String(describing: error))")
    }

    @Test("a type mismatch says \"Cat is not a Pet\", not \"a Cat is not a Pet\"")
    func typeMismatchWording() throws {
        var messages: [String] = []
        do {
            let injector = try Injector(Bindings { $0.bind((any ErrorKind.Pet).self).to(ErrorKind.Cat.self) })
            _ = try injector.getInstance((any ErrorKind.Pet).self)
            Issue.record("binding a Pet to a Cat was accepted")
        } catch {
            messages = error.problems.filter { $0.kind == .typeMismatch }.map(\.message)
        }
        #expect(!messages.isEmpty)
        for message in messages {
            #expect(message.contains("Cat is not a Pet"), "\(message)")
            #expect(!message.contains("a Cat is not a Pet"), "\(message)")
        }
    }
}
