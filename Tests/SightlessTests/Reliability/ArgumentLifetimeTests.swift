import Sightless
import Synchronization
import Testing

// Creation-time arguments are copied into a buffer, read by the plan, and destroyed after it: on
// the fast path (exact types, placed by specialized code), on the general path (converted, or
// too large for the stack buffer), and on every error path on the way. Each argument counts its
// copies' owners: one destroyed twice would over-release (a crash), one never destroyed would
// leave `live` above zero.

/// Counts the `Tracked` objects alive for one test.
final class LifetimeCounter: Sendable {
    let made = Atomic<Int>(0)
    let freed = Atomic<Int>(0)
    var live: Int { made.load(ordering: .acquiring) - freed.load(ordering: .acquiring) }
}

/// An argument that counts itself alive.
final class Tracked: Sendable {
    let counter: LifetimeCounter
    let tag: Int
    init(_ counter: LifetimeCounter, tag: Int = 0) {
        self.counter = counter
        self.tag = tag
        counter.made.add(1, ordering: .relaxed)
    }
    deinit { counter.freed.add(1, ordering: .relaxed) }
}

protocol Tagged: Sendable {
    var tag: Int { get }
}

extension Tracked: Tagged {}

private enum Arguments {
    /// A struct argument holding references (not trivially copied).
    struct Pair: Sendable {
        let tracked: Tracked
        let text: String
    }

    /// An argument larger than the 64 bytes of the stack buffer: the arguments go to the heap.
    struct Large: Sendable {
        let tracked: Tracked
        var padding: (Int, Int, Int, Int, Int, Int, Int, Int, Int) = (1, 2, 3, 4, 5, 6, 7, 8, 9)
    }

    final class One: Injectable {
        let a: Tracked
        init(a: Tracked) { self.a = a }
        static let initializer = Initializer(One.init(a:), .dynamic)
    }

    final class Two: Injectable {
        let a: Tracked, b: Pair
        init(a: Tracked, b: Pair) { self.a = a; self.b = b }
        static let initializer = Initializer(Two.init(a:b:), .dynamic, .dynamic)
    }

    final class Three: Injectable {
        let a: Tracked, b: Pair, c: Tracked?
        init(a: Tracked, b: Pair, c: Tracked?) { self.a = a; self.b = b; self.c = c }
        static let initializer = Initializer(Three.init(a:b:c:), .dynamic, .dynamic, .dynamic)
    }

    final class Four: Injectable {
        let a: Tracked, b: Pair, c: Tracked?, d: any Tagged
        init(a: Tracked, b: Pair, c: Tracked?, d: any Tagged) { self.a = a; self.b = b; self.c = c; self.d = d }
        static let initializer = Initializer(Four.init(a:b:c:d:), .dynamic, .dynamic, .dynamic, .dynamic)
    }

    final class Heavy: Injectable {
        let a: Large, b: Tracked
        init(a: Large, b: Tracked) { self.a = a; self.b = b }
        static let initializer = Initializer(Heavy.init(a:b:), .dynamic, .dynamic)
    }

    struct Refused: Error {}

    /// Its initializer throws once its arguments are placed and read.
    final class Failing: Injectable {
        init(a: Tracked, b: Pair, c: Tracked?) throws { throw Refused() }
        static let initializer = Initializer(Failing.init(a:b:c:), .dynamic, .dynamic, .dynamic)
    }

    final class FailingHeavy: Injectable {
        init(a: Large, b: Tracked) throws { throw Refused() }
        static let initializer = Initializer(FailingHeavy.init(a:b:), .dynamic, .dynamic)
    }

    final class Leaf: Injectable {
        init() {}
        static let initializer = Initializer(Leaf.init)
    }

    /// An argument whose deinitializer makes requests of an injector: one that succeeds and one
    /// that throws (an unbound named key).
    final class Reentrant: Sendable {
        let injector: Injector
        let counter: LifetimeCounter
        init(_ injector: Injector, _ counter: LifetimeCounter) {
            self.injector = injector
            self.counter = counter
            counter.made.add(1, ordering: .relaxed)
        }
        deinit {
            if (try? injector.getInstance(Leaf.self)) != nil,
               (try? injector.getInstance(Key<Leaf>(named: "unbound"))) == nil,
               (try? injector.getInstance(One.self, arguments: Tracked(counter))) != nil {
                counter.freed.add(1, ordering: .relaxed)
            }
        }
    }

    final class TakesReentrant: Injectable {
        init(a: Reentrant, b: Int) {}
        static let initializer = Initializer(TakesReentrant.init(a:b:), .dynamic, .dynamic)
    }

    /// Makes and drops a `TakesReentrant` inside its own initializer, through a factory.
    final class DropsInside: Injectable {
        init(make: Factory<TakesReentrant, Reentrant, Int>, injector: Injector) throws {
            let counter = LifetimeCounter()
            _ = try make.make(Reentrant(injector, counter), 1)
            guard counter.live == 0 else { throw Refused() }
        }
        static let initializer = Initializer(DropsInside.init(make:injector:))
    }
}

@Suite("Creation-time arguments: each destroyed exactly once")
struct ArgumentLifetimeTests {
    /// Runs `body` with a fresh counter and returns it once every argument made in `body` is out
    /// of scope.
    private func counting(_ body: (LifetimeCounter) throws -> Void) rethrows -> LifetimeCounter {
        let counter = LifetimeCounter()
        try body(counter)
        return counter
    }

    @Test("arguments of the exact slot types reach the instance, 1 to 4 of them, and go with it")
    func exactTypes() throws {
        let injector = try Injector(modules: [])
        let counter = try counting { counter in
            let one = try injector.getInstance(Arguments.One.self, arguments: Tracked(counter, tag: 1))
            let two = try injector.getInstance(
                Arguments.Two.self, arguments: Tracked(counter, tag: 2), Arguments.Pair(tracked: Tracked(counter, tag: 3), text: "b"))
            let three = try injector.getInstance(
                Arguments.Three.self, arguments: Tracked(counter, tag: 4), Arguments.Pair(tracked: Tracked(counter, tag: 5), text: "b"),
                Tracked?.some(Tracked(counter, tag: 6)))
            let four = try injector.getInstance(
                Arguments.Four.self, arguments: Tracked(counter, tag: 7), Arguments.Pair(tracked: Tracked(counter, tag: 8), text: "b"),
                Tracked?.none, (Tracked(counter, tag: 9) as any Tagged))
            #expect(one.a.tag == 1)
            #expect([two.a.tag, two.b.tracked.tag, two.b.text.count] == [2, 3, 1])
            #expect([three.a.tag, three.b.tracked.tag, three.c?.tag] == [4, 5, 6])
            #expect([four.a.tag, four.b.tracked.tag, four.d.tag] == [7, 8, 9] && four.c == nil)
            #expect(counter.live == 9)
        }
        #expect(counter.made.load(ordering: .relaxed) == 9)
        #expect(counter.live == 0)
    }

    @Test("arguments converted to their slots' types (a value for an optional, a conformer for an existential) go with the instance")
    func convertedTypes() throws {
        let injector = try Injector(modules: [])
        let counter = try counting { counter in
            let three = try injector.getInstance(
                Arguments.Three.self, arguments: Tracked(counter, tag: 1), Arguments.Pair(tracked: Tracked(counter, tag: 2), text: ""),
                Tracked(counter, tag: 3))
            let four = try injector.getInstance(
                Arguments.Four.self, arguments: Tracked(counter, tag: 4), Arguments.Pair(tracked: Tracked(counter, tag: 5), text: ""),
                Tracked(counter, tag: 6), Tracked(counter, tag: 7))
            #expect(three.c?.tag == 3)
            #expect(four.c?.tag == 6 && four.d.tag == 7)
        }
        #expect(counter.made.load(ordering: .relaxed) == 7)
        #expect(counter.live == 0)
    }

    @Test("arguments too large for the stack buffer reach the instance and go with it")
    func largeArguments() throws {
        let injector = try Injector(modules: [])
        let counter = try counting { counter in
            let heavy = try injector.getInstance(
                Arguments.Heavy.self, arguments: Arguments.Large(tracked: Tracked(counter, tag: 1)), Tracked(counter, tag: 2))
            #expect(heavy.a.tracked.tag == 1 && heavy.a.padding.8 == 9 && heavy.b.tag == 2)
        }
        #expect(counter.live == 0)
    }

    @Test("an argument of the wrong type at position 1, 2, 3 or 4 is argumentType naming it, and every argument is destroyed")
    func wrongTypeAtEachPosition() throws {
        let injector = try Injector(modules: [])
        let counter = LifetimeCounter()
        func pair() -> Arguments.Pair { Arguments.Pair(tracked: Tracked(counter), text: "") }
        let requests: [(position: Int, request: () throws -> Void)] = [
            (1, { _ = try injector.getInstance(Arguments.One.self, arguments: pair()) }),
            (2, { _ = try injector.getInstance(Arguments.Two.self, arguments: Tracked(counter), Tracked(counter)) }),
            (1, { _ = try injector.getInstance(Arguments.Three.self, arguments: pair(), pair(), Tracked(counter)) }),
            (3, { _ = try injector.getInstance(Arguments.Three.self, arguments: Tracked(counter), pair(), pair()) }),
            (4, { _ = try injector.getInstance(Arguments.Four.self, arguments: Tracked(counter), pair(), Tracked(counter), pair()) }),
            (2, { _ = try injector.getInstance(Arguments.Four.self, arguments: Tracked(counter), Tracked(counter), Tracked(counter), Tracked(counter)) }),
            (2, { _ = try injector.getInstance(Arguments.Heavy.self, arguments: Arguments.Large(tracked: Tracked(counter)), pair()) }),
        ]
        for (index, (position, request)) in requests.enumerated() {
            let error = #expect(throws: InjectionError.self, "request \(index + 1)") { try request() }
            #expect(error?.kind == .argumentType, "request \(index + 1): \(String(describing: error))")
            if case .argumentType(_, let reported, _, _, _)? = error?.problems.first?.detail {
                #expect(reported == position, "request \(index + 1)")
            } else {
                Issue.record("request \(index + 1): no argumentType detail in \(String(describing: error))")
            }
            #expect(counter.live == 0, "request \(index + 1)")
        }
        #expect(counter.made.load(ordering: .relaxed) > 10)
    }

    @Test("too few or too many arguments for 1 to 4 slots is argumentCount, and every argument is destroyed")
    func wrongCounts() throws {
        let injector = try Injector(modules: [])
        let counter = LifetimeCounter()
        func pair() -> Arguments.Pair { Arguments.Pair(tracked: Tracked(counter), text: "") }
        let requests: [() throws -> Void] = [
            { _ = try injector.getInstance(Arguments.One.self, arguments: Tracked(counter), Tracked(counter)) },
            { _ = try injector.getInstance(Arguments.Two.self, arguments: Tracked(counter)) },
            { _ = try injector.getInstance(Arguments.Two.self, arguments: Tracked(counter), pair(), Tracked(counter)) },
            { _ = try injector.getInstance(Arguments.Three.self, arguments: Tracked(counter), pair()) },
            { _ = try injector.getInstance(Arguments.Three.self, arguments: Tracked(counter), pair(), Tracked(counter), Tracked(counter)) },
            { _ = try injector.getInstance(Arguments.Four.self, arguments: Tracked(counter), pair(), Tracked(counter)) },
            { _ = try injector.getInstance(Arguments.Four.self, arguments: Tracked(counter), pair(), Tracked(counter), Tracked(counter), Tracked(counter)) },
            { _ = try injector.getInstance(Arguments.Heavy.self, arguments: Arguments.Large(tracked: Tracked(counter))) },
            { _ = try injector.getInstance(Arguments.Leaf.self, arguments: Tracked(counter)) },
        ]
        for (index, request) in requests.enumerated() {
            let error = #expect(throws: InjectionError.self, "request \(index + 1)") { try request() }
            #expect(error?.kind == .argumentCount, "request \(index + 1): \(String(describing: error))")
            #expect(counter.live == 0, "request \(index + 1)")
        }
    }

    @Test("arguments of an initializer that throws, on the stack buffer or the heap, are destroyed once")
    func initializerThrows() throws {
        let injector = try Injector(modules: [])
        let counter = counting { counter in
            for _ in 0..<3 {
                #expect(throws: InjectionError.self) {
                    try injector.getInstance(
                        Arguments.Failing.self, arguments: Tracked(counter), Arguments.Pair(tracked: Tracked(counter), text: ""),
                        Tracked?.some(Tracked(counter)))
                }
                #expect(throws: InjectionError.self) {
                    try injector.getInstance(Arguments.FailingHeavy.self, arguments: Arguments.Large(tracked: Tracked(counter)), Tracked(counter))
                }
            }
        }
        #expect(counter.made.load(ordering: .relaxed) == 15)
        #expect(counter.live == 0)
    }

    @Test("arguments of a request of a shut-down injector, or of an unbound named key, are destroyed")
    func refusedBeforePlacing() throws {
        let injector = try Injector(modules: [])
        _ = try injector.getInstance(Arguments.One.self, arguments: Tracked(LifetimeCounter()))
        let counter = LifetimeCounter()
        #expect(throws: InjectionError.self) {
            try injector.getInstance(Key<Arguments.Pair>(named: "unbound"), arguments: Tracked(counter), Tracked(counter))
        }
        try injector.shutDown()
        for _ in 0..<2 {
            let error = #expect(throws: InjectionError.self) {
                try injector.getInstance(Arguments.One.self, arguments: Tracked(counter))
            }
            #expect(error?.kind == .injectorShutDown)
            #expect(throws: InjectionError.self) {
                try injector.getInstance(Arguments.Four.self, arguments: Tracked(counter), Arguments.Pair(tracked: Tracked(counter), text: ""),
                                         Tracked?.none, Tracked(counter))
            }
        }
        #expect(counter.live == 0)
    }

    @Test("arguments made through a Factory, right or wrong, are destroyed once")
    func throughFactory() throws {
        let injector = try Injector(modules: [])
        let counter = try counting { counter in
            let make = try injector.getInstance(Factory<Arguments.Three, Tracked, Arguments.Pair, Tracked?>.self)
            let made = try make.make(Tracked(counter, tag: 1), Arguments.Pair(tracked: Tracked(counter, tag: 2), text: ""), nil)
            #expect(made.a.tag == 1 && made.b.tracked.tag == 2 && made.c == nil)
            let failing = try injector.getInstance(Factory<Arguments.Failing, Tracked, Arguments.Pair, Tracked?>.self)
            #expect(throws: InjectionError.self) {
                try failing.make(Tracked(counter), Arguments.Pair(tracked: Tracked(counter), text: ""), Tracked(counter))
            }
        }
        #expect(counter.made.load(ordering: .relaxed) == 5)
        #expect(counter.live == 0)
    }

    @Test("an argument whose deinitializer makes requests of the injector, outside a request and inside one, is destroyed once and its requests succeed")
    func reentrantDeinitializer() throws {
        let injector = try Injector(modules: [])
        let counter = try counting { counter in
            for _ in 0..<3 {
                _ = try injector.getInstance(Arguments.TakesReentrant.self, arguments: Arguments.Reentrant(injector, counter), 1)
                #expect(throws: InjectionError.self) {
                    try injector.getInstance(Arguments.TakesReentrant.self, arguments: Arguments.Reentrant(injector, counter), "wrong")
                }
            }
        }
        // `freed` counts a Reentrant only when all three of its deinitializer's requests ended
        // as they should; its Tracked arguments count themselves.
        #expect(counter.made.load(ordering: .relaxed) == 12)
        #expect(counter.live == 0)
        _ = try injector.getInstance(Arguments.DropsInside.self)
    }
}
