@testable import Sightless
import Testing

// The values an awaited section reads: each taken once, in order, as the type its node built,
// cast from the existential that holds it (a class instance, a subclass, an existential's
// concrete value, a boxed or non-takable struct alike).

private class Base: @unchecked Sendable {}
private final class Derived: Base, @unchecked Sendable {}

private protocol Shape: Sendable {}
private final class Square: Shape {}

/// Three words: held in the existential's own buffer.
private struct Small: Equatable, Sendable {
    let name: String
    let count: Int
}

/// Four words: boxed by the existential.
private struct Large: Equatable, Sendable {
    let a: Int, b: Int, c: Int, d: Int
}

/// Not bitwise takable: boxed by the existential.
private struct Watching: @unchecked Sendable {
    weak var target: Base?
}

/// Counts its releases.
private final class ReleaseCounted: Sendable {
    let released: Locked<Int>
    init(_ released: Locked<Int>) { self.released = released }
    deinit { released.withLock { $0 += 1 } }
}

/// The next value `prefetched` holds for `key`, as a section's plan takes it.
private func typed<Value>(_ prefetched: Prefetched, _ key: AnyKey, as type: Value.Type) throws -> Value? {
    guard let value = prefetched.take(key) else { return nil }
    return try Prefetched.cast(value, key, as: Value.self)
}

@Suite("The values an awaited section reads")
struct PrefetchedTests {
    @Test("a class instance is read as its own class")
    func classInstance() throws {
        let square = Square()
        let key = Key<Square>().erased
        #expect(try typed(Prefetched.make([Prefetched.Entry(key, square)]), key, as: Square.self) === square)
    }

    @Test("a struct of three words is cast")
    func smallStructIsCast() throws {
        let small = Small(name: "a name longer than fifteen bytes", count: 3)
        let key = Key<Small>().erased
        let prefetched = Prefetched.make([Prefetched.Entry(key, small)])
        #expect(try typed(prefetched, key, as: Small.self) == small)
    }

    @Test("a subclass instance is read as its superclass")
    func subclassIsCast() throws {
        let derived = Derived()
        let key = Key<Base>().erased
        let prefetched = Prefetched.make([Prefetched.Entry(key, derived)])
        #expect(try typed(prefetched, key, as: Base.self) === derived)
    }

    @Test("an existential's concrete value is read as the existential")
    func existentialIsCast() throws {
        let square = Square()
        let shape: any Shape = square
        let key = Key<any Shape>().erased
        let prefetched = Prefetched.make([Prefetched.Entry(key, shape)])
        #expect(try typed(prefetched, key, as: (any Shape).self) as? Square === square)
    }

    @Test("a struct of four words is cast")
    func largeStructIsCast() throws {
        let large = Large(a: 1, b: 2, c: 3, d: 4)
        let key = Key<Large>().erased
        #expect(try typed(Prefetched.make([Prefetched.Entry(key, large)]), key, as: Large.self) == large)
    }

    @Test("a struct holding a weak reference is cast")
    func weakStructIsCast() throws {
        let target = Base()
        let watching = Watching(target: target)
        let key = Key<Watching>().erased
        #expect(try typed(Prefetched.make([Prefetched.Entry(key, watching)]), key, as: Watching.self)?.target === target)
    }

    @Test("values of one key are taken in the order awaited, each once")
    func takenInOrderOnce() throws {
        let key = Key<Small>().erased
        let other = Key<Large>().erased
        let prefetched = Prefetched.make([
            Prefetched.Entry(key, Small(name: "first", count: 1)),
            Prefetched.Entry(other, Large(a: 1, b: 2, c: 3, d: 4)),
            Prefetched.Entry(key, Small(name: "second", count: 2)),
        ])
        #expect(try typed(prefetched, key, as: Small.self)?.name == "first")
        #expect(try typed(prefetched, key, as: Small.self)?.name == "second")
        #expect(try typed(prefetched, key, as: Small.self) == nil)
        #expect(try typed(prefetched, other, as: Large.self)?.d == 4)
    }

    @Test("a value taken is the taker's alone, and one never taken is released with the values")
    func takenAndLeftReleasedOnce() throws {
        let released = Locked(0)
        let key = Key<ReleaseCounted>().erased
        var taken: ReleaseCounted? = nil
        do {
            let prefetched = Prefetched.make([
                Prefetched.Entry(key, ReleaseCounted(released)),
                Prefetched.Entry(key, ReleaseCounted(released)),
            ])
            taken = try typed(prefetched, key, as: ReleaseCounted.self)
            #expect(taken != nil)
        }
        // The one left was released with the values; the one taken lives on with its taker.
        #expect(released.withLock { $0 } == 1)
        taken = nil
        #expect(released.withLock { $0 } == 2)
    }

    @Test("a boxed value taken is read intact after the values are gone")
    func boxedTakenOutlivesValues() throws {
        let key = Key<Large>().erased
        var taken: Large?
        do {
            let prefetched = Prefetched.make([Prefetched.Entry(key, Large(a: 1, b: 2, c: 3, d: 4))])
            taken = try typed(prefetched, key, as: Large.self)
        }
        #expect(taken == Large(a: 1, b: 2, c: 3, d: 4))
    }

    @Test("a value that is not of its key's type throws internalInconsistency")
    func wrongTypeThrows() {
        let key = Key<Small>().erased
        let prefetched = Prefetched.make([Prefetched.Entry(key, Large(a: 1, b: 2, c: 3, d: 4))])
        let error = #expect(throws: InjectionError.self) { _ = try typed(prefetched, key, as: Small.self) }
        #expect(error?.kind == .internalInconsistency)
    }
}

private final class ShapeUser: Injectable, Sendable {
    let shape: any Shape
    let large: Large
    let base: Base
    init(shape: any Shape, large: Large, base: Base) {
        self.shape = shape
        self.large = large
        self.base = base
    }
    static let initializer = Initializer(ShapeUser.init(shape:large:base:))
}

@Suite("Awaited values of every layout, read by a section")
struct PrefetchedLayoutTests {
    @Test("an awaited existential, a boxed struct and a subclass instance reach a synchronous initializer")
    func everyLayoutReachesTheSection() async throws {
        let square = Square()
        let derived = Derived()
        let injector = try Injector(Bindings { binder in
            binder.bind((any Shape).self).to { _ async -> any Shape in
                await Task.yield()
                return square
            }
            binder.bind(Large.self).to { _ async in
                await Task.yield()
                return Large(a: 1, b: 2, c: 3, d: 4)
            }
            binder.bind(Base.self).to { _ async -> Base in
                await Task.yield()
                return derived
            }
        })
        let user = try await injector.instance(ShapeUser.self)
        #expect(user.shape as? Square === square)
        #expect(user.large == Large(a: 1, b: 2, c: 3, d: 4))
        #expect(user.base === derived)
    }
}
