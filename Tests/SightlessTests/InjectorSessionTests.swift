import Sightless
import Synchronization
import Testing

private struct Account: Sendable {
    let name: String
}

private final class SessionLog: Sendable {
    private let entries = Locked<[String]>([])
    func add(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

private enum SessionFailure: Error { case failed, closing }

/// A session's value: closed when its session is.
private final class Inbox: Injectable, Closable, Sendable {
    let account: Account
    let log: SessionLog
    private let closed = Atomic<Bool>(false)
    init(log: SessionLog, account: Account) {
        self.log = log
        self.account = account
    }
    static let initializer = Initializer(Inbox.init(log:account:))
    var isClosed: Bool { closed.load(ordering: .sequentiallyConsistent) }
    func close() {
        closed.store(true, ordering: .sequentiallyConsistent)
        log.add("inbox \(account.name)")
    }
}

/// A session's value that closes with `await`.
private final class Keychain: Injectable, AsyncClosable, Sendable {
    let account: Account
    let log: SessionLog
    init(log: SessionLog, account: Account) {
        self.log = log
        self.account = account
    }
    static let initializer = Initializer(Keychain.init(log:account:))
    func close() async { log.add("keychain \(account.name)") }
}

/// A session's value whose close throws.
private final class Outbox: Injectable, Closable, Sendable {
    init() {}
    static let initializer = Initializer(Outbox.init)
    func close() throws { throw SessionFailure.closing }
}

@Suite("Sessions")
struct InjectorSessionTests {
    private func sessions(_ log: SessionLog) throws -> (Injector, InjectorSession<Account>) {
        let app = try Injector(Bindings { $0.bind(SessionLog.self).to(instance: log) })
        let template = try app.childTemplate(providing: Account.self) { binder in
            binder.bind(Inbox.self).in(.singleton)
            binder.bind(Keychain.self).in(.singleton)
            binder.bind(Outbox.self).in(.singleton)
        }
        return (app, InjectorSession(template))
    }

    private func noSession(_ error: any Error) -> Bool {
        (error as? InjectionError)?.kind == .noSession
    }

    // MARK: Regressions: what a session promises

    @Test("withCurrent throws noSession before the first replace, naming the session and the fix")
    func noSessionBeforeReplace() throws {
        let (_, session) = try sessions(SessionLog())
        #expect(!session.isActive)
        let error = try #require(throws: InjectionError.self) {
            try session.withCurrent { _ in }
        }
        #expect(error.kind == .noSession)
        #expect("\(error)".contains("InjectorSession<Account> has no session"))
        #expect("\(error)".contains("session.replace("))
    }

    @Test("replace starts a session whose child withCurrent hands its body")
    func replaceStarts() throws {
        let (_, session) = try sessions(SessionLog())
        try session.replace(Account(name: "ada"))
        #expect(session.isActive)
        let name = try session.withCurrent { child in try child.getInstance(Inbox.self).account.name }
        #expect(name == "ada")
    }

    @Test("one session's bodies share its values")
    func bodiesShareValues() throws {
        let (_, session) = try sessions(SessionLog())
        try session.replace(Account(name: "ada"))
        let first = try session.withCurrent { child in try child.getInstance(Inbox.self) }
        let second = try session.withCurrent { child in try child.getInstance(Inbox.self) }
        #expect(first === second)
    }

    @Test("replace closes the old session's values at once when no body uses it")
    func replaceClosesUnused() throws {
        let log = SessionLog()
        let (_, session) = try sessions(log)
        try session.replace(Account(name: "ada"))
        let ada = try session.withCurrent { child in try child.getInstance(Inbox.self) }
        try session.replace(Account(name: "bob"))
        #expect(ada.isClosed)
        #expect(log.all == ["inbox ada"])
        let bob = try session.withCurrent { child in try child.getInstance(Inbox.self) }
        #expect(bob.account.name == "bob")
        #expect(!bob.isClosed)
    }

    @Test("the async replace closes the old session's AsyncClosable values too")
    func asyncReplaceClosesAsyncValues() async throws {
        let log = SessionLog()
        let (_, session) = try sessions(log)
        try await session.replace(Account(name: "ada"))
        _ = try await session.withCurrent { child in try await child.instance(Keychain.self) }
        _ = try await session.withCurrent { child in try await child.instance(Inbox.self) }
        try await session.replace(Account(name: "bob"))
        #expect(log.all == ["inbox ada", "keychain ada"])
    }

    @Test("the synchronous replace closes only Closable values, as shutDown() does")
    func syncReplaceLeavesAsyncValues() throws {
        let log = SessionLog()
        let (_, session) = try sessions(log)
        try session.replace(Account(name: "ada"))
        _ = try session.withCurrent { child in try child.getInstance(Keychain.self) }
        _ = try session.withCurrent { child in try child.getInstance(Inbox.self) }
        try session.replace(Account(name: "bob"))
        #expect(log.all == ["inbox ada"])
    }

    @Test("a body that began before a replacement keeps its session whole, its values open until it returns")
    func bodyKeepsItsSession() async throws {
        let log = SessionLog()
        let (_, session) = try sessions(log)
        try await session.replace(Account(name: "ada"))
        let entered = Latch(), release = Latch()
        let body = Task {
            try await session.withCurrent { child in
                let before = try await child.instance(Inbox.self)
                entered.open()
                await release.wait()
                let after = try await child.instance(Inbox.self)
                return (before === after, after.isClosed, after.account.name)
            }
        }
        await entered.wait()
        let replaced = Latch()
        let replacement = Task {
            try await session.replace(Account(name: "bob"))
            replaced.open()
        }
        // The new session is current at once; the old one waits for its body.
        var deadline = PatientDeadline(after: .seconds(10))
        while !(try await session.withCurrent { child in try child.getInstance(Inbox.self).account.name == "bob" }) {
            if deadline.hasPassed() { Issue.record("timed out"); break }
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(!replaced.isOpen)
        #expect(log.all == [])
        release.open()
        let (same, closed, name) = try await body.value
        try await replacement.value
        #expect(same && !closed && name == "ada")
        #expect(log.all == ["inbox ada"])
    }

    @Test("the async replace returns only once the old session's last body returned and it is closed")
    func asyncReplaceAwaitsClose() async throws {
        let log = SessionLog()
        let (_, session) = try sessions(log)
        try await session.replace(Account(name: "ada"))
        let entered = Latch(), release = Latch()
        let body = Task {
            try await session.withCurrent { child in
                _ = try await child.instance(Keychain.self)
                entered.open()
                await release.wait()
            }
        }
        await entered.wait()
        let replacement = Task { try await session.replace(Account(name: "bob")) }
        try await Task.sleep(for: .milliseconds(50))
        #expect(log.all == [])
        release.open()
        try await body.value
        try await replacement.value
        #expect(log.all == ["keychain ada"])
    }

    @Test("the synchronous replace during a body leaves the close to that body, which closes it as it returns")
    func syncReplaceLeavesCloseToBody() throws {
        let log = SessionLog()
        let (_, session) = try sessions(log)
        try session.replace(Account(name: "ada"))
        let name = try session.withCurrent { child in
            let inbox = try child.getInstance(Inbox.self)
            try session.replace(Account(name: "bob"))   // from the body itself: no wait
            #expect(!inbox.isClosed)
            #expect(log.all == [])
            return try child.getInstance(Inbox.self).account.name
        }
        #expect(name == "ada")
        #expect(log.all == ["inbox ada"])
    }

    @Test("in async code, a synchronous body that was last to use a replaced session closes its AsyncClosable values too")
    func syncBodyInAsyncCodeClosesAsyncValues() async throws {
        let log = SessionLog()
        let (_, session) = try sessions(log)
        try await session.replace(Account(name: "ada"))
        // A synchronous body, written in async code: the async form runs it.
        let name = try await session.withCurrent { child in
            _ = try child.getInstance(Keychain.self)
            try session.replace(Account(name: "bob"))
            return try child.getInstance(Keychain.self).account.name
        }
        #expect(name == "ada")
        #expect(log.all == ["keychain ada"])
    }

    @Test("an async body that replaces its own session does not wait for itself, and closes the old one as it returns")
    func asyncBodyReplacesItsOwnSession() async throws {
        let log = SessionLog()
        let (_, session) = try sessions(log)
        try await session.replace(Account(name: "ada"))
        try await session.withCurrent { child in
            _ = try await child.instance(Keychain.self)
            try await session.replace(Account(name: "bob"))
            #expect(log.all == [])
        }
        #expect(log.all == ["keychain ada"])
    }

    @Test("a replacement from a task a body awaits does not wait for that body")
    func replacementFromChildTaskOfBody() async throws {
        let log = SessionLog()
        let (_, session) = try sessions(log)
        try await session.replace(Account(name: "ada"))
        try await session.withCurrent { child in
            _ = try await child.instance(Inbox.self)
            async let replaced: Void = session.replace(Account(name: "bob"))
            try await replaced
        }
        #expect(log.all == ["inbox ada"])
    }

    @Test("a body that throws leaves its session, closing it when replaced, and its error wins over a failing close")
    func throwingBodyCloses() throws {
        let log = SessionLog()
        let (_, session) = try sessions(log)
        try session.replace(Account(name: "ada"))
        #expect(throws: SessionFailure.failed) {
            try session.withCurrent { child in
                _ = try child.getInstance(Inbox.self)
                _ = try child.getInstance(Outbox.self)
                try session.replace(Account(name: "bob"))
                throw SessionFailure.failed
            }
        }
        #expect(log.all == ["inbox ada"])
    }

    @Test("a body that was last to use a replaced session reports its failure to close")
    func lastBodyReportsCloseFailure() throws {
        let (_, session) = try sessions(SessionLog())
        try session.replace(Account(name: "ada"))
        let error = try #require(throws: InjectionError.self) {
            try session.withCurrent { child in
                _ = try child.getInstance(Outbox.self)
                try session.replace(Account(name: "bob"))
            }
        }
        #expect(error.kind == .closeFailed)
        #expect(session.isActive)
    }

    @Test("replace reports a failure to close the old session, and the new one is current all the same")
    func replaceReportsCloseFailure() throws {
        let (_, session) = try sessions(SessionLog())
        try session.replace(Account(name: "ada"))
        _ = try session.withCurrent { child in try child.getInstance(Outbox.self) }
        let error = try #require(throws: InjectionError.self) { try session.replace(Account(name: "bob")) }
        #expect(error.kind == .closeFailed)
        let name = try session.withCurrent { child in try child.getInstance(Inbox.self).account.name }
        #expect(name == "bob")
    }

    @Test("a replacement cancelled while it waits returns, and the old session's last body closes it")
    func cancelledReplacementHandsOver() async throws {
        let log = SessionLog()
        let (_, session) = try sessions(log)
        try await session.replace(Account(name: "ada"))
        let entered = Latch(), release = Latch()
        let body = Task {
            try await session.withCurrent { child in
                _ = try await child.instance(Keychain.self)
                entered.open()
                await release.wait()
            }
        }
        await entered.wait()
        let replacement = Task { try await session.replace(Account(name: "bob")) }
        try await Task.sleep(for: .milliseconds(20))
        replacement.cancel()
        try await replacement.value
        #expect(log.all == [])
        release.open()
        try await body.value
        #expect(log.all == ["keychain ada"])
    }

    @Test("end makes withCurrent throw noSession and closes the ended session")
    func endLogsOut() async throws {
        let log = SessionLog()
        let (_, session) = try sessions(log)
        try await session.replace(Account(name: "ada"))
        _ = try await session.withCurrent { child in try await child.instance(Keychain.self) }
        try await session.end()
        #expect(!session.isActive)
        #expect(log.all == ["keychain ada"])
        #expect(throws: InjectionError.self) { try session.withCurrent { _ in } }
        try await session.end()   // no session: nothing to do
    }

    @Test("replace after end starts a new session")
    func replaceAfterEnd() throws {
        let (_, session) = try sessions(SessionLog())
        try session.replace(Account(name: "ada"))
        try session.end()
        try session.replace(Account(name: "bob"))
        let name = try session.withCurrent { child in try child.getInstance(Inbox.self).account.name }
        #expect(name == "bob")
    }

    @Test("a failed replace leaves the old session current")
    func failedReplaceKeepsOld() throws {
        final class Eager: Injectable {
            init() throws { throw SessionFailure.failed }
            static let initializer = Initializer(Eager.init)
        }
        let app = try Injector(modules: [])
        let template = try app.childTemplate(providing: Account.self) { binder in
            binder.bind(Eager.self).in(.eagerSingleton)
        }
        let session = InjectorSession(template)
        #expect(throws: InjectionError.self) { try session.replace(Account(name: "ada")) }
        #expect(!session.isActive)
    }

    @Test("the parent's shutdown closes the current session's values; replace then throws injectorShutDown")
    func parentShutdownClosesSession() async throws {
        let log = SessionLog()
        let (app, session) = try sessions(log)
        try await session.replace(Account(name: "ada"))
        _ = try await session.withCurrent { child in try await child.instance(Keychain.self) }
        try await app.awaitShutDown()
        #expect(log.all == ["keychain ada"])
        let error = await #expect(throws: InjectionError.self) { try await session.replace(Account(name: "bob")) }
        #expect(error?.kind == .injectorShutDown)
        let request = await #expect(throws: InjectionError.self) {
            try await session.withCurrent { child in try await child.instance(Inbox.self) }
        }
        #expect(request?.kind == .injectorShutDown)
        try await session.end()
        #expect(log.all == ["keychain ada"])
    }

    @Test("an ended session's child is released, and so is the child of a dropped InjectorSession")
    func childrenReleased() throws {
        weak var ended: Injector?
        weak var dropped: Injector?
        let (_, session) = try sessions(SessionLog())
        try session.replace(Account(name: "ada"))
        try session.withCurrent { child in ended = child }
        try session.end()
        #expect(ended == nil)
        var other: InjectorSession<Account>? = InjectorSession(session.template)
        try other?.replace(Account(name: "bob"))
        try other?.withCurrent { child in dropped = child }
        other = nil
        #expect(dropped == nil)
    }

    // MARK: Over time and in races

    @Test("make, use, replace many times and end: every session's values closed exactly once")
    func manyReplacements() async throws {
        let log = SessionLog()
        let (_, session) = try sessions(log)
        for index in 0..<50 {
            try await session.replace(Account(name: "u\(index)"))
            _ = try await session.withCurrent { child in try await child.instance(Inbox.self) }
        }
        try await session.end()
        #expect(log.all == (0..<50).map { "inbox u\($0)" })
    }

    @Test("replacements racing each other on threads close every replaced session once and leave one current")
    func replaceRacesReplace() throws {
        let log = SessionLog()
        let (_, session) = try sessions(log)
        race(threads: 8) { index in
            for round in 0..<25 {
                try? session.replace(Account(name: "t\(index)r\(round)"))
                _ = try? session.withCurrent { child in try child.getInstance(Inbox.self) }
            }
        }
        let current = try session.withCurrent { child in try child.getInstance(Inbox.self).account.name }
        try session.end()
        let closed = log.all
        #expect(Set(closed).count == closed.count)
        #expect(closed.last == "inbox \(current)")
    }

    @Test("bodies racing replacements on threads each see one session whole and never a closed value")
    func bodiesRaceReplacementsOnThreads() throws {
        let log = SessionLog()
        let (_, session) = try sessions(log)
        try session.replace(Account(name: "start"))
        let mixed = Counter()
        race(threads: 8) { index in
            for round in 0..<200 {
                if index == 0, round % 4 == 0 {
                    try? session.replace(Account(name: "r\(round)"))
                    continue
                }
                _ = try? session.withCurrent { child in
                    let first = try child.getInstance(Inbox.self)
                    let account = try child.getInstance(Account.self)
                    let again = try child.getInstance(Inbox.self)
                    if first !== again || first.account.name != account.name || again.isClosed {
                        mixed.increment()
                    }
                }
            }
        }
        try session.end()
        #expect(mixed.count == 0)
        #expect(Set(log.all).count == log.all.count)
    }

    @Test("tasks racing async replacements each see one session whole, and every replaced session is closed")
    func bodiesRaceReplacementsInTasks() async throws {
        let log = SessionLog()
        let (_, session) = try sessions(log)
        try await session.replace(Account(name: "start"))
        let mixed = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for round in 0..<20 {
                    try await session.replace(Account(name: "r\(round)"))
                    await Task.yield()
                }
            }
            for _ in 0..<6 {
                group.addTask {
                    for _ in 0..<100 {
                        try await session.withCurrent { child in
                            let first = try await child.instance(Keychain.self)
                            await Task.yield()
                            let again = try await child.instance(Keychain.self)
                            let inbox = try await child.instance(Inbox.self)
                            if first !== again || inbox.isClosed || inbox.account.name != first.account.name {
                                mixed.increment()
                            }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        try await session.end()
        #expect(mixed.count == 0)
        let keychains = log.all.filter { $0.hasPrefix("keychain") }
        #expect(Set(keychains).count == keychains.count)
        #expect(keychains.last == "keychain r19")
    }

    @Test("a body cancelled while it runs still leaves its session, closing it when it was replaced")
    func cancelledBodyLeaves() async throws {
        let log = SessionLog()
        let (_, session) = try sessions(log)
        try await session.replace(Account(name: "ada"))
        let entered = Latch()
        let body = Task {
            try await session.withCurrent { child in
                _ = try await child.instance(Inbox.self)
                try await session.replace(Account(name: "bob"))
                entered.open()
                try await Task.sleep(for: .seconds(86_400))
            }
        }
        await entered.wait()
        body.cancel()
        await #expect(throws: CancellationError.self) { try await body.value }
        #expect(log.all == ["inbox ada"])
    }
}
