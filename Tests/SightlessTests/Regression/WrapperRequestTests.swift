import Sightless
import Testing

// Requesting `T?`, `Lazy<T>` or `Factory<T, …>` directly failed with
// missingBinding and the advice to make Optional/Lazy/Factory conform to Injectable, although
// the same wrappers work as initializer arguments.

private enum Wrapper {
    protocol Service: AnyObject {}

    final class RealService: Service, Injectable {
        static let initializer = Initializer(RealService.init)
    }

    /// Neither bound nor Injectable.
    final class Unbound {}

    final class Screen: Injectable {
        let title: String
        init(title: String) { self.title = title }
        static let initializer = Initializer(Screen.init(title:), .dynamic)
    }

    static var serviceModule: Bindings {
        Bindings { $0.bind((any Service).self).to(RealService.self) }
    }

    /// The advice no error may give: making a wrapper type Injectable.
    static func advisesWrapperConformance(_ error: InjectionError) -> Bool {
        let text = error.description
        return ["Optional", "Lazy", "Factory"].contains { wrapper in
            text.contains("make \(wrapper)") && text.contains("conform to Injectable")
        }
    }
}

@Suite("Regression: requesting wrapper types")
struct RegressionWrapperRequestTests {
    @Test("getInstance(T?.self) gives the instance when T is bound")
    func optionalOfBoundType() throws {
        let injector = try Injector(Wrapper.serviceModule)
        let service = try injector.getInstance((any Wrapper.Service)?.self)
        #expect(service is Wrapper.RealService)
    }

    @Test("getInstance(T?.self) gives the instance when T is Injectable and unbound")
    func optionalOfInjectableType() throws {
        let injector = try Injector(modules: [])
        #expect(try injector.getInstance(Wrapper.RealService?.self) != nil)
    }

    @Test("getInstance(T?.self) gives nil when T has no binding")
    func optionalOfUnboundType() throws {
        let injector = try Injector(modules: [])
        #expect(try injector.getInstance(Wrapper.Unbound?.self) == nil)
    }

    @Test("getInstance(Key<T?>(named:)) gives the named instance when the named T is bound")
    func optionalOfNamedKey() throws {
        let injector = try Injector(Bindings { $0.bind(Key<Int>(named: "retries")).to(instance: 3) })
        #expect(try injector.getInstance(Key<Int?>(named: "retries")) == 3)
    }

    @Test("getInstance(Lazy<T>.self) gives a Lazy of the bound T")
    func lazyOfBoundType() throws {
        let injector = try Injector(Wrapper.serviceModule)
        let lazy = try injector.getInstance(Lazy<any Wrapper.Service>.self)
        #expect(try lazy.get() is Wrapper.RealService)
    }

    @Test("getInstance(Factory<T>.self) gives a Factory of the bound T")
    func factoryOfBoundType() throws {
        let injector = try Injector(Wrapper.serviceModule)
        let factory = try injector.getInstance(Factory<any Wrapper.Service>.self)
        #expect(try factory.make() is Wrapper.RealService)
    }

    @Test("getInstance(Factory<T, String>.self) gives a Factory that fills T's dynamic argument")
    func factoryWithArgumentsOfInjectableType() throws {
        let injector = try Injector(modules: [])
        let factory = try injector.getInstance(Factory<Wrapper.Screen, String>.self)
        #expect(try factory.make("Inbox").title == "Inbox")
    }

    @Test("no error advises making Optional, Lazy or Factory conform to Injectable")
    func noAdviceToMakeWrappersInjectable() throws {
        let injector = try Injector(modules: [])
        var errors: [InjectionError] = []
        do { _ = try injector.getInstance(Lazy<Wrapper.Unbound>.self) } catch { errors.append(error) }
        do { _ = try injector.getInstance(Factory<Wrapper.Unbound>.self) } catch { errors.append(error) }
        do { _ = try injector.getInstance(Key<Wrapper.Unbound?>(named: "x")) } catch { errors.append(error) }
        do { _ = try Injector(Bindings { $0.bind(Key<Lazy<Wrapper.Unbound>>(named: "lazy")) }) } catch { errors.append(error) }
        for error in errors {
            #expect(!Wrapper.advisesWrapperConformance(error), "\(error)")
        }
    }
}
