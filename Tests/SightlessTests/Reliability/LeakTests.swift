import Sightless
import Testing

private final class Service: Injectable, Sendable {
    static let initializer = Initializer(Service.init)
}

private final class Client: Injectable, Sendable {
    let service: Service
    init(service: Service) { self.service = service }
    static let initializer = Initializer(Client.init(service:))
}

/// Asks for the injector, to build more objects later.
private final class Master: Injectable {
    let injector: Injector
    init(injector: Injector) { self.injector = injector }
    static let initializer = Initializer(Master.init(injector:))
}

private final class Fragile: Injectable {
    struct Broken: Error {}
    init(service: Service, client: Client) throws { throw Broken() }
    static let initializer = Initializer(Fragile.init(service:client:))
}

/// Reached by no binding, so compiled on its first request.
private final class Latecomer: Injectable {
    let client: Client
    init(client: Client) { self.client = client }
    static let initializer = Initializer(Latecomer.init(client:))
}

@Suite("Memory")
struct LeakTests {
    @Test("dropping the last reference to an injector releases its singletons")
    func singletonsReleasedWithInjector() throws {
        weak var service: Service?
        weak var injector: Injector?
        do {
            let strong = try Injector(Bindings { $0.bind(Service.self).in(.singleton) })
            service = try strong.getInstance(Service.self)
            injector = strong
            #expect(service != nil)
        }
        #expect(injector == nil)
        #expect(service == nil)
    }

    @Test("dropping the last reference to an injector releases its bound instances and closures")
    func instancesAndClosuresReleasedWithInjector() throws {
        weak var instance: Service?
        weak var captured: Service?
        do {
            let bound = Service()
            let inClosure = Service()
            instance = bound
            captured = inClosure
            let injector = try Injector(Bindings {
                $0.bind(Service.self).to(instance: bound)
                $0.bind(Key<Service>(named: "closure")).to { _ in inClosure }
            })
            _ = try injector.getInstance(Key<Service>(named: "closure"))
        }
        #expect(instance == nil)
        #expect(captured == nil)
    }

    @Test("objects the injector built do not keep it alive")
    func builtObjectsDoNotRetainInjector() throws {
        weak var injector: Injector?
        var kept: [AnyObject] = []
        do {
            let strong = try Injector(Bindings {
                $0.bind(Service.self).in(.singleton)
                $0.bind(Key<Client>(named: "closure")).to { resolver in Client(service: try resolver.getInstance(Service.self)) }
            })
            kept.append(try strong.getInstance(Client.self))
            kept.append(try strong.getInstance(Key<Client>(named: "closure")))
            kept.append(try strong.getInstance(Latecomer.self))
            injector = strong
        }
        #expect(injector == nil)
        #expect(kept.count == 3)
    }

    @Test("an object that asked for the injector keeps it alive until the object goes")
    func injectorKeptByWhoAskedForIt() throws {
        weak var injector: Injector?
        var master: Master?
        do {
            let strong = try Injector(modules: [])
            master = try strong.getInstance(Master.self)
            injector = strong
        }
        #expect(injector != nil)
        #expect(master?.injector === injector)
        master = nil
        #expect(injector == nil)
    }

    @Test("a request that fails releases the objects it built on the way")
    func failedRequestReleasesPartialObjects() throws {
        let built = WeakReference<Client>()
        let injector = try Injector(Bindings {
            $0.bind(Service.self).in(.singleton)
            $0.bind(Client.self).to { resolver in
                let client = Client(service: try resolver.getInstance(Service.self))
                built.object = client
                return client
            }
        })
        #expect(throws: InjectionError.self) { _ = try injector.getInstance(Fragile.self) }
        #expect(built.object == nil)
        #expect(try injector.getInstance(Service.self) === (try injector.getInstance(Service.self)))
    }
}

/// A weak reference that a `@Sendable` closure can set.
private final class WeakReference<Object: AnyObject>: @unchecked Sendable {
    weak var object: Object?
}
