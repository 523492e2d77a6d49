import Sightless
import Synchronization
import Testing

// Awaited requests with one, two and three dynamic arguments (one overload per arity,
// generated): the arguments reach their slots, each is destroyed once, a type that needs no
// `await` is built as a synchronous request builds it, and every misuse is reported as by the
// variadic form.

/// Counts the instances alive, to show that a request destroys each argument it placed once.
private final class Ticket: Sendable {
    static let alive = Atomic<Int>(0)
    let number: Int
    init(_ number: Int) {
        self.number = number
        Ticket.alive.add(1, ordering: .relaxed)
    }
    deinit { Ticket.alive.subtract(1, ordering: .relaxed) }
}

private final class Pool: Injectable, Sendable {
    init() async { await Task.yield() }
    static let initializer = Initializer(Pool.init)
}

private final class OneSlot: Injectable, Sendable {
    let user: String
    init(pool: Pool, user: String) { self.user = user }
    static let initializer = Initializer(OneSlot.init(pool:user:), .inject, .dynamic)
}

private final class TwoSlots: Injectable, Sendable {
    let user: String
    let ticket: Ticket
    init(pool: Pool, user: String, ticket: Ticket) {
        self.user = user
        self.ticket = ticket
    }
    static let initializer = Initializer(TwoSlots.init(pool:user:ticket:), .inject, .dynamic, .dynamic)
}

private final class ThreeSlots: Injectable, Sendable {
    let user: String
    let count: Int
    let flag: Bool
    init(pool: Pool, user: String, count: Int, flag: Bool) async {
        await Task.yield()
        self.user = user
        self.count = count
        self.flag = flag
    }
    static let initializer = Initializer(ThreeSlots.init(pool:user:count:flag:), .inject, .dynamic, .dynamic, .dynamic)
}

/// Needs no `await`: an awaited request builds it synchronously.
private final class Plain: Injectable, Sendable {
    let user: String
    init(user: String) { self.user = user }
    static let initializer = Initializer(Plain.init(user:), .dynamic)
}

// Serialized: two of its tests count the `Ticket`s alive.
@Suite("Awaited requests with one to three arguments", .serialized)
struct AwaitedArgumentArityTests {
    @Test("an awaited request with one argument hands it to its slot")
    func oneArgument() async throws {
        let injector = try Injector()
        #expect(try await injector.instance(OneSlot.self, arguments: "ada").user == "ada")
    }

    @Test("an awaited request with two arguments hands each to its slot and destroys each once")
    func twoArguments() async throws {
        let injector = try Injector()
        let before = Ticket.alive.load(ordering: .relaxed)
        do {
            let built = try await injector.instance(TwoSlots.self, arguments: "ada", Ticket(7))
            #expect(built.user == "ada")
            #expect(built.ticket.number == 7)
        }
        #expect(Ticket.alive.load(ordering: .relaxed) == before)
    }

    @Test("an awaited request with three arguments hands each to its slot, across the initializer's suspension")
    func threeArguments() async throws {
        let injector = try Injector()
        let built = try await injector.instance(ThreeSlots.self, arguments: "ada", 3, true)
        #expect(built.user == "ada")
        #expect(built.count == 3)
        #expect(built.flag)
    }

    @Test("an awaited request of a named key with arguments builds that key's binding")
    func namedKey() async throws {
        let admin = Key<OneSlot>(named: "admin")
        let injector = try Injector(Bindings { $0.bind(admin).to(OneSlot.self) })
        #expect(try await injector.instance(admin, arguments: "root").user == "root")
    }

    @Test("an awaited request with an argument of a type that needs no await builds it synchronously")
    func synchronousType() async throws {
        let injector = try Injector()
        #expect(try await injector.instance(Plain.self, arguments: "ada").user == "ada")
    }

    @Test("an awaited request with an argument of the wrong type fails with argumentType")
    func wrongType() async throws {
        let injector = try Injector()
        let error = await #expect(throws: InjectionError.self) { _ = try await injector.instance(OneSlot.self, arguments: 42) }
        #expect(error?.kind == .argumentType)
    }

    @Test("an awaited request with too few or too many arguments fails with argumentCount")
    func wrongCount() async throws {
        let injector = try Injector()
        let few = await #expect(throws: InjectionError.self) { _ = try await injector.instance(TwoSlots.self, arguments: "ada") }
        #expect(few?.kind == .argumentCount)
        let many = await #expect(throws: InjectionError.self) {
            _ = try await injector.instance(OneSlot.self, arguments: "ada", Ticket(1))
        }
        #expect(many?.kind == .argumentCount)
    }

    @Test("an awaited request with arguments of a shut-down injector fails with injectorShutDown")
    func shutDown() async throws {
        let injector = try Injector()
        try injector.shutDown()
        let error = await #expect(throws: InjectionError.self) { _ = try await injector.instance(OneSlot.self, arguments: "ada") }
        #expect(error?.kind == .injectorShutDown)
    }

    @Test("an awaited request with arguments whose initializer throws destroys the arguments once")
    func failingBuildDestroysArguments() async throws {
        let injector = try Injector(Bindings { binder in
            binder.bind(Pool.self).to { _ async throws -> Pool in throw CancellationError() }
        })
        let before = Ticket.alive.load(ordering: .relaxed)
        await #expect(throws: InjectionError.self) { _ = try await injector.instance(TwoSlots.self, arguments: "ada", Ticket(1)) }
        #expect(Ticket.alive.load(ordering: .relaxed) == before)
    }
}
