import Sightless
import Testing

private final class Journal: Sendable {
    let entries = Locked<[String]>([])
    func write(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

private final class Disk: Closable, Sendable {
    let journal: Journal
    init(journal: Journal) { self.journal = journal }
    func close() throws { journal.write("disk") }
}

private final class Queue: AsyncClosable, Sendable {
    let journal: Journal
    let fails: Bool
    init(journal: Journal, disk: Disk, fails: Bool = false) {
        self.journal = journal
        self.fails = fails
    }
    func close() async throws {
        await Task.yield()
        journal.write("queue")
        if fails { throw OpenError.refused("queue") }
    }
}

private final class Socket: AsyncClosable, Sendable {
    let journal: Journal
    init(journal: Journal, queue: Queue) { self.journal = journal }
    func close() async throws {
        journal.write("socket")
        throw OpenError.refused("socket")
    }
}

private func closingBindings(_ journal: Journal, queueFails: Bool = false, socket: Bool = false) -> Bindings {
    Bindings { binder in
        binder.bind(Disk.self).to { _ in Disk(journal: journal) }.in(.singleton)
        binder.bind(Queue.self).to { resolver async throws in
            Queue(journal: journal, disk: try resolver.getInstance(Disk.self), fails: queueFails)
        }.in(.singleton)
        if socket {
            binder.bind(Socket.self).to { resolver async throws in
                Socket(journal: journal, queue: try await resolver.instance(Queue.self))
            }.in(.singleton)
        }
    }
}

@Suite("Async shutdown")
struct AsyncShutdownTests {
    @Test("awaitShutDown closes Closable and AsyncClosable values, newest first")
    func closesBothKindsNewestFirst() async throws {
        let journal = Journal()
        let injector = try Injector(closingBindings(journal))
        _ = try await injector.instance(Queue.self)
        try await injector.awaitShutDown()
        #expect(journal.all == ["queue", "disk"])
    }

    @Test("awaitShutDown closes each value once, however often it is called")
    func closesOnce() async throws {
        let journal = Journal()
        let injector = try Injector(closingBindings(journal))
        _ = try await injector.instance(Queue.self)
        try await injector.awaitShutDown()
        try await injector.awaitShutDown()
        try injector.shutDown()
        #expect(journal.all == ["queue", "disk"])
        let error = await #expect(throws: InjectionError.self) { _ = try await injector.instance(Queue.self) }
        #expect(error?.kind == .injectorShutDown)
    }

    @Test("the failures of several closes are reported together, and every value is closed")
    func failuresGathered() async throws {
        let journal = Journal()
        let injector = try Injector(closingBindings(journal, queueFails: true, socket: true))
        _ = try await injector.instance(Socket.self)
        let error = await #expect(throws: InjectionError.self) { try await injector.awaitShutDown() }
        #expect(error?.problems.map(\.kind) == [.closeFailed, .closeFailed])
        #expect(error?.problems.map(\.path) == [[Key<Socket>().erased], [Key<Queue>().erased]])
        #expect(journal.all == ["socket", "queue", "disk"])
    }

    @Test("the synchronous shutDown closes only the Closable values")
    func synchronousShutDownLeavesAsyncClosables() async throws {
        let journal = Journal()
        let injector = try Injector(closingBindings(journal))
        _ = try await injector.instance(Queue.self)
        try injector.shutDown()
        #expect(journal.all == ["disk"])
    }
}

/// Lets an awaited build wait, inside its closure, until the test has shut the injector down.
private final class Gate: Sendable {
    let started = Locked(false)
    let open = Locked(false)
    func wait() async {
        started.withLock { $0 = true }
        while !open.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(1)) }
    }
}

@Suite("Async shutdown racing a build")
struct AsyncShutdownRaceTests {
    @Test("an awaited singleton whose build straddles awaitShutDown is closed once, by its build, whose request throws injectorShutDown")
    func awaitedBuildStraddlingShutdown() async throws {
        let journal = Journal(), gate = Gate()
        let injector = try Injector(Bindings { binder in
            binder.bind(Disk.self).to { _ in Disk(journal: journal) }
            binder.bind(Queue.self).to { resolver async throws in
                let disk = try resolver.getInstance(Disk.self)
                await gate.wait()
                return Queue(journal: journal, disk: disk)
            }.in(.singleton)
        })
        let request = Task { try await injector.instance(Queue.self) }
        while !gate.started.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(1)) }
        try await injector.awaitShutDown()
        gate.open.withLock { $0 = true }
        let error = await #expect(throws: InjectionError.self) { _ = try await request.value }
        #expect(error?.kind == .injectorShutDown)
        #expect(journal.all == ["queue"])
    }

    @Test("a request in flight that needs a key not compiled yet after shutDown throws injectorShutDown")
    func compileAfterShutdownRefused() throws {
        final class Later: Injectable {
            init() {}
            static let initializer = Initializer(Later.init)
        }
        let injector = try Injector(Bindings { binder in
            binder.bind(Key<Int>(named: "asks")).to { resolver in
                try resolver.injector.shutDown()
                _ = try resolver.getInstance(Later.self)
                return 1
            }
        })
        let error = #expect(throws: InjectionError.self) { _ = try injector.getInstance(Key<Int>(named: "asks")) }
        #expect(error?.kind == .injectorShutDown)
    }
}
