import Sightless
import Testing

/// A module from a closure, so each test states its bindings inline.
struct Bindings: Module {
    let body: @Sendable (Binder) -> Void
    init(_ body: @escaping @Sendable (Binder) -> Void) { self.body = body }
    func configure(_ binder: Binder) { body(binder) }
}

@Suite("Bindings")
struct BindingTests {
    @Test("an instance bound to a type key is returned for that type")
    func instanceForTypeKey() throws {
        let injector = try Injector(Bindings { $0.bind(Int.self).to(instance: 42) })
        #expect(try injector.getInstance(Int.self) == 42)
    }

    @Test("an instance bound to a named key is returned for that key only")
    func instanceForNamedKey() throws {
        let injector = try Injector(Bindings {
            $0.bind(Key<String>(named: "endpoint")).to(instance: "https://example.com")
            $0.bind(String.self).to(instance: "plain")
        })
        #expect(try injector.getInstance(Key<String>(named: "endpoint")) == "https://example.com")
        #expect(try injector.getInstance(String.self) == "plain")
    }

    @Test("an instance bound to a protocol key is returned for the protocol")
    func instanceForProtocolKey() throws {
        let fake = FakeApi()
        let injector = try Injector(Bindings { $0.bind((any Api).self).to(instance: fake) })
        #expect(try injector.getInstance((any Api).self) === fake)
    }

    @Test("a closure binding resolves other keys through its resolver")
    func closureResolvesOtherKeys() throws {
        let injector = try Injector(Bindings {
            $0.bind(Key<String>(named: "street")).to(instance: "Main St")
            $0.bind(Key<String>(named: "greeting")).to { resolver in
                "Hello from " + (try resolver.getInstance(Address.self)).street
            }
        })
        #expect(try injector.getInstance(Key<String>(named: "greeting")) == "Hello from Main St")
    }

    @Test("a provider object provides the binding's values")
    func providerBinding() throws {
        struct StreetProvider: Provider {
            func provide(_ resolver: Resolver) throws -> Address {
                Address(street: try resolver.getInstance(Key<String>(named: "prefix")) + " Road")
            }
        }
        let injector = try Injector(Bindings {
            $0.bind(Key<String>(named: "prefix")).to(instance: "Abbey")
            $0.bind(Address.self).to(provider: StreetProvider())
        })
        #expect(try injector.getInstance(Address.self).street == "Abbey Road")
    }

    @Test("a protocol bound to an Injectable type is built from that type's initializer")
    func bindingToInjectableType() throws {
        let injector = try Injector(Bindings { $0.bind((any Api).self).to(HttpApi.self) })
        let api = try injector.getInstance((any Api).self)
        #expect(api is HttpApi)
        #expect(api.name == "http")
    }

    @Test("a type bound to itself builds from its initializer without recursion")
    func typeBoundToItself() throws {
        let injector = try Injector(Bindings {
            $0.bind(HttpApi.self).to(HttpApi.self).in(.singleton)
        })
        let first = try injector.getInstance(HttpApi.self)
        #expect(first === (try injector.getInstance(HttpApi.self)))
    }

    @Test("a key bound to an initializer has its arguments injected")
    func bindingToInitializer() throws {
        let injector = try Injector(Bindings {
            $0.bind(Key<String>(named: "street")).to(instance: "Elm St")
            $0.bind(Key<String>(named: "label")).to(Initializer { (address: Address) in "at " + address.street })
        })
        #expect(try injector.getInstance(Key<String>(named: "label")) == "at Elm St")
    }

    @Test("an unbound key is an error naming the key and the path that needs it")
    func unboundKeyError() throws {
        let error = #expect(throws: InjectionError.self) {
            _ = try Injector(Bindings { $0.bind(Key<String>(named: "title")).to(Initializer { (address: Address) in address.street }) })
        }
        #expect(error?.kind == .missingBinding)
        #expect(error?.problems.first?.key == Key<String>(named: "street").erased)
        #expect(error?.path.map(\.description) == [#"String(named: "title")"#, "Address", #"String(named: "street")"#])
        #expect(error?.description.contains(#"String(named: "title") → Address → String(named: "street")"#) == true)
    }

    @Test("a requested key nothing provides is an error that lists bindings of the same type")
    func requestedKeyWithNearMiss() throws {
        let injector = try Injector(Bindings { $0.bind(Key<Int>(named: "port")).to(instance: 80) })
        let error = #expect(throws: InjectionError.self) { _ = try injector.getInstance(Int.self) }
        #expect(error?.kind == .missingBinding)
        guard case .missingBinding(_, _, let nearMisses, _)? = error?.problems.first?.detail else {
            Issue.record("expected missingBinding, got \(String(describing: error))")
            return
        }
        #expect(nearMisses == [Key<Int>(named: "port").erased])
    }

    @Test("modules installed by another module contribute their bindings")
    func installedModules() throws {
        let inner = Bindings { $0.bind(Int.self).to(instance: 7) }
        let injector = try Injector(Bindings { $0.install(inner) })
        #expect(try injector.getInstance(Int.self) == 7)
    }

    @Test("a binding without a target for a type that is not Injectable is an error")
    func untargetedBinding() throws {
        let error = #expect(throws: InjectionError.self) { _ = try Injector(Bindings { $0.bind(Int.self) }) }
        #expect(error?.kind == .incompleteBinding)
        guard case .bindingWithoutTarget(let key, _)? = error?.problems.first?.detail else {
            Issue.record("expected bindingWithoutTarget, got \(String(describing: error))")
            return
        }
        #expect(key == Key<Int>().erased)
    }
}
