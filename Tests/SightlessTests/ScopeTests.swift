import Sightless
import Synchronization
import Testing

private final class Service: Injectable {
    static let initializer = Initializer(Service.init)
}

@Suite("Scopes")
struct ScopeTests {
    @Test("a singleton is the same instance on every request")
    func singletonIdentity() throws {
        let injector = try Injector(Bindings { $0.bind(Service.self).in(.singleton) })
        #expect(try injector.getInstance(Service.self) === (try injector.getInstance(Service.self)))
    }

    @Test("each injector has its own singletons")
    func singletonPerInjector() throws {
        let module = Bindings { $0.bind(Service.self).in(.singleton) }
        #expect(try Injector(module).getInstance(Service.self) !== (try Injector(module).getInstance(Service.self)))
    }

    @Test("an alias of a singleton shares the singleton")
    func singletonThroughAlias() throws {
        let injector = try Injector(Bindings {
            $0.bind(HttpApi.self).in(.singleton)
            $0.bind((any Api).self).to(HttpApi.self)
        })
        let direct = try injector.getInstance(HttpApi.self)
        #expect(try injector.getInstance((any Api).self) === direct)
    }

    @Test("a scoped alias keeps its own instance while the target stays unscoped")
    func scopedAlias() throws {
        let injector = try Injector(Bindings { $0.bind((any Api).self).to(HttpApi.self).in(.singleton) })
        #expect(try injector.getInstance((any Api).self) === (try injector.getInstance((any Api).self)))
        #expect(try injector.getInstance(HttpApi.self) !== (try injector.getInstance(HttpApi.self)))
    }

    @Test("an unscoped binding gives a new instance on every request")
    func unscopedNewInstances() throws {
        let injector = try Injector(modules: [])
        #expect(try injector.getInstance(Service.self) !== (try injector.getInstance(Service.self)))
    }

    @Test("a singleton is built once when 8 threads race for it")
    func singletonUnderContention() throws {
        for _ in 0..<50 {
            let built = Counter()
            let injector = try Injector(Bindings {
                $0.bind(Service.self).to { _ in
                    built.increment()
                    return Service()
                }.in(.singleton)
            })
            let seen = Locked<Set<ObjectIdentifier?>>([])
            race(threads: 8) { _ in
                let id = (try? injector.getInstance(Service.self)).map(ObjectIdentifier.init)
                seen.withLock { _ = $0.insert(id) }
            }
            #expect(built.count == 1)
            #expect(seen.withLock { $0.count == 1 && !$0.contains(nil) })
        }
    }

    @Test("a singleton whose closure fails is not kept, and the next request tries again")
    func failedSingletonRetries() throws {
        let attempts = Counter()
        struct Flaky: Error {}
        let injector = try Injector(Bindings {
            $0.bind(Service.self).to { _ in
                attempts.increment()
                if attempts.count == 1 { throw Flaky() }
                return Service()
            }.in(.singleton)
        })
        #expect(throws: InjectionError.self) { _ = try injector.getInstance(Service.self) }
        let service = try injector.getInstance(Service.self)
        #expect(service === (try injector.getInstance(Service.self)))
        #expect(attempts.count == 2)
    }
}

@Suite("Scopes across compilations")
struct ScopeAcrossCompilationTests {
    private final class Consumer: Injectable {
        let service: HttpApi
        init(service: HttpApi) { self.service = service }
        static let initializer = Initializer(Consumer.init(service:))
    }

    @Test("a type compiled on first request shares the singletons compiled with the injector")
    func justInTimeSharesSingletons() throws {
        let injector = try Injector(Bindings { $0.bind(HttpApi.self).in(.singleton) })
        let direct = try injector.getInstance(HttpApi.self)
        #expect(try injector.getInstance(Consumer.self).service === direct)
    }
}
