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
