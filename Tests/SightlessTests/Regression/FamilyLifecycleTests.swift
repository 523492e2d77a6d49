import Sightless
import Synchronization
import Testing

// A family of injectors over time: per-child values released with their child however they
// were built, one child's shutdown touching only that child, and a parent's shutdown closing
// its family's values, children first, so that no injector hands out a value it closed.

private final class FamilyLog: Sendable {
    private let entries = Locked<[String]>([])
    func add(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

private final class FamilyPool: Injectable, Closable {
    let log: FamilyLog
    init(log: FamilyLog) { self.log = log }
    static let initializer = Initializer(FamilyPool.init(log:))
    static var scope: Scope { .singleton }
    func close() throws { log.add("pool") }
}

/// A per-child value built with `await`.
private final class AsyncSession: Injectable, Closable, Sendable {
    let log: FamilyLog
    init(log: FamilyLog) async { self.log = log }
    static let initializer = Initializer(AsyncSession.init(log:))
    func close() throws { log.add("async session") }
}

/// A per-child value built synchronously, over the family's pool.
/// A value a child keeps, which says which child's it is when it closes.
private final class TaggedSession: Injectable, Closable {
    let log: FamilyLog
    let tag: RequestID
    init(log: FamilyLog, tag: RequestID) {
        self.log = log
        self.tag = tag
    }
    static let initializer = Initializer(TaggedSession.init(log:tag:))
    func close() throws { log.add("session \(tag.value)") }
}

private final class SyncSession: Injectable, Closable {
    let log: FamilyLog
    let pool: FamilyPool
    init(log: FamilyLog, pool: FamilyPool) {
        self.log = log
        self.pool = pool
    }
    static let initializer = Initializer(SyncSession.init(log:pool:))
    func close() throws { log.add("session") }
}

/// A per-child value that holds a `Lazy` and a `Factory` of itself.
private final class SelfHolding: Injectable {
    let me: Lazy<SelfHolding>
    let more: Factory<SelfHolding>
    init(me: Lazy<SelfHolding>, more: Factory<SelfHolding>) {
        self.me = me
        self.more = more
    }
    static let initializer = Initializer(SelfHolding.init(me:more:))
}

/// A type first requested after a sibling's shutdown.
private final class LateType: Injectable {
    let pool: FamilyPool
    init(pool: FamilyPool) { self.pool = pool }
    static let initializer = Initializer(LateType.init(pool:))
}

private final class ChainInner: Sendable {
    let session: AsyncSession
    init(session: AsyncSession) { self.session = session }
}

private final class ChainOuter: Sendable {
    let inner: ChainInner
    init(inner: ChainInner) { self.inner = inner }
}

private final class RequestID: Sendable {
    let value: Int
    init(_ value: Int) { self.value = value }
}

@Suite("A family of injectors over time")
struct FamilyLifecycleTests {
    private func root(_ log: FamilyLog) throws -> Injector {
        try Injector(Bindings { $0.bind(FamilyLog.self).to(instance: log) })
    }

    @Test("a per-child singleton built by an async initializer is released with its child")
    func asyncPerChildReleased() async throws {
        let root = try root(FamilyLog())
        let template = try root.childTemplate(providing: RequestID.self) { binder in
            binder.bind(AsyncSession.self).in(.singleton)
        }
        let weak = RegressionWeak<AsyncSession>()
        do {
            let child = try template.child(RequestID(1))
            weak.object = try await child.instance(AsyncSession.self)
        }
        #expect(weak.object == nil)
    }

    @Test("a per-child singleton requested with await is released with its child")
    func awaitedSyncPerChildReleased() async throws {
        let root = try root(FamilyLog())
        let template = try root.childTemplate(providing: RequestID.self) { binder in
            binder.bind(SyncSession.self).in(.singleton)
        }
        let weak = RegressionWeak<SyncSession>()
        do {
            let child = try template.child(RequestID(1))
            weak.object = try await child.instance(SyncSession.self)
        }
        #expect(weak.object == nil)
    }

    @Test("a per-child singleton holding a Lazy and a Factory of itself is released with its child")
    func selfHoldingPerChildReleased() async throws {
        let root = try root(FamilyLog())
        let template = try root.childTemplate(providing: RequestID.self) { binder in
            binder.bind(SelfHolding.self).in(.singleton)
        }
        let weakSync = RegressionWeak<SelfHolding>(), weakAwaited = RegressionWeak<SelfHolding>()
        do {
            let child = try template.child(RequestID(1))
            weakSync.object = try child.getInstance(SelfHolding.self)
            #expect(try weakSync.object?.me.get() === weakSync.object)
        }
        do {
            let child = try template.child(RequestID(2))
            weakAwaited.object = try await child.instance(SelfHolding.self)
        }
        #expect(weakSync.object == nil)
        #expect(weakAwaited.object == nil)
    }

    @Test("a template child's async singletons of one type under two names are two values")
    func asyncPerChildSingletonsUnderTwoNames() async throws {
        let root = try root(FamilyLog())
        let template = try root.childTemplate(providing: RequestID.self) { binder in
            binder.bind(Key<AsyncSession>(named: "a")).to { resolver async throws in
                await AsyncSession(log: try resolver.getInstance(FamilyLog.self))
            }.in(.singleton)
            binder.bind(Key<AsyncSession>(named: "b")).to { resolver async throws in
                await AsyncSession(log: try resolver.getInstance(FamilyLog.self))
            }.in(.singleton)
        }
        let child = try template.child(RequestID(1))
        let a = try await child.instance(Key<AsyncSession>(named: "a"))
        let b = try await child.instance(Key<AsyncSession>(named: "b"))
        #expect(a !== b)
        #expect(a === (try await child.instance(Key<AsyncSession>(named: "a"))))
    }

    @Test("a template child's awaited chain of singletons over an async build returns")
    func awaitedPerChildChain() async throws {
        let root = try root(FamilyLog())
        let template = try root.childTemplate(providing: RequestID.self) { binder in
            binder.bind(AsyncSession.self).in(.singleton)
            binder.bind(ChainInner.self).to(Initializer(ChainInner.init(session:))).in(.singleton)
            binder.bind(ChainOuter.self).to(Initializer(ChainOuter.init(inner:))).in(.singleton)
        }
        let child = try template.child(RequestID(1))
        let finished = Locked(false)
        let request = Task {
            let outer = try await child.instance(ChainOuter.self)
            finished.withLock { $0 = true }
            return outer
        }
        // A hang fails the test rather than the suite: wait a bounded time for the request.
        for _ in 0..<2_000 where !finished.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(1)) }
        #expect(finished.withLock { $0 })
        if finished.withLock({ $0 }) {
            let outer = try await request.value
            #expect(outer.inner === (try await child.instance(ChainInner.self)))
        }
    }

    @Test("2,000 template children's per-child values, however built and asked for, are all released with their children")
    func manyChildrenReleased() async throws {
        let root = try root(FamilyLog())
        let template = try root.childTemplate(providing: RequestID.self) { binder in
            binder.bind(AsyncSession.self).in(.singleton)
            binder.bind(SyncSession.self).in(.singleton)
            binder.bind(SelfHolding.self).in(.singleton)
        }
        var weak: [RegressionWeak<AnyObject>] = []
        for index in 0..<2_000 {
            let child = try template.child(RequestID(index))
            switch index % 5 {
            case 0: weak.append(RegressionWeak(try await child.instance(AsyncSession.self)))
            case 1: weak.append(RegressionWeak(try await child.instance(SyncSession.self)))
            case 2: weak.append(RegressionWeak(try child.getInstance(SyncSession.self)))
            case 3:
                let holding = try await child.instance(SelfHolding.self)
                _ = try await holding.me.value
                _ = try holding.more.make()
                weak.append(RegressionWeak(holding))
            default:
                let holding = try child.getInstance(SelfHolding.self)
                _ = try holding.me.get()
                weak.append(RegressionWeak(holding))
            }
        }
        #expect(weak.filter { $0.object != nil }.count == 0)
    }

    @Test("a dropped child, plain or a template's, keeping values and children of its own, is released while its parent lives")
    func droppedChildrenReleased() throws {
        let root = try root(FamilyLog())
        let template = try root.childTemplate(providing: RequestID.self) { binder in
            binder.bind(SyncSession.self).in(.singleton)
        }
        let plain = RegressionWeak<Injector>(), templateChild = RegressionWeak<Injector>()
        let grandchild = RegressionWeak<Injector>()
        do {
            let child = try root.child { $0.bind(SyncSession.self).in(.singleton) }
            _ = try child.getInstance(SyncSession.self)
            let fromTemplate = try template.child(RequestID(1))
            _ = try fromTemplate.getInstance(SyncSession.self)
            let below = try fromTemplate.child { _ in }
            _ = try below.getInstance(LateType.self)
            plain.object = child
            templateChild.object = fromTemplate
            grandchild.object = below
        }
        #expect(plain.object == nil)
        #expect(templateChild.object == nil)
        #expect(grandchild.object == nil)
        _ = try root.getInstance(FamilyPool.self)
    }

    @Test("a template child's shutdown leaves its siblings and later children working")
    func siblingShutdown() throws {
        let log = FamilyLog()
        let root = try root(log)
        let template = try root.childTemplate(providing: RequestID.self) { binder in
            binder.bind(SyncSession.self).in(.singleton)
        }
        let a = try template.child(RequestID(1)), b = try template.child(RequestID(2))
        _ = try a.getInstance(SyncSession.self)
        _ = try b.getInstance(SyncSession.self)
        try a.shutDown()
        #expect(log.all == ["session"])
        #expect(throws: InjectionError.self) { try a.getInstance(LateType.self) }
        let late = try b.getInstance(LateType.self)
        let later = try template.child(RequestID(3)).getInstance(LateType.self)
        #expect(late.pool === later.pool)
        #expect(late.pool === (try root.getInstance(FamilyPool.self)))
    }

    @Test("a grandchild of a template child shares the family's singleton after a sibling's shutdown")
    func grandchildAfterSiblingShutdown() throws {
        let root = try root(FamilyLog())
        let template = try root.childTemplate(providing: RequestID.self) { _ in }
        try template.child(RequestID(1)).shutDown()
        let grandchild = try template.child(RequestID(2)).child { _ in }
        #expect(try grandchild.getInstance(LateType.self).pool === (try root.getInstance(FamilyPool.self)))
    }

    @Test("a shut-down injector makes no children")
    func noChildOfShutDown() throws {
        let root = try root(FamilyLog())
        let template = try root.childTemplate(providing: RequestID.self) { _ in }
        try root.shutDown()
        #expect { _ = try root.child { _ in } } throws: { ($0 as? InjectionError)?.kind == .injectorShutDown }
        #expect { _ = try template.child(RequestID(1)) } throws: { ($0 as? InjectionError)?.kind == .injectorShutDown }
    }

    @Test("a child of a shut-down injector's child is not made either")
    func noGrandchildOfShutDown() throws {
        let root = try root(FamilyLog())
        let child = try root.child { _ in }
        let template = try child.childTemplate(providing: RequestID.self) { _ in }
        try root.shutDown()
        #expect { _ = try child.child { _ in } } throws: { ($0 as? InjectionError)?.kind == .injectorShutDown }
        #expect { _ = try template.child(RequestID(1)) } throws: { ($0 as? InjectionError)?.kind == .injectorShutDown }
    }

    @Test("after a parent's shutdown its live children hand out none of its closed values")
    func childrenRefuseClosedValues() throws {
        let log = FamilyLog()
        let root = try root(log)
        let plain = try root.child { _ in }
        let template = try root.childTemplate(providing: RequestID.self) { _ in }
        let templateChild = try template.child(RequestID(1))
        let grandchild = try plain.child { _ in }
        _ = try root.getInstance(FamilyPool.self)
        _ = try plain.getInstance(FamilyPool.self)
        _ = try templateChild.getInstance(FamilyPool.self)
        _ = try grandchild.getInstance(FamilyPool.self)
        try root.shutDown()
        #expect(log.all == ["pool"])
        for member in [plain, templateChild, grandchild] {
            #expect { _ = try member.getInstance(FamilyPool.self) } throws: {
                ($0 as? InjectionError)?.kind == .injectorShutDown
            }
        }
    }

    @Test("a parent's shutdown closes its live children's values first, newest child first")
    func parentClosesChildrenFirst() throws {
        let log = FamilyLog()
        let root = try root(log)
        let template = try root.childTemplate(providing: RequestID.self) { binder in
            binder.bind(SyncSession.self).in(.singleton)
        }
        let first = try template.child(RequestID(1)), second = try template.child(RequestID(2))
        let plain = try root.child { $0.bind(SyncSession.self).in(.singleton) }
        _ = try first.getInstance(SyncSession.self)
        _ = try plain.getInstance(SyncSession.self)
        _ = try second.getInstance(SyncSession.self)
        try root.shutDown()
        #expect(log.all == ["session", "session", "session", "pool"])
        for member in [first, second, plain] {
            #expect { _ = try member.getInstance(SyncSession.self) } throws: {
                ($0 as? InjectionError)?.kind == .injectorShutDown
            }
        }
    }

    @Test("an awaited shutdown of a parent closes its children's values before its own")
    func awaitedParentClosesChildrenFirst() async throws {
        let log = FamilyLog()
        let root = try root(log)
        let template = try root.childTemplate(providing: RequestID.self) { binder in
            binder.bind(AsyncSession.self).in(.singleton)
        }
        let child = try template.child(RequestID(1))
        _ = try root.getInstance(FamilyPool.self)
        _ = try await child.instance(AsyncSession.self)
        try await root.awaitShutDown()
        #expect(log.all == ["async session", "pool"])
        await #expect { _ = try await child.instance(AsyncSession.self) } throws: {
            ($0 as? InjectionError)?.kind == .injectorShutDown
        }
    }

    @Test("a child shut down before its parent is not closed twice")
    func childClosedOnce() throws {
        let log = FamilyLog()
        let root = try root(log)
        let child = try root.child { $0.bind(SyncSession.self).in(.singleton) }
        _ = try child.getInstance(SyncSession.self)
        try child.shutDown()
        try root.shutDown()
        #expect(log.all == ["session", "pool"])
    }

    @Test("a dropped child is not shut down by its parent")
    func droppedChildForgotten() throws {
        let log = FamilyLog()
        let root = try root(log)
        do {
            let child = try root.child { _ in }
            _ = try child.getInstance(LateType.self)
        }
        try root.shutDown()
        #expect(log.all == ["pool"])
    }

    @Test("children made where dropped ones were are closed by the parent's shutdown, newest first")
    func childrenMadeAfterDropsClosedNewestFirst() throws {
        let log = FamilyLog()
        let root = try root(log)
        let template = try root.childTemplate(providing: RequestID.self) { binder in
            binder.bind(TaggedSession.self).in(.singleton)
        }
        func child(_ tag: Int) throws -> Injector {
            let child = try template.child(RequestID(tag))
            _ = try child.getInstance(TaggedSession.self)
            return child
        }
        var children: [Injector?] = try (0..<6).map(child)
        for index in [1, 4, 0] { children[index] = nil }
        children += try (6..<10).map(child)
        children[7] = nil
        try root.shutDown()
        #expect(log.all == ["session 9", "session 8", "session 6", "session 5", "session 3", "session 2"])
    }

    @Test("a parent's shutdown closes the values of the children still alive, whatever order the others were dropped in")
    func droppedInAnyOrder() throws {
        let log = FamilyLog()
        let root = try root(log)
        let template = try root.childTemplate(providing: RequestID.self) { binder in
            binder.bind(SyncSession.self).in(.singleton)
        }
        var children: [Injector?] = try (0..<12).map { index in
            let child = index.isMultiple(of: 2) ? try template.child(RequestID(index))
                : try root.child { $0.bind(SyncSession.self).in(.singleton) }
            _ = try child.getInstance(SyncSession.self)
            return child
        }
        for index in [3, 0, 11, 7, 4, 8] { children[index] = nil }
        try root.shutDown()
        #expect(log.all == Array(repeating: "session", count: 6) + ["pool"])
    }

    @Test("children made, used and dropped on several threads while the parent shuts down close each value handed out exactly once")
    func shutdownRacingChildren() throws {
        let root = try root(FamilyLog())
        let template = try root.childTemplate(providing: RequestID.self) { binder in
            binder.bind(CountingSession.self).in(.singleton)
        }
        let kept = Locked<[(Injector, CountingSession)]>([])
        let dropped = Locked<[CountingSession]>([])
        race(threads: 4) { thread in
            if thread == 0 {
                for _ in 0..<100 { _ = try? template.child(RequestID(0)) }
                try? root.shutDown()
                return
            }
            for index in 0..<300 {
                guard let child = try? (index.isMultiple(of: 3) ? root.child { $0.bind(CountingSession.self).in(.singleton) }
                                        : template.child(RequestID(index))),
                      let session = try? child.getInstance(CountingSession.self) else { continue }
                if index.isMultiple(of: 5) { try? child.shutDown() }
                if index.isMultiple(of: 2) {
                    kept.withLock { $0.append((child, session)) }
                } else {
                    dropped.withLock { $0.append(session) }
                }
            }
        }
        try root.shutDown()
        // A session handed out by a child that is still alive was closed once, by its child's
        // shutdown or its parent's; one whose child was dropped was closed at most once.
        for (_, session) in kept.withLock({ $0 }) { #expect(session.closes.load(ordering: .relaxed) == 1) }
        for session in dropped.withLock({ $0 }) { #expect(session.closes.load(ordering: .relaxed) <= 1) }
        #expect { _ = try template.child(RequestID(1)) } throws: { ($0 as? InjectionError)?.kind == .injectorShutDown }
    }
}

/// A per-child value that counts its closes.
private final class CountingSession: Injectable, Closable {
    let closes = Atomic<Int>(0)
    static let initializer = Initializer(CountingSession.init)
    func close() throws { closes.add(1, ordering: .relaxed) }
}
