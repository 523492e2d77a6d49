#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Sightless
import Synchronization
import Testing

// A custom scope may keep one `InstanceStorage` for the whole process and hand it to every
// injector that binds a key in it: a value shared by the injectors of parallel tests. Each root
// injector heads a family of its own, and the families race for that storage's one build. The
// first of them to shut down closes the value and seals the storage (Scopes.md).

/// Keeps one value for the whole process, whatever injector asks: one storage per key type.
private struct ProcessScope: ScopeStrategy {
    let storages: SharedStorages
    func scope<Value>(_ unscoped: Provision<Value>) -> Provision<Value> {
        unscoped.stored(in: storages.storage(for: unscoped.key))
    }
}

private final class SharedStorages: Sendable {
    private let byKey = Locked<[AnyKey: InstanceStorage]>([:])
    func storage(for key: AnyKey) -> InstanceStorage {
        byKey.withLock { storages in
            if let storage = storages[key] { return storage }
            let storage = InstanceStorage(key)
            storages[key] = storage
            return storage
        }
    }
}

/// Slow to build, so that every thread finds its build under way.
private final class SharedClock: Injectable, Sendable {
    static let builds = Atomic<Int>(0)
    init() {
        Self.builds.add(1, ordering: .relaxed)
        usleep(20_000)
    }
    static let initializer = Initializer(SharedClock.init)
}

private final class SharedConnection: Injectable, Closable, Sendable {
    let closes = Atomic<Int>(0)
    func close() { closes.add(1, ordering: .relaxed) }
    static let initializer = Initializer(SharedConnection.init)
}

private struct SharedClockModule: Module {
    let storages: SharedStorages
    func configure(_ binder: Binder) {
        binder.bind(SharedClock.self).in(Scope("process", ProcessScope(storages: storages)))
        binder.bind(SharedConnection.self).in(Scope("process", ProcessScope(storages: storages)))
    }
}

/// Keeps one value for the whole process, built synchronously or awaited once.
private struct AwaitedProcessScope: ScopeStrategy {
    let storages: SharedStorages
    func scope<Value>(_ unscoped: Provision<Value>) -> Provision<Value> {
        unscoped.stored(in: storages.storage(for: unscoped.key))
    }
    var awaitedScoping: AwaitedScoping { .keepsOne }
}

private final class SharedAwaitedClock: Injectable, Sendable {
    static let builds = Atomic<Int>(0)
    init() async {
        Self.builds.add(1, ordering: .relaxed)
        try? await Task.sleep(for: .milliseconds(20))
    }
    static let initializer = Initializer(SharedAwaitedClock.init)
}

private struct SharedAwaitedModule: Module {
    let storages: SharedStorages
    func configure(_ binder: Binder) {
        binder.bind(SharedAwaitedClock.self).in(Scope("process", AwaitedProcessScope(storages: storages)))
    }
}

@Suite("A storage shared by families of injectors")
struct SharedStorageTests {
    @Test("threads of two root injectors racing the first build of one shared storage all return its one value")
    func twoFamiliesRaceOneStorage() throws {
        let storages = SharedStorages()
        let injectors = try [Injector(modules: [SharedClockModule(storages: storages)]),
                             Injector(modules: [SharedClockModule(storages: storages)])]
        let before = SharedClock.builds.load(ordering: .relaxed)
        let values = Locked<[ObjectIdentifier]>([])
        let outcomes = regressionRunAll(count: 6, stackSize: regressionSmallStack, timeout: 20) { index in
            let clock = try injectors[index % 2].getInstance(SharedClock.self)
            values.withLock { $0.append(ObjectIdentifier(clock)) }
        }
        #expect(outcomes.allSatisfy { $0.returned }, "\(outcomes)")
        #expect(Set(values.withLock { $0 }).count == 1)
        #expect(SharedClock.builds.load(ordering: .relaxed) - before == 1)
    }

    @Test("an awaited value in a scope that keeps one is kept once per injector, as Scopes.md says, though the scope shares its storage")
    func twoFamiliesAwaitOneStorage() async throws {
        let storages = SharedStorages()
        let injectors = try [Injector(modules: [SharedAwaitedModule(storages: storages)]),
                             Injector(modules: [SharedAwaitedModule(storages: storages)])]
        let before = SharedAwaitedClock.builds.load(ordering: .relaxed)
        let values = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for index in 0..<6 {
                group.addTask { ObjectIdentifier(try await injectors[index % 2].instance(SharedAwaitedClock.self)) }
            }
            return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        // The injector awaits it for the scope, in a storage of its own (`AwaitedScoping.keepsOne`).
        #expect(values.count == 2)
        #expect(SharedAwaitedClock.builds.load(ordering: .relaxed) - before == 2)
    }

    @Test("shutting down one family closes the value of a shared storage and seals it: the other family's request is injectorShutDown, and the value is closed once")
    func shutdownOfOneFamily() throws {
        let storages = SharedStorages()
        let first = try Injector(modules: [SharedClockModule(storages: storages)])
        let second = try Injector(modules: [SharedClockModule(storages: storages)])
        let connection = try first.getInstance(SharedConnection.self)
        #expect(try second.getInstance(SharedConnection.self) === connection)
        try first.shutDown()
        #expect(connection.closes.load(ordering: .relaxed) == 1)
        #expect(Self.kind { try second.getInstance(SharedConnection.self) } == .injectorShutDown)
        try second.shutDown()
        #expect(connection.closes.load(ordering: .relaxed) == 1)
    }

    private static func kind(_ body: () throws -> SharedConnection) -> InjectionError.Kind? {
        do { _ = try body(); return nil } catch let error as InjectionError { return error.kind } catch { return nil }
    }
}
