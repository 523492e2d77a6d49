import Sightless
import Testing

private final class Feed: Injectable {
    static let initializer = Initializer(Feed.init)
}

private final class Screen: Injectable {
    let feed: Feed
    let title: String
    let api: any Api
    let count: Int
    init(feed: Feed, title: String, api: any Api, count: Int) {
        self.feed = feed; self.title = title; self.api = api; self.count = count
    }
    static let initializer = Initializer(Screen.init(feed:title:api:count:), .inject, .dynamic, .inject, .dynamic)
}

private final class Banner: Injectable {
    let subtitle: String?
    init(subtitle: String?) { self.subtitle = subtitle }
    static let initializer = Initializer(Banner.init(subtitle:), .dynamic)
}

private final class Router: Injectable {
    init(screen: Screen) {}
    static let initializer = Initializer(Router.init(screen:))
}

private var module: Bindings { Bindings { $0.bind((any Api).self).to(HttpApi.self) } }

@Suite("Dynamic arguments")
struct DynamicArgumentTests {
    @Test("the right arguments fill the dynamic slots in order among injected ones")
    func argumentsFillSlotsInOrder() throws {
        let injector = try Injector(module)
        let screen = try injector.getInstance(Screen.self, arguments: "Inbox", 3)
        #expect(screen.title == "Inbox")
        #expect(screen.count == 3)
        #expect(screen.api is HttpApi)
    }

    @Test("too many arguments is an error naming the slots")
    func tooManyArguments() throws {
        let injector = try Injector(module)
        let error = #expect(throws: InjectionError.self) {
            _ = try injector.getInstance(Screen.self, arguments: "Inbox", 3, 4)
        }
        guard case .argumentCount(_, let slots, let passed)? = error?.problems.first?.detail else {
            Issue.record("expected argumentCount, got \(String(describing: error))")
            return
        }
        #expect(slots.map(\.description) == ["argument 2: String", "argument 4: Int"])
        #expect(passed == [Key<String>().erased, Key<Int>().erased, Key<Int>().erased])
    }

    @Test("too few arguments is an error naming the slots")
    func tooFewArguments() throws {
        let injector = try Injector(module)
        let error = #expect(throws: InjectionError.self) { _ = try injector.getInstance(Screen.self, arguments: "Inbox") }
        #expect(error?.kind == .argumentCount)
        let none = #expect(throws: InjectionError.self) { _ = try injector.getInstance(Screen.self) }
        guard case .argumentCount(_, let slots, let passed)? = none?.problems.first?.detail else {
            Issue.record("expected argumentCount, got \(String(describing: none))")
            return
        }
        #expect(slots.count == 2)
        #expect(passed.isEmpty)
    }

    @Test("an argument of the wrong type is an error naming its slot")
    func wrongArgumentType() throws {
        let injector = try Injector(module)
        let error = #expect(throws: InjectionError.self) { _ = try injector.getInstance(Screen.self, arguments: "Inbox", "three") }
        guard case .argumentType(_, let position, let slot, let passed, _)? = error?.problems.first?.detail else {
            Issue.record("expected argumentType, got \(String(describing: error))")
            return
        }
        #expect(position == 2)
        #expect(slot.description == "argument 4: Int")
        #expect(passed == Key<String>().erased)
        #expect(error?.path.map(\.description) == ["Screen"])
    }

    @Test("arguments for a type without dynamic slots are an error")
    func argumentsForPlainType() throws {
        let injector = try Injector(module)
        let error = #expect(throws: InjectionError.self) { _ = try injector.getInstance(Feed.self, arguments: 1) }
        #expect(error?.kind == .argumentCount)
    }

    @Test("a nil argument fills an optional slot")
    func nilForOptionalSlot() throws {
        let injector = try Injector(modules: [])
        #expect(try injector.getInstance(Banner.self, arguments: String?.none).subtitle == nil)
        #expect(try injector.getInstance(Banner.self, arguments: "sub").subtitle == "sub")
    }

    @Test("a type with dynamic slots injected as a dependency is rejected when the injector is built")
    func dynamicTypeAsDependencyRejected() throws {
        let error = #expect(throws: InjectionError.self) { _ = try Injector(Bindings { $0.bind((any Api).self).to(HttpApi.self); $0.bind(Router.self) }) }
        #expect(error?.kind == .dynamicDependency)
        #expect(error?.path.map(\.description) == ["Router", "Screen"])
        guard case .creationTimeArgumentsInjected(let target, let consumer, _)? = error?.problems.first?.detail else {
            Issue.record("expected creationTimeArgumentsInjected, got \(String(describing: error))")
            return
        }
        #expect(target.description == "Screen")
        #expect(consumer.key.description == "Router")
    }

    @Test("a singleton with dynamic slots is rejected when the injector is built")
    func singletonWithDynamicSlotsRejected() throws {
        let error = #expect(throws: InjectionError.self) { _ = try Injector(Bindings { $0.bind(Banner.self).in(.singleton) }) }
        #expect(error?.kind == .scopeConflict)
    }

    @Test("a request through an alias brings the target's arguments along")
    func argumentsThroughAlias() throws {
        let injector = try Injector(Bindings { $0.bind(Key<Banner>(named: "top")).to(Banner.self) })
        #expect(try injector.getInstance(Key<Banner>(named: "top"), arguments: "hi").subtitle == "hi")
    }

    @Test("a closure binding passes arguments on through its resolver")
    func argumentsThroughResolver() throws {
        let injector = try Injector(Bindings {
            $0.bind(Key<String>(named: "headline")).to { resolver in
                try resolver.getInstance(Banner.self, arguments: "from closure").subtitle ?? ""
            }
        })
        #expect(try injector.getInstance(Key<String>(named: "headline")) == "from closure")
    }
}
