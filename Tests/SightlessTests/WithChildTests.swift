import Sightless
import Testing

private final class ScopeLog: Sendable {
    private let entries = Locked<[String]>([])
    func add(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

private struct Visitor: Sendable {
    let name: String
}

private enum HandlerFailure: Error { case failed }

/// A request's resource: closed when its child is shut down.
private final class RequestSession: Injectable, Closable {
    let log: ScopeLog
    let visitor: Visitor
    init(log: ScopeLog, visitor: Visitor) {
        self.log = log
        self.visitor = visitor
    }
    static let initializer = Initializer(RequestSession.init(log:visitor:))
    func close() { log.add("session \(visitor.name)") }
}

/// A request's resource that closes with `await`.
private final class RequestStream: Injectable, AsyncClosable, Sendable {
    let log: ScopeLog
    let visitor: Visitor
    init(log: ScopeLog, visitor: Visitor) {
        self.log = log
        self.visitor = visitor
    }
    static let initializer = Initializer(RequestStream.init(log:visitor:))
    func close() async { log.add("stream \(visitor.name)") }
}

/// A value of a plain child, closed when the child is shut down.
private final class Report: Injectable, Closable {
    let log: ScopeLog
    init(log: ScopeLog) { self.log = log }
    static let initializer = Initializer(Report.init(log:))
    func close() { log.add("report") }
}

@Suite("Scoped children")
struct WithChildTests {
    private func requests(_ log: ScopeLog) throws -> ChildTemplate<Visitor> {
        let app = try Injector(Bindings { $0.bind(ScopeLog.self).to(instance: log) })
        return try app.childTemplate(providing: Visitor.self) { binder in
            binder.bind(RequestSession.self).in(.singleton)
            binder.bind(RequestStream.self).in(.singleton)
        }
    }

    @Test("withChild shuts the child down when its body returns, and returns the body's result")
    func closesOnReturn() throws {
        let log = ScopeLog()
        let name = try requests(log).withChild(Visitor(name: "ada")) { child in
            try child.getInstance(RequestSession.self).visitor.name
        }
        #expect(name == "ada")
        #expect(log.all == ["session ada"])
    }

    @Test("withChild shuts the child down when its body throws, and rethrows the body's error")
    func closesOnThrow() throws {
        let log = ScopeLog()
        let requests = try requests(log)
        #expect(throws: HandlerFailure.failed) {
            try requests.withChild(Visitor(name: "ada")) { child in
                _ = try child.getInstance(RequestSession.self)
                throw HandlerFailure.failed
            }
        }
        #expect(log.all == ["session ada"])
    }

    @Test("100 throwing requests close 100 sessions")
    func throwingRequestsCloseEverySession() throws {
        let log = ScopeLog()
        let requests = try requests(log)
        for index in 0..<100 {
            _ = try? requests.withChild(Visitor(name: "\(index)")) { child in
                _ = try child.getInstance(RequestSession.self)
                throw HandlerFailure.failed
            }
        }
        #expect(log.all.count == 100)
    }

    @Test("the synchronous withChild leaves AsyncClosable values to the async form")
    func synchronousLeavesAsyncClosables() throws {
        let log = ScopeLog()
        try requests(log).withChild(Visitor(name: "ada")) { child in
            _ = try child.getInstance(RequestStream.self)
            _ = try child.getInstance(RequestSession.self)
        }
        #expect(log.all == ["session ada"])
    }

    @Test("a child kept beyond withChild's body is shut down: its requests throw injectorShutDown")
    func escapedChildIsShutDown() throws {
        let requests = try requests(ScopeLog())
        let escaped = try requests.withChild(Visitor(name: "ada")) { child in child }
        let error = #expect(throws: InjectionError.self) { try escaped.getInstance(RequestSession.self) }
        #expect(error?.kind == .injectorShutDown)
    }

    @Test("a child's close failure is reported as closeFailed after a body that returned")
    func closeFailureReported() throws {
        final class Stuck: Injectable, Closable {
            static let initializer = Initializer(Stuck.init)
            func close() throws { throw HandlerFailure.failed }
        }
        let app = try Injector(modules: [])
        let requests = try app.childTemplate(providing: Visitor.self) { $0.bind(Stuck.self).in(.singleton) }
        let error = #expect(throws: InjectionError.self) {
            try requests.withChild(Visitor(name: "ada")) { child in _ = try child.getInstance(Stuck.self) }
        }
        #expect(error?.kind == .closeFailed)
    }

    @Test("nested children of one template are closed each by its own scope, the inner first")
    func nestedChildrenIndependent() throws {
        let log = ScopeLog()
        let requests = try requests(log)
        try requests.withChild(Visitor(name: "outer")) { outer in
            _ = try outer.getInstance(RequestSession.self)
            try requests.withChild(Visitor(name: "inner")) { inner in
                _ = try inner.getInstance(RequestSession.self)
            }
            #expect(log.all == ["session inner"])
            #expect(try outer.getInstance(RequestSession.self).visitor.name == "outer")
        }
        #expect(log.all == ["session inner", "session outer"])
    }

    @Test("overlapping scopes on many threads each close their own child's session, once")
    func overlappingChildrenIndependent() throws {
        let log = ScopeLog()
        let requests = try requests(log)
        race(threads: 8) { thread in
            for index in 0..<25 {
                try? requests.withChild(Visitor(name: "\(thread)-\(index)")) { child in
                    _ = try child.getInstance(RequestSession.self)
                }
            }
        }
        #expect(log.all.count == 200)
        #expect(Set(log.all).count == 200)
    }

    @Test("a plain child's withChild closes the child's values when its body returns")
    func plainChildCloses() throws {
        let log = ScopeLog()
        let app = try Injector(Bindings { $0.bind(ScopeLog.self).to(instance: log) })
        try app.withChild(modules: [Bindings { $0.bind(Report.self).in(.singleton) }]) { child in
            _ = try child.getInstance(Report.self)
        }
        #expect(log.all == ["report"])
        #expect(try app.getInstance(ScopeLog.self) === log)   // the parent goes on
    }

    @Test("the async withChild closes Closable and AsyncClosable values when its body returns")
    func asyncClosesOnReturn() async throws {
        let log = ScopeLog()
        let name = try await requests(log).withChild(Visitor(name: "ada")) { child in
            _ = try await child.instance(RequestSession.self)
            return try await child.instance(RequestStream.self).visitor.name
        }
        #expect(name == "ada")
        #expect(log.all == ["stream ada", "session ada"])
    }

    @Test("the async withChild closes the child when its body throws, and rethrows the body's error")
    func asyncClosesOnThrow() async throws {
        let log = ScopeLog()
        let requests = try requests(log)
        await #expect(throws: HandlerFailure.failed) {
            try await requests.withChild(Visitor(name: "ada")) { child in
                _ = try await child.instance(RequestStream.self)
                throw HandlerFailure.failed
            }
        }
        #expect(log.all == ["stream ada"])
    }

    @Test("a task cancelled inside the async withChild still closes the child")
    func asyncClosesOnCancellation() async throws {
        let log = ScopeLog()
        let requests = try requests(log)
        let (entered, signal) = AsyncStream<Void>.makeStream()
        let task = Task {
            try await requests.withChild(Visitor(name: "ada")) { child in
                _ = try await child.instance(RequestStream.self)
                signal.yield()
                // Ends only by cancellation.
                try await Task.sleep(for: .seconds(86_400))
            }
        }
        for await _ in entered { break }
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(log.all == ["stream ada"])
    }

    @Test("the async withChild of a plain child closes its values when its body returns")
    func asyncPlainChildCloses() async throws {
        let log = ScopeLog()
        let app = try Injector(Bindings { $0.bind(ScopeLog.self).to(instance: log) })
        try await app.withChild(modules: [Bindings { $0.bind(Report.self).in(.singleton) }]) { child in
            _ = try await child.instance(Report.self)
        }
        #expect(log.all == ["report"])
    }

    @Test("dropping a template's child releases its session without closing it")
    func droppingClosesNothing() throws {
        let log = ScopeLog()
        let requests = try requests(log)
        weak var released: RequestSession?
        do {
            let child = try requests.child(Visitor(name: "ada"))
            released = try child.getInstance(RequestSession.self)
        }
        #expect(released == nil)
        #expect(log.all.isEmpty)
    }

    @Test("made, used, shut down by its scope and dropped: the child's session is closed, then released")
    func scopedChildOverTime() throws {
        let log = ScopeLog()
        let requests = try requests(log)
        weak var released: RequestSession?
        try requests.withChild(Visitor(name: "ada")) { child in
            released = try child.getInstance(RequestSession.self)
            #expect(log.all.isEmpty)
        }
        #expect(log.all == ["session ada"])
        #expect(released == nil)
        // The template goes on making children.
        try requests.withChild(Visitor(name: "grace")) { child in _ = try child.getInstance(RequestSession.self) }
        #expect(log.all == ["session ada", "session grace"])
    }

    // In async code, a synchronous body picks the async withChild: the synchronous form is
    // unavailable there, so AsyncClosable values are closed and not left open.
    @Test("a template's withChild written in async code with a synchronous body closes AsyncClosable values")
    func templateSynchronousBodyInAsyncCode() async throws {
        let log = ScopeLog()
        let requests = try requests(log)
        try await requests.withChild(Visitor(name: "ada")) { child in
            _ = try child.getInstance(RequestStream.self)
        }
        #expect(log.all == ["stream ada"])
    }

    @Test("an injector's withChild written in async code with a synchronous body closes AsyncClosable values")
    func injectorSynchronousBodyInAsyncCode() async throws {
        let log = ScopeLog()
        let app = try Injector(Bindings { $0.bind(ScopeLog.self).to(instance: log) })
        let closing = Bindings { binder in
            binder.bind(Visitor.self).to(instance: Visitor(name: "grace"))
            binder.bind(RequestStream.self).in(.singleton)
        }
        try await app.withChild(modules: [closing]) { child in
            _ = try child.getInstance(RequestStream.self)
        }
        #expect(log.all == ["stream grace"])
    }
}
