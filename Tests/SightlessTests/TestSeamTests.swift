import Foundation
import Sightless
import Testing

// `Lazy` and `Factory` made in code, with no injector: what a unit test hands a type in place
// of what it would be injected.

private protocol AccountService: Sendable {
    var name: String { get }
}

private final class FakeAccounts: AccountService {
    let name: String
    init(name: String = "fake") { self.name = name }
}

private final class Profile: Sendable {
    let accounts: Lazy<any AccountService>
    init(accounts: Lazy<any AccountService>) { self.accounts = accounts }
    func title() throws -> String { try accounts.get().name }
}

private final class Greeting: Sendable {
    let text: String
    init(text: String) { self.text = text }
}

private final class Greeter: Sendable {
    let greetings: Factory<Greeting, String>
    init(greetings: Factory<Greeting, String>) { self.greetings = greetings }
    func greet(_ name: String) throws -> String { try greetings.make(name).text }
}

private struct Refused: Error {}

/// Counts calls from any thread.
private final class Calls: Sendable {
    private let count = Locked(0)
    func record() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

@Suite("Lazy and Factory made in code")
struct TestSeamTests {
    @Test("a Lazy made from a closure hands a type its fake, with no injector")
    func lazyHandsOutTheFake() throws {
        let profile = Profile(accounts: Lazy { FakeAccounts(name: "ada") })
        #expect(try profile.title() == "ada")
    }

    @Test("a Lazy made from a closure runs it once and returns the same value on every call")
    func lazyMakesOnce() throws {
        let calls = Calls()
        let lazy = Lazy<FakeAccounts> {
            calls.record()
            return FakeAccounts()
        }
        let first = try lazy.get()
        #expect(try lazy.get() === first)
        #expect(calls.value == 1)
    }

    @Test("threads asking a Lazy made from a closure at once all receive one value")
    func lazyOneValueAcrossThreads() throws {
        let lazy = Lazy<FakeAccounts> { FakeAccounts() }
        let values = Locked<[ObjectIdentifier]>([])
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            let value = try? lazy.get()
            values.withLock { $0.append(ObjectIdentifier(value!)) }
        }
        #expect(Set(values.withLock { $0 }).count == 1)
    }

    @Test("a Lazy made from a closure is awaited like an injected one")
    func lazyAwaited() async throws {
        let lazy = Lazy<FakeAccounts> { FakeAccounts(name: "grace") }
        #expect(try await lazy.value.name == "grace")
        #expect(try await lazy.value === lazy.get())
    }

    @Test("an error the closure of a Lazy throws is an initializerFailed error, and the next call tries again")
    func lazyError() throws {
        let calls = Calls()
        let lazy = Lazy<FakeAccounts> {
            calls.record()
            if calls.value == 1 { throw Refused() }
            return FakeAccounts()
        }
        #expect {
            try lazy.get()
        } throws: { error in
            (error as? InjectionError)?.kind == .initializerFailed
        }
        #expect(try lazy.get().name == "fake")
    }

    @Test("a Factory made from a closure makes a new value from each call's arguments")
    func factoryMakes() throws {
        let greeter = Greeter(greetings: Factory { name in Greeting(text: "hello, \(name)") })
        #expect(try greeter.greet("ada") == "hello, ada")
        let factory = Factory<Greeting, String> { Greeting(text: $0) }
        #expect(try factory.make("a") !== factory.make("a"))
    }

    @Test("a Factory made from a closure is awaited like an injected one")
    func factoryAwaited() async throws {
        let factory = Factory<Greeting, String, Int> { text, count in Greeting(text: String(repeating: text, count: count)) }
        #expect(try await factory.instance("ab", 2).text == "abab")
    }

    @Test("a Factory without arguments made from a closure makes a value per call")
    func factoryWithoutArguments() throws {
        let calls = Calls()
        let factory = Factory<Greeting> {
            calls.record()
            return Greeting(text: "\(calls.value)")
        }
        #expect(try factory.make().text == "1")
        #expect(try factory.make().text == "2")
    }

    @Test("an error the closure of a Factory throws is an initializerFailed error naming the value's type")
    func factoryError() throws {
        let factory = Factory<Greeting, String> { _ in throw Refused() }
        #expect {
            try factory.make("x")
        } throws: { error in
            guard let error = error as? InjectionError else { return false }
            return error.kind == .initializerFailed && error.path.map(\.typeName) == ["Greeting"]
        }
    }

    @Test("an injected Lazy and Factory work as before beside ones made in code")
    func injectedUnchanged() throws {
        final class Consumer: Injectable {
            let greetings: Factory<Greeting>
            let lazy: Lazy<Greeting>
            init(greetings: Factory<Greeting>, lazy: Lazy<Greeting>) {
                self.greetings = greetings
                self.lazy = lazy
            }
            static let initializer = Initializer(Consumer.init(greetings:lazy:))
        }
        struct Greetings: Module {
            func configure(_ binder: Binder) {
                binder.bind(Greeting.self).to { _ in Greeting(text: "bound") }
            }
        }
        let consumer = try Injector(modules: [Greetings()]).getInstance(Consumer.self)
        #expect(try consumer.lazy.get().text == "bound")
        #expect(try consumer.greetings.make().text == "bound")
        let fake = Factory<Greeting> { Greeting(text: "fake") }
        #expect(try fake.make().text == "fake")
    }
}
