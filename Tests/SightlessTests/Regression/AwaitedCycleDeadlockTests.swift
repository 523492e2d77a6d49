import Sightless
import Testing

// Two async singletons that await each other through `Lazy`, asked for from two tasks at once:
// each task's build waited for the build the other task ran, and neither ended. A task's chain
// of builds saw only its own keys, so the circle that ran through two tasks went unseen.

private enum AwaitedCycle {
    /// Lets each build go on only once `expected` builds have arrived, or after a second: the
    /// builds of two tasks then run at the same time, each holding its own before it asks for
    /// the other's.
    final class Meeting: Sendable {
        let expected: Int
        private let arrived = Locked(0)

        init(expected: Int) { self.expected = expected }

        func arrive() async {
            arrived.withLock { $0 += 1 }
            let deadline = ContinuousClock.now + .seconds(1)
            while arrived.withLock({ $0 }) < expected, ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(1))
            }
        }
    }

    final class Ping: Injectable, Sendable {
        init(other: Lazy<Pong>, meeting: Meeting) async throws {
            await meeting.arrive()
            _ = try await other.value
        }
        static let initializer = Initializer(Ping.init(other:meeting:))
    }

    final class Pong: Injectable, Sendable {
        init(other: Lazy<Ping>, meeting: Meeting) async throws {
            await meeting.arrive()
            _ = try await other.value
        }
        static let initializer = Initializer(Pong.init(other:meeting:))
    }

    final class First: Injectable, Sendable {
        init(next: Lazy<Second>, meeting: Meeting) async throws {
            await meeting.arrive()
            _ = try await next.value
        }
        static let initializer = Initializer(First.init(next:meeting:))
    }

    final class Second: Injectable, Sendable {
        init(next: Lazy<Third>, meeting: Meeting) async throws {
            await meeting.arrive()
            _ = try await next.value
        }
        static let initializer = Initializer(Second.init(next:meeting:))
    }

    final class Third: Injectable, Sendable {
        init(next: Lazy<First>, meeting: Meeting) async throws {
            await meeting.arrive()
            _ = try await next.value
        }
        static let initializer = Initializer(Third.init(next:meeting:))
    }

    final class Tick: Injectable, Sendable {
        init(other: Factory<Tock>, meeting: Meeting) async throws {
            await meeting.arrive()
            _ = try await other.instance()
        }
        static let initializer = Initializer(Tick.init(other:meeting:))
    }

    final class Tock: Injectable, Sendable {
        init(other: Factory<Tick>, meeting: Meeting) async throws {
            await meeting.arrive()
            _ = try await other.instance()
        }
        static let initializer = Initializer(Tock.init(other:meeting:))
    }

    /// Awaits `Tail`, which needs nothing back.
    final class Head: Injectable, Sendable {
        let tail: Tail
        init(tail: Lazy<Tail>, meeting: Meeting) async throws {
            await meeting.arrive()
            self.tail = try await tail.value
        }
        static let initializer = Initializer(Head.init(tail:meeting:))
    }

    final class Tail: Injectable, Sendable {
        init(meeting: Meeting) async {
            await meeting.arrive()
            try? await Task.sleep(for: .milliseconds(50))
        }
        static let initializer = Initializer(Tail.init(meeting:))
    }

    static func pingPong(_ scope: Scope, meeting: Meeting) -> Bindings {
        Bindings { binder in
            binder.bind(Meeting.self).to(instance: meeting)
            binder.bind(Ping.self).in(scope)
            binder.bind(Pong.self).in(scope)
        }
    }

    static func ring(meeting: Meeting) -> Bindings {
        Bindings { binder in
            binder.bind(Meeting.self).to(instance: meeting)
            binder.bind(First.self).in(.singleton)
            binder.bind(Second.self).in(.singleton)
            binder.bind(Third.self).in(.singleton)
        }
    }

    final class Left: Sendable {}
    final class Right: Sendable {}

    /// Two closure singletons, each awaiting the other through its resolver.
    static func closures(meeting: Meeting) -> Bindings {
        Bindings { binder in
            binder.bind(Left.self).to { resolver async throws in
                await meeting.arrive()
                _ = try await resolver.instance(Right.self)
                return Left()
            }.in(.singleton)
            binder.bind(Right.self).to { resolver async throws in
                await meeting.arrive()
                _ = try await resolver.instance(Left.self)
                return Right()
            }.in(.singleton)
        }
    }

    /// How long a test waits before it calls the work a hang: far beyond the milliseconds the
    /// work takes, since under the whole suite the tasks may wait long for a thread.
    static let deadline = Duration.seconds(120)

    /// Each outcome ended within the deadline, each a value or a cycle error, and at least one
    /// a cycle error naming the keys that need each other.
    static func check(_ outcomes: [Result<Void, any Error>]?, naming keys: [AnyKey]) {
        guard let outcomes else {
            Issue.record("no outcome within \(deadline): the tasks wait for each other")
            return
        }
        for (task, outcome) in outcomes.enumerated() {
            if case .failure(let error) = outcome, (error as? InjectionError)?.kind != .cyclicDependency {
                Issue.record("task \(task): expected a value or a cyclicDependency, got \(error)")
            }
        }
        let cycles = outcomes.compactMap { outcome -> InjectionError? in
            guard case .failure(let error) = outcome else { return nil }
            return error as? InjectionError
        }
        #expect(!cycles.isEmpty, "\(outcomes)")
        for error in cycles {
            #expect(Set(error.path).isSuperset(of: keys), "\(error)")
        }
    }
}

/// The outcome of each of `count` tasks running `work(index)` at once, or `nil` when they have
/// not all ended within `limit`: a hang fails the test instead of blocking the suite. Hung tasks
/// are left behind.
func outcomesWithin(
    _ limit: Duration, tasks count: Int, _ work: @escaping @Sendable (Int) async throws -> Void
) async -> [Result<Void, any Error>]? {
    let outcomes = Locked([Result<Void, any Error>?](repeating: nil, count: count))
    for index in 0..<count {
        Task.detached {
            let outcome: Result<Void, any Error>
            do {
                try await work(index)
                outcome = .success(())
            } catch {
                outcome = .failure(error)
            }
            outcomes.withLock { $0[index] = outcome }
        }
    }
    // A stall of this task, most likely of the work's tasks too, extends the limit.
    var deadline = PatientDeadline(after: limit)
    while true {
        // Looked at once more after the deadline: this task may have waited long to run again.
        let pastDeadline = deadline.hasPassed()
        let ended = outcomes.withLock { $0 }
        if ended.allSatisfy({ $0 != nil }) { return ended.compactMap { $0 } }
        if pastDeadline { return nil }
        try? await Task.sleep(for: .milliseconds(5))
    }
}

@Suite("Regression: awaited cycles across tasks")
struct RegressionAwaitedCycleDeadlockTests {
    @Test("two async singletons that await each other through Lazy, awaited from two tasks at once, end in cyclicDependency, not a hang")
    func lazyCycleFromTwoTasks() async throws {
        let injector = try Injector(AwaitedCycle.pingPong(.singleton, meeting: .init(expected: 2)))
        let outcomes = await outcomesWithin(AwaitedCycle.deadline, tasks: 2) { task in
            if task == 0 {
                _ = try await injector.instance(AwaitedCycle.Ping.self)
            } else {
                _ = try await injector.instance(AwaitedCycle.Pong.self)
            }
        }
        AwaitedCycle.check(outcomes, naming: [Key<AwaitedCycle.Ping>().erased, Key<AwaitedCycle.Pong>().erased])
    }

    @Test("two async singletons that await each other through Factory, awaited from two tasks at once, end in cyclicDependency, not a hang")
    func factoryCycleFromTwoTasks() async throws {
        let injector = try Injector(Bindings { binder in
            binder.bind(AwaitedCycle.Meeting.self).to(instance: AwaitedCycle.Meeting(expected: 2))
            binder.bind(AwaitedCycle.Tick.self).in(.singleton)
            binder.bind(AwaitedCycle.Tock.self).in(.singleton)
        })
        let outcomes = await outcomesWithin(AwaitedCycle.deadline, tasks: 2) { task in
            if task == 0 {
                _ = try await injector.instance(AwaitedCycle.Tick.self)
            } else {
                _ = try await injector.instance(AwaitedCycle.Tock.self)
            }
        }
        AwaitedCycle.check(outcomes, naming: [Key<AwaitedCycle.Tick>().erased, Key<AwaitedCycle.Tock>().erased])
    }

    @Test("an async singleton that awaits one another task is building, which needs nothing back, waits for it and gets it")
    func waitWithoutCycle() async throws {
        let injector = try Injector(Bindings { binder in
            binder.bind(AwaitedCycle.Meeting.self).to(instance: AwaitedCycle.Meeting(expected: 2))
            binder.bind(AwaitedCycle.Head.self).in(.singleton)
            binder.bind(AwaitedCycle.Tail.self).in(.singleton)
        })
        let outcomes = await outcomesWithin(AwaitedCycle.deadline, tasks: 2) { task in
            if task == 0 {
                _ = try await injector.instance(AwaitedCycle.Head.self)
            } else {
                _ = try await injector.instance(AwaitedCycle.Tail.self)
            }
        }
        #expect(outcomes?.allSatisfy { if case .success = $0 { true } else { false } } == true, "\(String(describing: outcomes))")
        #expect(try injector.getInstance(AwaitedCycle.Head.self).tail === injector.getInstance(AwaitedCycle.Tail.self))
    }

    @Test("two async singletons that await each other through Lazy, awaited from one task, end in cyclicDependency")
    func lazyCycleFromOneTask() async throws {
        let injector = try Injector(AwaitedCycle.pingPong(.singleton, meeting: .init(expected: 1)))
        let outcomes = await outcomesWithin(AwaitedCycle.deadline, tasks: 1) { _ in
            _ = try await injector.instance(AwaitedCycle.Ping.self)
        }
        AwaitedCycle.check(outcomes, naming: [Key<AwaitedCycle.Ping>().erased, Key<AwaitedCycle.Pong>().erased])
    }

    @Test("two eager async singletons that await each other through Lazy end Injector.start in cyclicDependency, not a hang")
    func lazyCycleOfEagerSingletons() async throws {
        let meeting = AwaitedCycle.Meeting(expected: 2)
        let outcomes = await outcomesWithin(AwaitedCycle.deadline, tasks: 1) { _ in
            _ = try await Injector.start(modules: [AwaitedCycle.pingPong(.eagerSingleton, meeting: meeting)])
        }
        AwaitedCycle.check(outcomes, naming: [Key<AwaitedCycle.Ping>().erased, Key<AwaitedCycle.Pong>().erased])
    }

    @Test("three async singletons that await each other in a ring, awaited from three tasks at once, end in cyclicDependency, not a hang")
    func ringFromThreeTasks() async throws {
        let injector = try Injector(AwaitedCycle.ring(meeting: .init(expected: 3)))
        let outcomes = await outcomesWithin(AwaitedCycle.deadline, tasks: 3) { task in
            switch task {
            case 0: _ = try await injector.instance(AwaitedCycle.First.self)
            case 1: _ = try await injector.instance(AwaitedCycle.Second.self)
            default: _ = try await injector.instance(AwaitedCycle.Third.self)
            }
        }
        AwaitedCycle.check(outcomes, naming: [
            Key<AwaitedCycle.First>().erased, Key<AwaitedCycle.Second>().erased, Key<AwaitedCycle.Third>().erased,
        ])
    }

    @Test("two async singletons that await each other through Lazy, awaited from twenty tasks at once, end in cyclicDependency, not a hang")
    func lazyCycleFromManyTasks() async throws {
        let injector = try Injector(AwaitedCycle.pingPong(.singleton, meeting: .init(expected: 2)))
        let outcomes = await outcomesWithin(AwaitedCycle.deadline, tasks: 20) { task in
            if task.isMultiple(of: 2) {
                _ = try await injector.instance(AwaitedCycle.Ping.self)
            } else {
                _ = try await injector.instance(AwaitedCycle.Pong.self)
            }
        }
        AwaitedCycle.check(outcomes, naming: [Key<AwaitedCycle.Ping>().erased, Key<AwaitedCycle.Pong>().erased])
    }

    @Test("two async closure singletons that await each other through their resolvers, from two tasks at once, end in cyclicDependency, not a hang")
    func closureCycleFromTwoTasks() async throws {
        let injector = try Injector(AwaitedCycle.closures(meeting: .init(expected: 2)))
        let outcomes = await outcomesWithin(AwaitedCycle.deadline, tasks: 2) { task in
            if task == 0 {
                _ = try await injector.instance(AwaitedCycle.Left.self)
            } else {
                _ = try await injector.instance(AwaitedCycle.Right.self)
            }
        }
        AwaitedCycle.check(outcomes, naming: [Key<AwaitedCycle.Left>().erased, Key<AwaitedCycle.Right>().erased])
    }

    @Test("two async singletons that await each other through Lazy, asked through Lazy.value from two tasks at once, end in cyclicDependency, not a hang")
    func lazyValueCycleFromTwoTasks() async throws {
        let injector = try Injector(AwaitedCycle.pingPong(.singleton, meeting: .init(expected: 2)))
        let ping = try injector.getInstance(Lazy<AwaitedCycle.Ping>.self)
        let pong = try injector.getInstance(Lazy<AwaitedCycle.Pong>.self)
        let outcomes = await outcomesWithin(AwaitedCycle.deadline, tasks: 2) { task in
            if task == 0 { _ = try await ping.value } else { _ = try await pong.value }
        }
        AwaitedCycle.check(outcomes, naming: [Key<AwaitedCycle.Ping>().erased, Key<AwaitedCycle.Pong>().erased])
    }
}
