import Sightless
import Synchronization
import Testing

private final class LoggingApi: Api {
    let wrapped: any Api
    let tag: String
    init(wrapping wrapped: any Api, tag: String = "logging") { self.wrapped = wrapped; self.tag = tag }
    var name: String { "\(tag)(\(wrapped.name))" }
}

private final class ApiUser: Injectable {
    let api: any Api
    init(api: any Api) { self.api = api }
    static let initializer = Initializer(ApiUser.init(api:))
}

private final class Greeting: Injectable, Sendable {
    let text: String
    init(text: String = "hello") { self.text = text }
    static let initializer = Initializer { Greeting() }
}

private final class Greeter: Injectable {
    let greeting: Greeting
    init(greeting: Greeting) { self.greeting = greeting }
    static let initializer = Initializer(Greeter.init(greeting:))
}

@Suite("Decorators")
struct DecoratorTests {
    @Test("a child's decorator of a just-in-time type applies in the child, and not in its parent")
    func childDecoratesJustInTimeType() throws {
        let parent = try Injector(modules: [])
        let child = try parent.child { $0.decorate(Greeting.self) { greeting, _ in Greeting(text: greeting.text + "!") } }
        #expect(try child.getInstance(Greeting.self).text == "hello!")
        #expect(try child.getInstance(Greeter.self).greeting.text == "hello!")
        #expect(try parent.getInstance(Greeter.self).greeting.text == "hello")
    }

    @Test("a decorator wraps the value of the key it decorates")
    func wrapsValue() throws {
        let injector = try Injector(Bindings { binder in
            binder.bind((any Api).self).to(HttpApi.self)
            binder.decorate((any Api).self) { api, _ in LoggingApi(wrapping: api) }
        })
        #expect(try injector.getInstance((any Api).self).name == "logging(http)")
    }

    @Test("a dependency receives the decorated value")
    func dependencyDecorated() throws {
        let injector = try Injector(Bindings { binder in
            binder.bind((any Api).self).to(HttpApi.self)
            binder.decorate((any Api).self) { api, _ in LoggingApi(wrapping: api) }
        })
        #expect(try injector.getInstance(ApiUser.self).api.name == "logging(http)")
    }

    @Test("decorators apply in declaration order, the first innermost")
    func declarationOrder() throws {
        let injector = try Injector(Bindings { binder in
            binder.bind((any Api).self).to(HttpApi.self)
            binder.decorate((any Api).self) { api, _ in LoggingApi(wrapping: api, tag: "first") }
            binder.decorate((any Api).self) { api, _ in LoggingApi(wrapping: api, tag: "second") }
        })
        #expect(try injector.getInstance((any Api).self).name == "second(first(http))")
    }

    @Test("a decorator wraps an override's value")
    func wrapsOverride() throws {
        let injector = try Injector(
            modules: [Bindings { binder in
                binder.bind((any Api).self).to(HttpApi.self)
                binder.decorate((any Api).self) { api, _ in LoggingApi(wrapping: api) }
            }],
            overrides: [Bindings { $0.bind((any Api).self).to { _ in FakeApi() } }])
        #expect(try injector.getInstance((any Api).self).name == "logging(fake)")
    }

    @Test("a singleton is decorated once")
    func singletonDecoratedOnce() throws {
        let calls = Atomic<Int>(0)
        let injector = try Injector(Bindings { binder in
            binder.bind((any Api).self).to(HttpApi.self).in(.singleton)
            binder.decorate((any Api).self) { api, _ in
                calls.add(1, ordering: .relaxed)
                return LoggingApi(wrapping: api)
            }
        })
        let first = try injector.getInstance((any Api).self)
        let second = try injector.getInstance((any Api).self)
        #expect(first === second)
        #expect(calls.load(ordering: .relaxed) == 1)
    }

    @Test("an unscoped key is decorated on every request")
    func unscopedDecoratedEachTime() throws {
        let calls = Atomic<Int>(0)
        let injector = try Injector(Bindings { binder in
            binder.bind((any Api).self).to(HttpApi.self)
            binder.decorate((any Api).self) { api, _ in
                calls.add(1, ordering: .relaxed)
                return api
            }
        })
        _ = try injector.getInstance((any Api).self)
        _ = try injector.getInstance((any Api).self)
        #expect(calls.load(ordering: .relaxed) == 2)
    }

    @Test("a decorator without a resolver wraps the value too")
    func plainDecorator() throws {
        let injector = try Injector(Bindings { binder in
            binder.bind((any Api).self).to(HttpApi.self)
            binder.decorate((any Api).self) { api in LoggingApi(wrapping: api, tag: "plain") }
            binder.decorate(Key<String>(named: "greeting")) { text in text + "!" }
            binder.bind(Key<String>(named: "greeting")).to(instance: "hi")
        })
        #expect(try injector.getInstance((any Api).self).name == "plain(http)")
        #expect(try injector.getInstance(Key<String>(named: "greeting")) == "hi!")
    }

    @Test("decorators with and without a resolver apply together in declaration order")
    func mixedForms() throws {
        let injector = try Injector(Bindings { binder in
            binder.bind((any Api).self).to(HttpApi.self)
            binder.decorate((any Api).self) { api in LoggingApi(wrapping: api, tag: "first") }
            binder.decorate((any Api).self) { api, _ in LoggingApi(wrapping: api, tag: "second") }
        })
        #expect(try injector.getInstance((any Api).self).name == "second(first(http))")
    }

    @Test("a decorator resolves other keys through its resolver")
    func resolvesThroughResolver() throws {
        let injector = try Injector(Bindings { binder in
            binder.bind((any Api).self).to(HttpApi.self)
            binder.bind(Key<String>(named: "tag")).to(instance: "traced")
            binder.decorate((any Api).self) { api, resolver in
                LoggingApi(wrapping: api, tag: try resolver.getInstance(Key<String>(named: "tag")))
            }
        })
        #expect(try injector.getInstance((any Api).self).name == "traced(http)")
    }

    @Test("a decorator asking for the key it decorates is a cycle, not a crash")
    func selfRequestIsCycle() throws {
        let injector = try Injector(Bindings { binder in
            binder.bind((any Api).self).to(HttpApi.self)
            binder.decorate((any Api).self) { _, resolver in try resolver.getInstance((any Api).self) }
        })
        let error = try #require(throws: InjectionError.self) { try injector.getInstance((any Api).self) }
        #expect(error.kind == .cyclicDependency)
    }

    @Test("a decorator that throws fails the request with its error and location")
    func throwingDecorator() throws {
        struct Refused: Error {}
        let injector = try Injector(Bindings { binder in
            binder.bind((any Api).self).to(HttpApi.self)
            binder.decorate((any Api).self, fileID: "App/Logging.swift", line: 3) { _, _ in throw Refused() }
        })
        let error = try #require(throws: InjectionError.self) { try injector.getInstance((any Api).self) }
        #expect(error.kind == .initializerFailed)
        #expect(error.problems.first?.location == SourceLocation(fileID: "App/Logging.swift", line: 3))
    }

    @Test("an Injectable type with no binding can be decorated")
    func decoratesJustInTimeType() throws {
        let calls = Atomic<Int>(0)
        let injector = try Injector(Bindings { binder in
            binder.decorate(Garage.self) { garage, _ in
                calls.add(1, ordering: .relaxed)
                return garage
            }
        })
        _ = try injector.getInstance(Garage.self)
        #expect(calls.load(ordering: .relaxed) == 1)
    }

    @Test("a decorator of a key nothing binds is an unused declaration naming near misses")
    func decoratorOfUnboundKey() throws {
        let error = try #require(throws: InjectionError.self) {
            try Injector(Bindings { binder in
                binder.bind(Key<String>(named: "greeting")).to(instance: "hi")
                binder.decorate(Key<String>(named: "greting")) { text, _ in text }
            })
        }
        guard case .decoratorWithoutBinding(let key, _, let nearMisses) = error.problems.first?.detail else {
            Issue.record("expected a decorator without binding, got \(error)")
            return
        }
        #expect(key == Key<String>(named: "greting").erased)
        #expect(nearMisses == [Key<String>(named: "greeting").erased])
    }

    @Test("the graph export and explain show where a key is decorated")
    func exportShowsDecorators() throws {
        let injector = try Injector(Bindings { binder in
            binder.bind((any Api).self).to(HttpApi.self)
            binder.decorate((any Api).self, fileID: "App/Logging.swift", line: 3) { api, _ in api }
        })
        #expect(injector.exportGraph(as: .text).contains("Api — unscoped, alias, decorated at App/Logging.swift:3"))
        #expect(try injector.explain((any Api).self).hasPrefix("Api — unscoped, alias, decorated at App/Logging.swift:3"))
    }
}
