import Sightless
import Testing

// Concurrency is paid for only where it can happen: a dependency that needs `await` only
// because of what it builds at once awaits nothing itself, so it is awaited in the requesting
// task, and the `async` builds under it run there too. Two or more dependencies of one
// initializer that await in place (an `async` build, a kept value, a value built on an actor)
// run at the same time, in child tasks (`ConcurrentAsyncDependencyTests`).

/// The tasks the `async` builds ran in, by the hash of each task: two tasks alive at the same
/// time never share one, and the requesting task outlives every build it awaits.
private final class TaskLog: Sendable {
    private let hashes = Locked<[Int]>([])

    func record() {
        let hash = Self.current()
        hashes.withLock { $0.append(hash) }
    }

    var all: [Int] { hashes.withLock { $0 } }

    static func current() -> Int {
        withUnsafeCurrentTask { task in task?.hashValue ?? 0 }
    }
}

private final class Connection: Sendable {}

private final class Store: Injectable, Sendable {
    let connection: Connection
    init(connection: Connection) { self.connection = connection }
    static let initializer = Initializer(Store.init(connection:))
}

private final class Mailer: Injectable, Sendable {
    let connection: Connection
    init(connection: Connection) { self.connection = connection }
    static let initializer = Initializer(Mailer.init(connection:))
}

/// Two dependencies that need `await` only through what they build.
private final class Signup: Injectable, Sendable {
    let store: Store
    let mailer: Mailer
    init(store: Store, mailer: Mailer) {
        self.store = store
        self.mailer = mailer
    }
    static let initializer = Initializer(Signup.init(store:mailer:))
}

private func connections(_ log: TaskLog) -> Bindings {
    Bindings { binder in
        binder.bind(Connection.self).to { _ async in
            await Task.yield()
            log.record()
            return Connection()
        }
    }
}

@Suite("Awaited in place")
struct AwaitedInPlaceTests {
    @Test("dependencies that need await only through what they build are awaited in the requesting task")
    func throughBuildsInRequestingTask() async throws {
        let log = TaskLog()
        let injector = try Injector(connections(log))
        let requesting = TaskLog.current()
        _ = try await injector.instance(Signup.self)
        #expect(log.all == [requesting, requesting])
    }

    @Test("an async build that is a direct dependency of one initializer beside another runs in a child task")
    func directAsyncBuildsInChildTasks() async throws {
        let log = TaskLog()
        let injector = try Injector(modules: [connections(log)]) { binder in
            binder.bind(Store.self).to { resolver async throws in Store(connection: try await resolver.instance(Connection.self)) }
            binder.bind(Mailer.self).to { resolver async throws in Mailer(connection: try await resolver.instance(Connection.self)) }
        }
        let requesting = TaskLog.current()
        _ = try await injector.instance(Signup.self)
        // The first is awaited in the requesting task, the second beside it in a child task.
        #expect(log.all.count == 2)
        #expect(log.all.filter { $0 == requesting }.count == 1)
    }
}
