import Sightless
import Testing

/// Counts its builds, and takes a while to build, so that requests overlap.
private final class SlowCounted: Sendable {
    let number: Int
    init(number: Int) { self.number = number }
}

private func slowBindings(builds: Locked<Int>, failFirst: Bool = false, delay: Duration = .milliseconds(50)) -> Bindings {
    Bindings { binder in
        binder.bind(SlowCounted.self).to { _ async throws in
            let number = builds.withLock { count -> Int in
                count += 1
                return count
            }
            try await Task.sleep(for: delay)
            if failFirst && number == 1 { throw OpenError.refused("first") }
            return SlowCounted(number: number)
        }.in(.singleton)
    }
}

@Suite("Async singletons")
struct AsyncSingletonTests {
    @Test("an async singleton is built once under 100 concurrently awaiting tasks")
    func builtOnceUnderContention() async throws {
        let builds = Locked(0)
        let injector = try Injector(slowBindings(builds: builds))
        let identities = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<100 {
                group.addTask { ObjectIdentifier(try await injector.instance(SlowCounted.self)) }
            }
            var seen: Set<ObjectIdentifier> = []
            for try await identity in group { seen.insert(identity) }
            return seen
        }
        #expect(identities.count == 1)
        #expect(builds.withLock { $0 } == 1)
    }

    @Test("cancelling one awaiting caller neither cancels nor poisons the build for the others")
    func cancelledWaiter() async throws {
        let builds = Locked(0)
        let injector = try Injector(slowBindings(builds: builds, delay: .milliseconds(200)))
        let cancelled = Task { try await injector.instance(SlowCounted.self) }
        let other = Task { try await injector.instance(SlowCounted.self) }
        try await Task.sleep(for: .milliseconds(20))
        cancelled.cancel()
        let value = try await other.value
        // The cancelled caller still receives the one value: the build is not its own.
        let cancelledValue = try await cancelled.value
        #expect(cancelledValue === value)
        #expect(builds.withLock { $0 } == 1)
        #expect(try await injector.instance(SlowCounted.self) === value)
    }

    @Test("a cancelled first caller does not cancel the build of a sleeping initializer")
    func cancelledFirstCallerBeforeOthers() async throws {
        let builds = Locked(0)
        let injector = try Injector(slowBindings(builds: builds, delay: .milliseconds(100)))
        let first = Task { try await injector.instance(SlowCounted.self) }
        first.cancel()
        _ = try? await first.value
        let value = try await injector.instance(SlowCounted.self)
        #expect(value.number == builds.withLock { $0 })
        #expect(try await injector.instance(SlowCounted.self) === value)
    }

    @Test("a failed async singleton build is not kept: the next request builds again")
    func failureNotKept() async throws {
        let builds = Locked(0)
        let injector = try Injector(slowBindings(builds: builds, failFirst: true, delay: .milliseconds(1)))
        let error = await #expect(throws: InjectionError.self) { _ = try await injector.instance(SlowCounted.self) }
        #expect(error?.kind == .initializerFailed)
        let value = try await injector.instance(SlowCounted.self)
        #expect(value.number == 2)
        #expect(try await injector.instance(SlowCounted.self) === value)
    }

    @Test("the waiters of a failed build all receive its error")
    func waitersShareFailure() async throws {
        let builds = Locked(0)
        let injector = try Injector(slowBindings(builds: builds, failFirst: true))
        let failures = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<10 {
                group.addTask { (try? await injector.instance(SlowCounted.self)) == nil }
            }
            var failed = 0
            for await didFail in group where didFail { failed += 1 }
            return failed
        }
        // Every caller that joined the first build failed with it; later ones built again.
        #expect(failures >= 1)
        #expect(builds.withLock { $0 } <= 1 + (10 - failures))
    }
}

private final class Counted: Sendable {}

private final class Holder: Injectable, Sendable {
    let counted: Lazy<Counted>
    init(counted: Lazy<Counted>) { self.counted = counted }
    static let initializer = Initializer(Holder.init(counted:))
}

private final class Upper: Sendable {
    let lower: SlowCounted
    init(lower: SlowCounted) { self.lower = lower }
}

@Suite("Awaited values kept once")
struct AwaitedOnceTests {
    @Test("one Lazy awaited by 20 tasks at once builds its value once")
    func lazyBuiltOnce() async throws {
        let builds = Locked(0)
        let injector = try Injector(Bindings { binder in
            binder.bind(Counted.self).to { _ async throws in
                builds.withLock { $0 += 1 }
                try await Task.sleep(for: .milliseconds(20))
                return Counted()
            }
        })
        let holder = try injector.getInstance(Holder.self)
        let identities = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<20 { group.addTask { ObjectIdentifier(try await holder.counted.value) } }
            var seen: Set<ObjectIdentifier> = []
            for try await identity in group { seen.insert(identity) }
            return seen
        }
        #expect(identities.count == 1)
        #expect(builds.withLock { $0 } == 1)
    }

    @Test("an eager async singleton that another eager one needs is built once at start-up")
    func eagerChainBuiltOnce() async throws {
        let builds = Locked(0)
        let module = Bindings { binder in
            binder.bind(SlowCounted.self).to { _ async throws in
                builds.withLock { $0 += 1 }
                try await Task.sleep(for: .milliseconds(10))
                return SlowCounted(number: 1)
            }.in(.eagerSingleton)
            binder.bind(Upper.self).to { resolver async throws in
                Upper(lower: try await resolver.instance(SlowCounted.self))
            }.in(.eagerSingleton)
        }
        let injector = try await Injector.start(modules: [module])
        #expect(builds.withLock { $0 } == 1)
        #expect(try injector.getInstance(Upper.self).lower === injector.getInstance(SlowCounted.self))
    }
}
