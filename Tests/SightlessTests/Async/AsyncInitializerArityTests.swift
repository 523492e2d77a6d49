import Sightless
import Testing

// The `async` initializers of none to six arguments (one overload per arity, generated) and the
// parameter-pack form that remains for seven and more, and for one argument with a slot: each
// argument reaches its place, slots are read as declared, properties are set and the instance
// awoken after the initializer returns, and failures carry their path.

private final class First: Injectable, Sendable {
    static let initializer = Initializer(First.init)
}
private final class Second: Injectable, Sendable {
    static let initializer = Initializer(Second.init)
}
private final class Third: Injectable, Sendable {
    static let initializer = Initializer(Third.init)
}
private final class Fourth: Injectable, Sendable {
    static let initializer = Initializer(Fourth.init)
}
private final class Fifth: Injectable, Sendable {
    static let initializer = Initializer(Fifth.init)
}
private final class Sixth: Injectable, Sendable {
    static let initializer = Initializer(Sixth.init)
}

/// What an initializer was handed, by the types of its arguments, in order.
private func names(_ arguments: Any...) -> [String] {
    arguments.map { "\(type(of: $0))" }
}

private final class NoArgument: Injectable, Sendable {
    let opened: Bool
    init() async {
        await Task.yield()
        opened = true
    }
    static let initializer = Initializer(NoArgument.init)
}

private final class OneArgument: Injectable, Sendable {
    let received: [String]
    init(a: First) async {
        await Task.yield()
        received = names(a)
    }
    static let initializer = Initializer(OneArgument.init(a:))
}

private final class TwoArguments: Injectable, Sendable {
    let received: [String]
    init(a: First, b: Second) async {
        await Task.yield()
        received = names(a, b)
    }
    static let initializer = Initializer(TwoArguments.init(a:b:))
}

private final class ThreeArguments: Injectable, Sendable {
    let received: [String]
    init(a: First, b: Second, c: Third) async {
        await Task.yield()
        received = names(a, b, c)
    }
    static let initializer = Initializer(ThreeArguments.init(a:b:c:))
}

private final class FourArguments: Injectable, Sendable {
    let received: [String]
    init(a: First, b: Second, c: Third, d: Fourth) async {
        await Task.yield()
        received = names(a, b, c, d)
    }
    static let initializer = Initializer(FourArguments.init(a:b:c:d:))
}

private final class FiveArguments: Injectable, Sendable {
    let received: [String]
    init(a: First, b: Second, c: Third, d: Fourth, e: Fifth) async {
        await Task.yield()
        received = names(a, b, c, d, e)
    }
    static let initializer = Initializer(FiveArguments.init(a:b:c:d:e:))
}

private final class SixArguments: Injectable, Sendable {
    let received: [String]
    init(a: First, b: Second, c: Third, d: Fourth, e: Fifth, f: Sixth) async {
        await Task.yield()
        received = names(a, b, c, d, e, f)
    }
    static let initializer = Initializer(SixArguments.init(a:b:c:d:e:f:))
}

/// Seven arguments, the last dynamic: the parameter-pack form.
private final class SevenArguments: Injectable, Sendable {
    let received: [String]
    let title: String
    init(a: First, b: Second, c: Third, d: Fourth, e: Fifth, f: Sixth, title: String) async {
        await Task.yield()
        received = names(a, b, c, d, e, f)
        self.title = title
    }
    static let initializer = Initializer(
        SevenArguments.init(a:b:c:d:e:f:title:), .inject, .inject, .inject, .inject, .inject, .inject, .dynamic)
}

/// One dynamic argument: one argument with a slot takes the parameter-pack form.
private final class OneDynamic: Injectable, Sendable {
    let title: String
    init(title: String) async {
        await Task.yield()
        self.title = title
    }
    static let initializer = Initializer(OneDynamic.init(title:), .dynamic)
}

/// A named argument, a dynamic one and an injected one, in that order.
private final class Slotted: Injectable, Sendable {
    let url: String
    let user: String
    let first: First
    init(url: String, user: String, first: First) async {
        await Task.yield()
        self.url = url
        self.user = user
        self.first = first
    }
    static let initializer = Initializer(Slotted.init(url:user:first:), .named("url"), .dynamic, .inject)
}

/// Properties set and awoken after its `async` initializer returns.
private final class Awoken: Injectable, @unchecked Sendable {
    let first: First
    var second: Second?
    private(set) var sawSecondWhenAwoken = false
    init(first: First) async {
        await Task.yield()
        self.first = first
    }
    static let initializer = Initializer(Awoken.init(first:))
    static let properties = Properties<Awoken>().inject(\.second)
    func awakeFromInjection() { sawSecondWhenAwoken = second != nil }
}

private enum Refusal: Error { case refused }

/// Its `async` initializer throws.
private final class Refusing: Injectable, Sendable {
    init(first: First, second: Second) async throws {
        await Task.yield()
        throw Refusal.refused
    }
    static let initializer = Initializer(Refusing.init(first:second:))
}

/// An argument whose build throws, two levels down.
private final class Broken: Sendable {}
private final class NeedsBroken: Injectable, Sendable {
    init(first: First, broken: Broken) async {}
    static let initializer = Initializer(NeedsBroken.init(first:broken:))
}

/// Not bitwise takable: the arguments of its initializer do not lie in place in an existential.
private struct Watcher: @unchecked Sendable {
    weak var watched: First?
}

/// Two arguments, one a struct holding a weak reference, one a string of more than fifteen bytes.
private final class Watching: Injectable, Sendable {
    let watcher: Watcher
    let note: String
    init(watcher: Watcher, note: String) async {
        await Task.yield()
        self.watcher = watcher
        self.note = note
    }
    static let initializer = Initializer(Watching.init(watcher:note:), .inject, .dynamic)
}

private protocol Greeter: Sendable {
    var greeting: String { get }
}
private final class English: Greeter, Injectable {
    let greeting = "hello"
    static let initializer = Initializer(English.init)
}
private final class Unbound: Sendable {}

/// An existential argument, an optional one left unbound and a type: as one existential of
/// arguments, too large to lie in place.
private final class Greeting: Injectable, Sendable {
    let greeter: any Greeter
    let unbound: Unbound?
    let first: First
    init(greeter: any Greeter, unbound: Unbound?, first: First) async {
        await Task.yield()
        self.greeter = greeter
        self.unbound = unbound
        self.first = first
    }
    static let initializer = Initializer(Greeting.init(greeter:unbound:first:))
}

/// One existential argument, which an existential holds as its concrete value.
private final class SingleGreeter: Injectable, Sendable {
    let greeter: any Greeter
    init(greeter: any Greeter) async {
        await Task.yield()
        self.greeter = greeter
    }
    static let initializer = Initializer(SingleGreeter.init(greeter:))
}

@Suite("Async initializers of every arity")
struct AsyncInitializerArityTests {
    @Test("an async initializer of no argument is awaited")
    func noArgument() async throws {
        let injector = try Injector()
        #expect(try await injector.instance(NoArgument.self).opened)
    }

    @Test("async initializers of one to six arguments receive each argument in its place")
    func oneToSix() async throws {
        let injector = try Injector()
        let all = ["First", "Second", "Third", "Fourth", "Fifth", "Sixth"]
        #expect(try await injector.instance(OneArgument.self).received == Array(all.prefix(1)))
        #expect(try await injector.instance(TwoArguments.self).received == Array(all.prefix(2)))
        #expect(try await injector.instance(ThreeArguments.self).received == Array(all.prefix(3)))
        #expect(try await injector.instance(FourArguments.self).received == Array(all.prefix(4)))
        #expect(try await injector.instance(FiveArguments.self).received == Array(all.prefix(5)))
        #expect(try await injector.instance(SixArguments.self).received == all)
    }

    @Test("an async initializer of seven arguments, the last dynamic, takes the parameter-pack form")
    func sevenArguments() async throws {
        let injector = try Injector()
        let seven = try await injector.instance(SevenArguments.self, arguments: "Inbox")
        #expect(seven.received == ["First", "Second", "Third", "Fourth", "Fifth", "Sixth"])
        #expect(seven.title == "Inbox")
    }

    @Test("an async initializer of one dynamic argument reads it")
    func oneDynamicArgument() async throws {
        let injector = try Injector()
        #expect(try await injector.instance(OneDynamic.self, arguments: "Drafts").title == "Drafts")
    }

    @Test("an async initializer's slots read a named key, a dynamic argument and an injected type in order")
    func slotsInOrder() async throws {
        let injector = try Injector(Bindings { $0.bind(Key<String>(named: "url")).to(instance: "postgres://db") })
        let slotted = try await injector.instance(Slotted.self, arguments: "ada")
        #expect(slotted.url == "postgres://db")
        #expect(slotted.user == "ada")
    }

    @Test("a synchronous request of a type with a fixed-arity async initializer is told to await")
    func synchronousRequestNeedsAwait() throws {
        let injector = try Injector()
        let error = #expect(throws: InjectionError.self) { _ = try injector.getInstance(TwoArguments.self) }
        #expect(error?.kind == .needsAwait)
    }

    @Test("properties are set before awakeFromInjection, after a fixed-arity async initializer returns")
    func propertiesThenAwake() async throws {
        let injector = try Injector()
        let awoken = try await injector.instance(Awoken.self)
        #expect(awoken.second != nil)
        #expect(awoken.sawSecondWhenAwoken)
    }

    @Test("a fixed-arity async initializer that throws fails with initializerFailed on the type's path")
    func initializerThrows() async throws {
        let injector = try Injector()
        let error = await #expect(throws: InjectionError.self) { _ = try await injector.instance(Refusing.self) }
        #expect(error?.kind == .initializerFailed)
        #expect(error?.path.first == Key<Refusing>().erased)
    }

    @Test("an argument of a fixed-arity async initializer whose build throws fails with the argument on the path")
    func argumentThrows() async throws {
        let injector = try Injector(Bindings { $0.bind(Broken.self).to { _ in throw Refusal.refused } })
        let error = await #expect(throws: InjectionError.self) { _ = try await injector.instance(NeedsBroken.self) }
        #expect(error?.path == [Key<NeedsBroken>().erased, Key<Broken>().erased])
    }

    @Test("a fixed-arity async initializer receives arguments that cannot lie in place: a weak reference's struct, a long string")
    func argumentsNotInPlace() async throws {
        let first = First()
        let injector = try Injector(Bindings { $0.bind(Watcher.self).to(instance: Watcher(watched: first)) })
        let note = "a note longer than fifteen bytes"
        let watching = try await injector.instance(Watching.self, arguments: note)
        #expect(watching.watcher.watched === first)
        #expect(watching.note == note)
    }

    @Test("a fixed-arity async initializer receives an existential argument, alone and with an unbound optional")
    func existentialAndOptionalArguments() async throws {
        let injector = try Injector(Bindings { $0.bind((any Greeter).self).to(English.self) })
        #expect(try await injector.instance(SingleGreeter.self).greeter.greeting == "hello")
        let greeting = try await injector.instance(Greeting.self)
        #expect(greeting.greeter.greeting == "hello")
        #expect(greeting.unbound == nil)
    }
}
