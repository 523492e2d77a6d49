import Sightless
import Synchronization
import Testing

// A small app's worth of types, built from one shared injector by many threads at once.

/// Counts the instances built of each kind, for one injector.
private final class Tally: Sendable {
    let clocks = Counter()
    let sessions = Counter()
}

/// A singleton with no dependencies.
private final class Clock: Injectable, Sendable {
    let tally: Tally
    init(tally: Tally) {
        self.tally = tally
        tally.clocks.increment()
    }
    static let initializer = Initializer(Clock.init(tally:))
}

/// A singleton that depends on another singleton.
private final class Session: Injectable, Sendable {
    let clock: Clock
    init(clock: Clock, tally: Tally) {
        self.clock = clock
        tally.sessions.increment()
    }
    static let initializer = Initializer(Session.init(clock:tally:))
}

/// Unscoped, with an unscoped dependency and a singleton one.
private final class Formatter: Injectable, Sendable {
    let clock: Clock
    init(clock: Clock) { self.clock = clock }
    static let initializer = Initializer(Formatter.init(clock:))
}

private final class Presenter: Injectable, Sendable {
    let session: Session
    let formatter: Formatter
    init(session: Session, formatter: Formatter) {
        self.session = session
        self.formatter = formatter
    }
    static let initializer = Initializer(Presenter.init(session:formatter:))
}

/// Takes two dynamic arguments between injected ones.
private final class Detail: Injectable, Sendable {
    let session: Session
    let id: Int
    let title: String
    let presenter: Presenter
    init(session: Session, id: Int, title: String, presenter: Presenter) {
        self.session = session
        self.id = id
        self.title = title
        self.presenter = presenter
    }
    static let initializer = Initializer(Detail.init(session:id:title:presenter:), .inject, .dynamic, .dynamic, .inject)
}

/// Reached by no binding: compiled on its first request.
private final class LateComer: Injectable, Sendable {
    let session: Session
    let presenter: Presenter
    init(session: Session, presenter: Presenter) {
        self.session = session
        self.presenter = presenter
    }
    static let initializer = Initializer(LateComer.init(session:presenter:))
}

/// Made elsewhere, then filled by `inject(into:)`.
private final class Form: Injectable, @unchecked Sendable {
    var session: Session?
    var presenter: Presenter?
    var awokeFilled = false
    init() {}
    static let initializer = Initializer(Form.init)
    static let properties = Properties<Form>().inject(\.session).inject(\.presenter)
    func awakeFromInjection() { awokeFilled = session != nil && presenter != nil }
}

private func appInjector(_ tally: Tally = Tally()) throws -> Injector {
    try Injector(Bindings { binder in
        binder.bind(Tally.self).to(instance: tally)
        binder.bind(Clock.self).in(.singleton)
        binder.bind(Session.self).in(.singleton)
        binder.bind(Presenter.self)
        binder.bind(Detail.self)
    })
}

/// Everything one thread built, kept alive so that distinct objects have distinct identities.
private struct Built: Sendable {
    var sessions: [Session] = []
    var presenters: [Presenter] = []
    var details: [(id: Int, title: String, detail: Detail)] = []
    var lateComers: [LateComer] = []
    var forms: [Form] = []
    var failures: [String] = []
}

private let threads = 8

@Suite("Concurrency")
struct ConcurrencyTests {
    @Test("a singleton's initializer runs exactly once per injector across 1,000 races")
    func singletonOncePerInjector() throws {
        for _ in 0..<1_000 {
            let tally = Tally()
            let injector = try appInjector(tally)
            let seen = Locked<Set<ObjectIdentifier>>([])
            let failed = Counter()
            race(threads: threads) { _ in
                guard let session = try? injector.getInstance(Session.self) else { return failed.increment() }
                seen.withLock { _ = $0.insert(ObjectIdentifier(session)) }
            }
            #expect(failed.count == 0)
            #expect(tally.sessions.count == 1)
            #expect(tally.clocks.count == 1)
            #expect(seen.withLock { $0.count } == 1)
        }
    }

    @Test("a type compiled on first request by racing threads is compiled once and shares the singletons")
    func justInTimeUnderContention() throws {
        for _ in 0..<200 {
            let tally = Tally()
            let injector = try appInjector(tally)
            let built = Locked<[LateComer]>([])
            race(threads: threads) { _ in
                guard let late = try? injector.getInstance(LateComer.self) else { return }
                built.withLock { $0.append(late) }
            }
            let lateComers = built.withLock { $0 }
            #expect(lateComers.count == threads)
            #expect(Set(lateComers.map { ObjectIdentifier($0.session) }).count == 1)
            #expect(Set(lateComers.map { ObjectIdentifier($0) }).count == threads)
            #expect(tally.sessions.count == 1)
        }
    }

    @Test("threads resolving singletons, graphs, arguments, new types and members at once each get the right objects")
    func mixedRequests() throws {
        let tally = Tally()
        let injector = try appInjector(tally)
        let rounds = 200
        let results = Locked<[Built]>([])
        race(threads: threads) { thread in
            var built = Built()
            for round in 0..<rounds {
                do {
                    switch (thread + round) % 5 {
                    case 0: built.sessions.append(try injector.getInstance(Session.self))
                    case 1: built.presenters.append(try injector.getInstance(Presenter.self))
                    case 2:
                        let id = thread * rounds + round
                        let title = "t\(thread)-\(round)"
                        built.details.append((id, title, try injector.getInstance(Detail.self, arguments: id, title)))
                    case 3: built.lateComers.append(try injector.getInstance(LateComer.self))
                    default:
                        let form = Form()
                        try injector.inject(into: form)
                        built.forms.append(form)
                    }
                } catch {
                    built.failures.append("\(error)")
                }
            }
            results.withLock { $0.append(built) }
        }
        let all = results.withLock { $0 }
        #expect(all.flatMap(\.failures).isEmpty)

        let session = try injector.getInstance(Session.self)
        var sessions: [Session] = all.flatMap(\.sessions)
        sessions += all.flatMap(\.presenters).map(\.session)
        sessions += all.flatMap(\.details).map(\.detail.session)
        sessions += all.flatMap(\.lateComers).map(\.session)
        sessions += all.flatMap(\.forms).compactMap(\.session)
        #expect(sessions.allSatisfy { $0 === session })
        #expect(tally.sessions.count == 1 && tally.clocks.count == 1)

        var presenters: [Presenter] = all.flatMap(\.presenters)
        presenters += all.flatMap(\.details).map(\.detail.presenter)
        presenters += all.flatMap(\.lateComers).map(\.presenter)
        presenters += all.flatMap(\.forms).compactMap(\.presenter)
        #expect(Set(presenters.map(ObjectIdentifier.init)).count == presenters.count)
        #expect(Set(presenters.map { ObjectIdentifier($0.formatter) }).count == presenters.count)
        #expect(presenters.allSatisfy { $0.formatter.clock === session.clock })

        let details = all.flatMap(\.details)
        #expect(!details.isEmpty)
        #expect(details.allSatisfy { $0.detail.id == $0.id && $0.detail.title == $0.title })

        let forms = all.flatMap(\.forms)
        #expect(!forms.isEmpty)
        #expect(forms.allSatisfy { $0.awokeFilled })
    }

    @Test("each thread's dynamic arguments reach the object built for that thread")
    func argumentsStayWithTheirRequest() throws {
        let injector = try appInjector()
        let mismatches = Counter()
        let built = Counter()
        race(threads: threads) { thread in
            for round in 0..<500 {
                let id = thread * 1_000 + round
                guard let detail = try? injector.getInstance(Detail.self, arguments: id, "\(id)") else { continue }
                built.increment()
                if detail.id != id || detail.title != "\(id)" { mismatches.increment() }
            }
        }
        #expect(built.count == threads * 500)
        #expect(mismatches.count == 0)
    }

    @Test("a failing singleton under contention fails each racer and is built by a later request")
    func failingSingletonUnderContention() throws {
        struct Refused: Error {}
        let attempts = Counter()
        let open = Atomic<Bool>(false)
        let injector = try Injector(Bindings { binder in
            binder.bind(Key<Clock>(named: "flaky")).to { _ in
                attempts.increment()
                guard open.load(ordering: .acquiring) else { throw Refused() }
                return Clock(tally: Tally())
            }.in(.singleton)
        })
        let failures = Counter()
        race(threads: threads) { _ in
            if (try? injector.getInstance(Key<Clock>(named: "flaky"))) == nil { failures.increment() }
        }
        #expect(failures.count == threads)
        open.store(true, ordering: .releasing)
        let seen = Locked<Set<ObjectIdentifier>>([])
        race(threads: threads) { _ in
            guard let clock = try? injector.getInstance(Key<Clock>(named: "flaky")) else { return }
            seen.withLock { _ = $0.insert(ObjectIdentifier(clock)) }
        }
        #expect(seen.withLock { $0.count } == 1)
        #expect(attempts.count == threads + 1)
    }
}
