import Sightless
import Testing

// One tuple forwarded through a generic `repeat each` helper, for a type with as many dynamic
// slots as the tuple has elements, was refused with `argumentCount` until the type had been
// requested once with the separate arguments; from then on the tuple built it, because the
// fast path compared the slots with the arguments' tuple type once and then that type's
// identity alone, and one tuple argument has the identity of the tuple of its elements.

private final class Quad: Injectable {
    let values: (Int, String, Int, String)
    init(a: Int, b: String, c: Int, d: String) { values = (a, b, c, d) }
    static let initializer = Initializer(Quad.init(a:b:c:d:), .dynamic, .dynamic, .dynamic, .dynamic)
}

private let tuple = (1, "a", 2, "b")

/// Forwards a pack of arguments as a generic helper would, whatever their number.
private func requested<each Argument>(_ injector: Injector, _ arguments: repeat each Argument) throws -> Quad {
    try injector.getInstance(Quad.self, arguments: repeat each arguments)
}

private func awaited<each Argument>(_ injector: Injector, _ arguments: repeat each Argument) async throws -> Quad {
    try await injector.instance(Quad.self, arguments: repeat each arguments)
}

private func made<each Argument>(_ factory: Factory<Quad, repeat each Argument>, _ arguments: repeat each Argument) throws -> Quad {
    try factory.make(repeat each arguments)
}

private func madeOnce(_ factory: Factory<Quad, Int, String, Int, String>) throws -> Quad {
    try factory.make(3, "c", 4, "d")
}

/// A type with one dynamic slot, of a tuple type.
private final class Pair: Injectable {
    let value: (Int, String)
    init(value: (Int, String)) { self.value = value }
    static let initializer = Initializer(Pair.init(value:), .dynamic)
}

private func pairRequested<each Argument>(_ injector: Injector, _ arguments: repeat each Argument) throws -> Pair {
    try injector.getInstance(Pair.self, arguments: repeat each arguments)
}

private func pairAwaited<each Argument>(_ injector: Injector, _ arguments: repeat each Argument) async throws -> Pair {
    try await injector.instance(Pair.self, arguments: repeat each arguments)
}

/// The kind of error `body` threw, or `nil` when it returned.
private func thrownKind<Value>(_ body: () throws -> Value) -> InjectionError.Kind? {
    do {
        _ = try body()
        return nil
    } catch let error as InjectionError {
        return error.kind
    } catch {
        Issue.record("not an InjectionError: \(error)")
        return nil
    }
}

private func thrownKind<Value>(_ body: () async throws -> Value) async -> InjectionError.Kind? {
    do {
        _ = try await body()
        return nil
    } catch let error as InjectionError {
        return error.kind
    } catch {
        Issue.record("not an InjectionError: \(error)")
        return nil
    }
}

@Suite("A tuple is one creation-time argument")
struct TupleArgumentTests {
    @Test("a tuple for four dynamic slots is argumentCount through getInstance, before and after four arguments built the type")
    func tupleThroughGetInstance() throws {
        let injector = try Injector(modules: [])
        #expect(thrownKind { try requested(injector, tuple) } == .argumentCount)
        #expect(try requested(injector, 1, "a", 2, "b").values.3 == "b")
        #expect(thrownKind { try requested(injector, tuple) } == .argumentCount)
    }

    @Test("a tuple for four dynamic slots is argumentCount through an awaited instance, before and after four arguments built the type")
    func tupleThroughInstance() async throws {
        let injector = try Injector(modules: [])
        #expect(await thrownKind { try await awaited(injector, tuple) } == .argumentCount)
        #expect(try await awaited(injector, 1, "a", 2, "b").values.3 == "b")
        #expect(try requested(injector, 1, "a", 2, "b").values.3 == "b")
        #expect(await thrownKind { try await awaited(injector, tuple) } == .argumentCount)
    }

    @Test("a Factory that takes one tuple for four dynamic slots is factoryArguments, before and after four arguments built the type")
    func tupleFactoryIsRefused() throws {
        let injector = try Injector(modules: [])
        #expect(throws: InjectionError.self) { try injector.getInstance(Factory<Quad, (Int, String, Int, String)>.self) }
        let separate = try injector.getInstance(Factory<Quad, Int, String, Int, String>.self)
        #expect(try made(separate, 1, "a", 2, "b").values.3 == "b")
        #expect(try madeOnce(separate).values.0 == 3)
        do {
            _ = try injector.getInstance(Factory<Quad, (Int, String, Int, String)>.self)
            Issue.record("a Factory of one tuple was made")
        } catch {
            #expect(error.kind == .factoryArguments)
        }
    }

    @Test("two arguments for one dynamic slot of a tuple type are argumentCount, before and after the tuple built the type")
    func separateArgumentsForTupleSlot() async throws {
        let injector = try Injector(modules: [])
        let pair = { (arguments: Pair) in arguments.value.1 }
        #expect(thrownKind { try pairRequested(injector, 1, "a") } == .argumentCount)
        #expect(pair(try pairRequested(injector, (1, "a"))) == "a")
        #expect(pair(try await pairAwaited(injector, (1, "a"))) == "a")
        #expect(thrownKind { try pairRequested(injector, 1, "a") } == .argumentCount)
        #expect(await thrownKind { try await pairAwaited(injector, 1, "a") } == .argumentCount)
    }
}
