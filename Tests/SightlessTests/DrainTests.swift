#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Sightless
import Synchronization
import Testing

private struct Caller: Sendable {
    let name: String
}

/// A client the server keeps: a request that reaches it closed records the fault.
private final class Client: Injectable, AsyncClosable, Sendable {
    private let closed = Atomic<Bool>(false)
    init() {}
    static let initializer = Initializer(Client.init)
    static var scope: Scope { .singleton }
    var isClosed: Bool { closed.load(ordering: .sequentiallyConsistent) }
    func close() async { closed.store(true, ordering: .sequentiallyConsistent) }
}

/// A request's value, closed with its child.
private final class Work: Injectable, Closable, Sendable {
    let client: Client
    private let closed = Atomic<Bool>(false)
    init(client: Client) { self.client = client }
    static let initializer = Initializer(Work.init(client:))
    var isClosed: Bool { closed.load(ordering: .sequentiallyConsistent) }
    func close() { closed.store(true, ordering: .sequentiallyConsistent) }
}

@Suite("Draining shutdown")
struct DrainTests {
    private func server() throws -> (Injector, ChildTemplate<Caller>) {
        let root = try Injector(modules: [])
        let requests = try root.childTemplate(providing: Caller.self) { binder in
            binder.bind(Work.self).in(.singleton)
        }
        return (root, requests)
    }

    private func isShuttingDown(_ error: (any Error)?) -> Bool {
        guard let error = error as? InjectionError, error.kind == .injectorShutDown else { return false }
        return "\(error)".contains("awaitShutDown(draining:)")
    }

    // MARK: Regressions: a request in flight during shutdown completes

    @Test("a draining shutdown waits for a withChild body in flight, whose values stay open, then closes the root's")
    func waitsForBodyInFlight() async throws {
        let (root, requests) = try server()
        let entered = Latch(), release = Latch()
        let request = Task {
            try await requests.withChild(Caller(name: "ada")) { child in
                let work = try await child.instance(Work.self)
                entered.open()
                await release.wait()
                let again = try await child.instance(Work.self)
                return (work === again, work.isClosed, work.client.isClosed)
            }
        }
        await entered.wait()
        let drained = Latch()
        let shutdown = Task {
            let running = try await root.awaitShutDown(draining: .seconds(60))
            drained.open()
            return running
        }
        try await Task.sleep(for: .milliseconds(50))
        #expect(!drained.isOpen)
        release.open()
        let (same, workClosed, clientClosed) = try await request.value
        #expect(same && !workClosed && !clientClosed)
        #expect(try await shutdown.value == 0)
        let client = await Task { try await root.instance(Client.self) }.result
        #expect(throws: InjectionError.self) { try client.get() }
    }

    @Test("the draining shutdown closes the root's values after the bodies' children")
    func closesAfterBodies() async throws {
        let (root, requests) = try server()
        let release = Latch(), entered = Latch()
        let request = Task {
            try await requests.withChild(Caller(name: "ada")) { child in
                let work = try await child.instance(Work.self)
                entered.open()
                await release.wait()
                return work
            }
        }
        await entered.wait()
        let shutdown = Task { try await root.awaitShutDown(draining: .seconds(60)) }
        try await Task.sleep(for: .milliseconds(20))
        release.open()
        let work = try await request.value
        _ = try await shutdown.value
        #expect(work.isClosed && work.client.isClosed)
    }

    @Test("a withChild of a template that starts during a drain is refused with injectorShutDown, saying why")
    func refusesNewTemplateBodies() async throws {
        let (root, requests) = try server()
        let entered = Latch(), release = Latch()
        let request = Task {
            try await requests.withChild(Caller(name: "ada")) { _ in
                entered.open()
                await release.wait()
            }
        }
        await entered.wait()
        let shutdown = Task { try await root.awaitShutDown(draining: .seconds(60)) }
        var deadline = PatientDeadline(after: .seconds(10))
        var refused: (any Error)?
        while refused == nil {
            do {
                try await requests.withChild(Caller(name: "bob")) { _ in }
                if deadline.hasPassed() { Issue.record("timed out"); break }
                try await Task.sleep(for: .milliseconds(5))
            } catch {
                refused = error
            }
        }
        #expect(isShuttingDown(refused))
        #expect(throws: InjectionError.self) { try requests.withChild(Caller(name: "cy")) { _ in } }
        release.open()
        try await request.value
        _ = try await shutdown.value
    }

    @Test("a plain child's withChild is waited for, and refused once the drain began")
    func plainChildren() async throws {
        let root = try Injector(modules: [])
        let entered = Latch(), release = Latch()
        let request = Task {
            try await root.withChild { child in
                _ = try await child.instance(Client.self)
                entered.open()
                await release.wait()
            }
        }
        await entered.wait()
        let shutdown = Task { try await root.awaitShutDown(draining: .seconds(60)) }
        var deadline = PatientDeadline(after: .seconds(10))
        while (try? await root.withChild { _ in }) != nil {
            if deadline.hasPassed() { Issue.record("timed out"); break }
            try await Task.sleep(for: .milliseconds(5))
        }
        release.open()
        try await request.value
        #expect(try await shutdown.value == 0)
    }

    @Test("a body of a descendant's withChild is waited for, and a new one below is refused")
    func descendants() async throws {
        let (root, requests) = try server()
        let session = try root.child()
        let nested = try session.childTemplate(providing: Caller.self)
        let entered = Latch(), release = Latch()
        let request = Task {
            try await nested.withChild(Caller(name: "ada")) { _ in
                entered.open()
                await release.wait()
            }
        }
        await entered.wait()
        let shutdown = Task { try await root.awaitShutDown(draining: .seconds(60)) }
        var deadline = PatientDeadline(after: .seconds(10))
        while (try? await session.withChild { _ in }) != nil {
            if deadline.hasPassed() { Issue.record("timed out"); break }
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(throws: InjectionError.self) { try nested.withChild(Caller(name: "bob")) { _ in } }
        #expect(throws: InjectionError.self) { try requests.withChild(Caller(name: "bob")) { _ in } }
        release.open()
        try await request.value
        #expect(try await shutdown.value == 0)
    }

    @Test("a drain of a child waits for its own bodies only, and its siblings go on")
    func childDrainLeavesSiblings() async throws {
        let root = try Injector(modules: [])
        let left = try root.child(), right = try root.child()
        let entered = Latch(), release = Latch()
        let sibling = Task {
            try await right.withChild { _ in
                entered.open()
                await release.wait()
            }
        }
        await entered.wait()
        #expect(try await left.awaitShutDown(draining: .seconds(60)) == 0)
        try await right.withChild { child in _ = try await child.instance(Client.self) }
        release.open()
        try await sibling.value
    }

    // A drain that waited would wait for an hour: the time limit ends it (stalls of the whole
    // process's cooperative threads, which other suites cause, are no reason to fail).
    @Test("a drain with no body in flight shuts down at once", .timeLimit(.minutes(10)))
    func nothingInFlight() async throws {
        let (root, _) = try server()
        let client = try await root.instance(Client.self)
        #expect(try await root.awaitShutDown(draining: .seconds(3_600)) == 0)
        #expect(client.isClosed)
    }

    @Test("a synchronous withChild body running on a thread is waited for")
    func synchronousBody() async throws {
        let (root, requests) = try server()
        let entered = Latch()
        let release = Counter()
        let outcome = Locked<Bool?>(nil)
        let thread = onOwnThread {
            let clientClosed = try? requests.withChild(Caller(name: "ada")) { child in
                let work = try child.getInstance(Work.self)
                entered.open()
                while release.count == 0 { sched_yield() }
                return work.client.isClosed
            }
            outcome.withLock { $0 = clientClosed }
        }
        await entered.wait()
        let shutdown = Task { try await root.awaitShutDown(draining: .seconds(60)) }
        try await Task.sleep(for: .milliseconds(30))
        release.increment()
        await thread.wait()
        #expect(outcome.withLock { $0 } == false)
        #expect(try await shutdown.value == 0)
    }

    // MARK: The deadline, cancellation and races

    @Test("past the deadline the injector shuts down anyway, reports the bodies still running, and their requests throw")
    func deadlinePasses() async throws {
        let (root, requests) = try server()
        let entered = Latch(), release = Latch()
        let request = Task {
            try await requests.withChild(Caller(name: "ada")) { child in
                _ = try await child.instance(Work.self)
                entered.open()
                await release.wait()
                return Result { try child.getInstance(Work.self) }
            }
        }
        await entered.wait()
        #expect(try await root.awaitShutDown(draining: .milliseconds(50)) == 1)
        release.open()
        let later = try await request.value
        #expect(throws: InjectionError.self) { try later.get() }
    }

    @Test("cancelling a draining shutdown stops the wait and shuts down")
    func cancelledDrain() async throws {
        let (root, requests) = try server()
        let entered = Latch(), release = Latch()
        let request = Task {
            try await requests.withChild(Caller(name: "ada")) { _ in
                entered.open()
                await release.wait()
            }
        }
        await entered.wait()
        let shutdown = Task { try await root.awaitShutDown(draining: .seconds(3_600)) }
        try await Task.sleep(for: .milliseconds(20))
        shutdown.cancel()
        #expect(try await shutdown.value == 1)
        #expect(throws: InjectionError.self) { try root.getInstance(Client.self) }
        release.open()
        try await request.value
    }

    @Test("bodies racing a drain on threads are either refused whole or complete with open values")
    func bodiesRaceDrain() async throws {
        let (root, requests) = try server()
        let faults = Counter(), completed = Counter(), refused = Counter()
        let started = Latch(), draining = Latch()
        let racers = onOwnThread {
            race(threads: 6) { index in
                // Each thread makes requests until the drain refuses one. The drain begins once
                // a thread has made 20; until the shutdown is called, each thread pauses between
                // requests, so that six spinning threads do not keep the task that calls it
                // from running on a loaded machine (where other tests may hold the cooperative
                // threads for many minutes: no limit runs before the shutdown is called). A
                // thread the drain has not refused ten minutes after it was called stops
                // unrefused, and the test fails rather than hangs.
                var deadline: ContinuousClock.Instant?
                var round = 0
                while deadline.map({ ContinuousClock.now < $0 }) ?? true {
                    if round == 20 { started.open() }
                    if draining.isOpen {
                        if deadline == nil { deadline = ContinuousClock.now + .seconds(600) }
                    } else if round >= 20 {
                        usleep(1_000)
                    }
                    round += 1
                    do {
                        try requests.withChild(Caller(name: "\(index)")) { child in
                            let work = try child.getInstance(Work.self)
                            if work.isClosed || work.client.isClosed { faults.increment() }
                        }
                        completed.increment()
                    } catch {
                        refused.increment()
                        return
                    }
                }
            }
        }
        await started.wait()
        draining.open()
        _ = try await root.awaitShutDown(draining: .seconds(60))
        await racers.wait()
        #expect(faults.count == 0)
        #expect(refused.count == 6)
        #expect(completed.count > 0)
    }

    @Test("two draining shutdowns of one injector both return once the bodies ended")
    func twoDrains() async throws {
        let (root, requests) = try server()
        let entered = Latch(), release = Latch()
        let request = Task {
            try await requests.withChild(Caller(name: "ada")) { _ in
                entered.open()
                await release.wait()
            }
        }
        await entered.wait()
        let first = Task { try await root.awaitShutDown(draining: .seconds(60)) }
        let second = Task { try await root.awaitShutDown(draining: .seconds(60)) }
        try await Task.sleep(for: .milliseconds(20))
        release.open()
        try await request.value
        #expect(try await first.value == 0)
        #expect(try await second.value == 0)
    }

    @Test("a draining shutdown waits for a session's withCurrent body in flight, and refuses one that starts after it began")
    func waitsForSessionBodies() async throws {
        let (root, requests) = try server()
        let session = InjectorSession(requests)
        try await session.replace(Caller(name: "ada"))
        let entered = Latch(), release = Latch()
        let body = Task {
            try await session.withCurrent { child in
                let work = try await child.instance(Work.self)
                entered.open()
                await release.wait()
                return (work.isClosed, work.client.isClosed)
            }
        }
        await entered.wait()
        let drained = Latch()
        let shutdown = Task {
            let running = try await root.awaitShutDown(draining: .seconds(60))
            drained.open()
            return running
        }
        var deadline = PatientDeadline(after: .seconds(10))
        var refused: (any Error)?
        while refused == nil {
            do {
                try await session.withCurrent { _ in }
                if deadline.hasPassed() { Issue.record("timed out"); break }
                try await Task.sleep(for: .milliseconds(5))
            } catch {
                refused = error
            }
        }
        #expect(isShuttingDown(refused))
        #expect(!drained.isOpen)
        release.open()
        let (workClosed, clientClosed) = try await body.value
        #expect(!workClosed && !clientClosed)
        #expect(try await shutdown.value == 0)
    }
}
