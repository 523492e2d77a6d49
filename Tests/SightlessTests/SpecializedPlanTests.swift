@testable import Sightless
import Synchronization
import Testing

// The fixed-arity initializers of `Injectable` types (one specialized plan that builds, sets
// the properties and awakes) and the inlined entry of requests with creation-time arguments
// (`getInstance(_:arguments:)`, `Factory.make(_:)`), against the general forms they replace.

private final class Log: Sendable {
    private let lines = Locked<[String]>([])
    func add(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

private final class Part: Injectable {
    static let initializer = Initializer(Part.init)
}

/// Six arguments: the largest fixed arity.
private final class Six: Injectable {
    let parts: [Part]
    var log: Log?
    init(a: Part, b: Part, c: Part, d: Part, e: Part, f: Part) { parts = [a, b, c, d, e, f] }
    static let initializer = Initializer(Six.init(a:b:c:d:e:f:))
    static let properties = Properties<Six>().inject(\.log)
    func awakeFromInjection() { log?.add("six awake with \(parts.count) parts") }
}

/// Seven arguments: the parameter-pack form.
private final class Seven: Injectable {
    var log: Log?
    let title: String
    init(a: Part, b: Part, c: Part, d: Part, e: Part, f: Part, title: String) { self.title = title }
    static let initializer = Initializer(Seven.init(a:b:c:d:e:f:title:), .inject, .inject, .inject, .inject, .inject, .inject, .dynamic)
    static let properties = Properties<Seven>().inject(\.log)
    func awakeFromInjection() { log?.add("seven awake as \(title)") }
}

/// Awakes without properties.
private final class Bell: Injectable {
    let log: Log
    init(log: Log) { self.log = log }
    static let initializer = Initializer(Bell.init(log:))
    func awakeFromInjection() { log.add("bell awake") }
}

private final class Titled: Injectable {
    let part: Part
    let title: String
    let subtitle: String?
    init(part: Part, title: String, subtitle: String?) {
        self.part = part; self.title = title; self.subtitle = subtitle
    }
    static let initializer = Initializer(Titled.init(part:title:subtitle:), .inject, .dynamic, .dynamic)
}

private final class Opener: Injectable {
    let opened: Titled
    init(titles: Factory<Titled, String, String?>) throws { opened = try titles.make("during", nil) }
    static let initializer = Initializer(Opener.init(titles:))
}

/// Counts the instances alive, to show that a request destroys each argument it placed once.
private final class Token: Sendable {
    static let alive = Atomic<Int>(0)
    let name: String
    init(_ name: String) {
        self.name = name
        Token.alive.add(1, ordering: .relaxed)
    }
    deinit { Token.alive.subtract(1, ordering: .relaxed) }
}

/// One to four dynamic slots of other types than `String`.
private final class One: Injectable {
    let token: Token
    init(part: Part, token: Token) { self.token = token }
    static let initializer = Initializer(One.init(part:token:), .inject, .dynamic)
}

private final class Three: Injectable {
    let values: (Token, Int, [String])
    init(a: Token, b: Int, c: [String]) { values = (a, b, c) }
    static let initializer = Initializer(Three.init(a:b:c:), .dynamic, .dynamic, .dynamic)
}

private final class Four: Injectable {
    let values: (Token, Int, Token, Double)
    init(a: Token, b: Int, c: Token, d: Double) { values = (a, b, c, d) }
    static let initializer = Initializer(Four.init(a:b:c:d:), .dynamic, .dynamic, .dynamic, .dynamic)
}

private func module(_ log: Log) -> Bindings { Bindings { $0.bind(Log.self).to(instance: log) } }

// Serialized: three tests count the live tokens of one global counter.
@Suite("Specialized plans", .serialized)
struct SpecializedPlanTests {
    @Test("one-line initializers of Injectable types with up to six arguments take the fixed-arity form")
    func fixedArityChosen() {
        #expect(Part.initializer.linkInjected != nil)
        #expect(Six.initializer.linkInjected != nil)
        #expect(Bell.initializer.linkInjected != nil)
        #expect(Titled.initializer.linkInjected != nil)
        #expect(Seven.initializer.linkInjected == nil)
        // One argument with a slot takes the parameter-pack form (see Initializer+Arities.swift).
        #expect(Address.initializer.linkInjected == nil)
        #expect(Address.initializer.dependencies.map(\.key) == [AnyKey(Key<String>(named: "street"))])
        #expect(Six.initializer.dependencies.map(\.description).count == 6)
        #expect(Titled.initializer.dependencies.map(\.isDynamic) == [false, true, true])
    }

    @Test("a fixed-arity plan sets the properties, then awakes, once per instance")
    func fixedArityPropertiesThenAwake() throws {
        let log = Log()
        let injector = try Injector(modules: [module(log)])
        let six = try injector.getInstance(Six.self)
        #expect(six.log === log)
        #expect(log.all == ["six awake with 6 parts"])
        _ = try injector.getInstance(Six.self)
        #expect(log.all.count == 2)
    }

    @Test("a fixed-arity plan without properties still awakes")
    func fixedArityAwakesWithoutProperties() throws {
        let log = Log()
        let injector = try Injector(modules: [module(log)])
        _ = try injector.getInstance(Bell.self)
        #expect(log.all == ["bell awake"])
    }

    @Test("the parameter-pack form of seven arguments sets the properties, then awakes")
    func packFormStillAwakes() throws {
        let log = Log()
        let injector = try Injector(modules: [module(log)])
        let seven = try injector.getInstance(Seven.self, arguments: "seventh")
        #expect(seven.log === log)
        #expect(log.all == ["seven awake as seventh"])
    }

    @Test("a binding to a fixed-arity initializer runs the initializer alone, without properties or awake")
    func bindingToInitializerDoesNotAwake() throws {
        let log = Log()
        let injector = try Injector(modules: [module(log), Bindings { $0.bind(Bell.self).to(Bell.initializer) }])
        _ = try injector.getInstance(Bell.self)
        #expect(log.all.isEmpty)
    }

    @Test("arguments of exactly the slots' types, and of convertible types, both fill the slots")
    func exactAndConvertedArguments() throws {
        let injector = try Injector(modules: [])
        let exact = try injector.getInstance(Titled.self, arguments: "a", String?.some("b"))
        #expect(exact.title == "a" && exact.subtitle == "b")
        let converted = try injector.getInstance(Titled.self, arguments: "c", "d")   // String for String?
        #expect(converted.title == "c" && converted.subtitle == "d")
        let named = try injector.getInstance(Key<Titled>(), arguments: "e", String?.none)
        #expect(named.title == "e" && named.subtitle == nil)
    }

    @Test("arguments of the wrong type or number are errors on the inlined entry, first request or later")
    func wrongArgumentsOnInlinedEntry() throws {
        let injector = try Injector(modules: [])
        for _ in 0..<2 {
            #expect(throws: InjectionError.self) { try injector.getInstance(Titled.self, arguments: 1, "b") }
            #expect(throws: InjectionError.self) { try injector.getInstance(Titled.self, arguments: "a") }
            #expect(throws: InjectionError.self) { try injector.getInstance(Titled.self, arguments: "a", "b", "c") }
            let error = try #require(throws: InjectionError.self) { try injector.getInstance(Titled.self, arguments: "a", 2) }
            #expect(error.kind == .argumentType)
        }
        #expect(try injector.getInstance(Titled.self, arguments: "a", "b").title == "a")
    }

    @Test("a factory resolved once makes instances with exact and converted arguments, also once every other reference to its injector is gone")
    func factoryResolvedOnce() throws {
        var injector: Injector? = try Injector(modules: [])
        let titles = try #require(try injector?.getInstance(Factory<Titled, String, String?>.self))
        #expect(try titles.make("x", "y").subtitle == "y")
        #expect(try titles.make("x", nil).subtitle == nil)
        #expect(try titles.make("x", "y").part !== titles.make("x", "y").part)
        injector = nil
        #expect(try titles.make("x", nil).subtitle == nil)
    }

    @Test("a factory used while its consumer is built continues the enclosing request")
    func factoryInsideRequest() throws {
        let injector = try Injector(modules: [])
        let opener = try injector.getInstance(Opener.self)
        #expect(opener.opened.title == "during")
    }

    @Test("a shut-down injector refuses requests with arguments on the inlined entry")
    func shutDownOnInlinedEntry() throws {
        let injector = try Injector(modules: [])
        _ = try injector.getInstance(Titled.self, arguments: "a", "b")
        try injector.shutDown()
        let error = try #require(throws: InjectionError.self) { try injector.getInstance(Titled.self, arguments: "a", "b") }
        #expect(error.kind == .injectorShutDown)
    }

    @Test("threads making instances through one factory, getInstance with arguments and new injectors at once all succeed")
    func concurrentInlinedEntries() throws {
        let injector = try Injector(modules: [])
        let titles = try injector.getInstance(Factory<Titled, String, String?>.self)
        let failures = Atomic<Int>(0)
        race(threads: 4) { thread in
            do {
                for index in 0..<200 {
                    let made = try titles.make("t\(thread)", "\(index)")
                    let asked = try injector.getInstance(Titled.self, arguments: "a\(thread)", "b")
                    if made.title != "t\(thread)" || made.subtitle != "\(index)" || asked.title != "a\(thread)" {
                        failures.add(1, ordering: .relaxed)
                    }
                }
                // Each injector records dependencies of the same types: their traits are
                // looked up once and shared.
                let other = try Injector(modules: [module(Log())])
                _ = try other.getInstance(Six.self)
            } catch {
                failures.add(1, ordering: .relaxed)
            }
        }
        #expect(failures.load(ordering: .relaxed) == 0)
    }

    @Test("requests with one, two and three arguments fill the slots by type and by key, and destroy each argument once")
    func fixedArityRequests() throws {
        let injector = try Injector(modules: [])
        let before = Token.alive.load(ordering: .relaxed)
        do {
            let one = try injector.getInstance(One.self, arguments: Token("one"))
            #expect(one.token.name == "one")
            let two = try injector.getInstance(Key<Titled>(), arguments: "a", String?.some("b"))
            #expect(two.title == "a" && two.subtitle == "b")
            let three = try injector.getInstance(Three.self, arguments: Token("three"), 3, ["x", "y"])
            #expect(three.values.0.name == "three" && three.values.1 == 3 && three.values.2 == ["x", "y"])
            let keyed = try injector.getInstance(Key<Three>(), arguments: Token("keyed"), 4, [])
            #expect(keyed.values.1 == 4)
        }
        // Each token is held by its instance alone, gone with it: placed once, destroyed once.
        #expect(Token.alive.load(ordering: .relaxed) == before)
    }

    @Test("a request with four arguments takes the parameter-pack form and destroys each argument once")
    func packRequest() throws {
        let injector = try Injector(modules: [])
        let before = Token.alive.load(ordering: .relaxed)
        do {
            let four = try injector.getInstance(Four.self, arguments: Token("a"), 2, Token("c"), 4.5)
            #expect(four.values.0.name == "a" && four.values.1 == 2 && four.values.2.name == "c" && four.values.3 == 4.5)
            let keyed = try injector.getInstance(Key<Four>(), arguments: Token("k"), 1, Token("l"), 0.0)
            #expect(keyed.values.2.name == "l")
        }
        #expect(Token.alive.load(ordering: .relaxed) == before)
    }

    @Test("a fixed-arity request with an argument of another type names the slot, and releases what it was given")
    func fixedArityWrongType() throws {
        let injector = try Injector(modules: [])
        let before = Token.alive.load(ordering: .relaxed)
        for _ in 0..<2 {
            let error = try #require(throws: InjectionError.self) {
                try injector.getInstance(Three.self, arguments: Token("t"), "3", ["x"])
            }
            #expect(error.kind == .argumentType)
            #expect(throws: InjectionError.self) { try injector.getInstance(One.self, arguments: 1) }
            #expect(throws: InjectionError.self) { try injector.getInstance(Key<One>(), arguments: Token("t"), 2) }
        }
        #expect(Token.alive.load(ordering: .relaxed) == before)
    }
}
