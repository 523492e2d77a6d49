import Sightless
import Synchronization
import Testing

private enum Templated {
    final class User: Sendable {
        let name: String
        init(name: String) { self.name = name }
    }

    final class Request: Sendable {
        let path: String
        init(path: String) { self.path = path }
    }

    /// One per app.
    final class Database: Injectable, Sendable {
        static let initializer = Initializer(Database.init)
        static var scope: Scope { .singleton }
    }

    /// Built exactly once per app, however many threads make children.
    final class Counted: Injectable {
        static let builds = Atomic<Int>(0)
        init() { Self.builds.add(1, ordering: .relaxed) }
        static let initializer = Initializer(Counted.init)
    }

    /// One per child when the template binds it in the singleton scope.
    final class UnitOfWork: Injectable {
        let user: User
        init(user: User) { self.user = user }
        static let initializer = Initializer(UnitOfWork.init(user:))
    }

    final class Handler: Injectable {
        let database: Database
        let user: User
        let request: Request
        let work: UnitOfWork
        let injector: Injector
        init(database: Database, user: User, request: Request, work: UnitOfWork, injector: Injector) {
            self.database = database
            self.user = user
            self.request = request
            self.work = work
            self.injector = injector
        }
        static let initializer = Initializer(Handler.init(database:user:request:work:injector:))
    }

    /// Not an entry point: first requested through a child.
    final class Greeter: Injectable {
        let user: User
        init(user: User) { self.user = user }
        static let initializer = Initializer(Greeter.init(user:))
    }

    final class NeedsMissing: Injectable {
        init(user: User, missing: Missing) {}
        static let initializer = Initializer(NeedsMissing.init(user:missing:))
    }

    protocol Missing: Sendable {}

    final class Recorder: Sendable {
        let closed = Locked<[String]>([])
    }

    final class Connection: Injectable, Closable {
        let recorder: Recorder
        let user: User
        init(recorder: Recorder, user: User) {
            self.recorder = recorder
            self.user = user
        }
        static let initializer = Initializer(Connection.init(recorder:user:))
        func close() { recorder.closed.withLock { $0.append("connection of \(user.name)") } }
    }

    enum Refused: Error { case always }

    final class Refusing: Injectable {
        init(user: User) throws { if user.name == "mallory" { throw Refused.always } }
        static let initializer = Initializer(Refusing.init(user:))
    }

    static var app: Bindings { Bindings { $0.bind(Database.self) } }

    static func requests(on app: Injector) throws -> ChildTemplate<User, Request> {
        try app.childTemplate(providing: User.self, Request.self) { binder in
            binder.bind(UnitOfWork.self).in(.singleton)
            binder.entryPoint(Handler.self)
        }
    }
}

@Suite("Child templates")
struct ChildTemplateTests {
    @Test("a child made from a template gets the values it was made with")
    func providedValues() throws {
        let app = try Injector(Templated.app)
        let child = try Templated.requests(on: app).child(Templated.User(name: "ada"), Templated.Request(path: "/notes"))
        let handler = try child.getInstance(Templated.Handler.self)
        #expect(handler.user.name == "ada")
        #expect(handler.request.path == "/notes")
    }

    @Test("two children of one template each get their own values")
    func childrenDiffer() throws {
        let requests = try Templated.requests(on: try Injector(Templated.app))
        let first = try requests.child(Templated.User(name: "ada"), Templated.Request(path: "/a"))
        let second = try requests.child(Templated.User(name: "grace"), Templated.Request(path: "/b"))
        #expect(try first.getInstance(Templated.Handler.self).user.name == "ada")
        #expect(try second.getInstance(Templated.Handler.self).user.name == "grace")
        #expect(try first.getInstance(Templated.User.self).name == "ada")
    }

    @Test("a child made from a template shares its parent's singletons")
    func sharesParentSingletons() throws {
        let app = try Injector(Templated.app)
        let child = try Templated.requests(on: app).child(Templated.User(name: "ada"), Templated.Request(path: "/"))
        #expect(try child.getInstance(Templated.Handler.self).database === (try app.getInstance(Templated.Database.self)))
    }

    @Test("a template's singleton is one per child")
    func singletonPerChild() throws {
        let requests = try Templated.requests(on: try Injector(Templated.app))
        let first = try requests.child(Templated.User(name: "ada"), Templated.Request(path: "/"))
        let second = try requests.child(Templated.User(name: "grace"), Templated.Request(path: "/"))
        let work = try first.getInstance(Templated.Handler.self).work
        #expect(work === (try first.getInstance(Templated.UnitOfWork.self)))
        #expect(work !== (try second.getInstance(Templated.UnitOfWork.self)))
        #expect(try second.getInstance(Templated.UnitOfWork.self).user.name == "grace")
    }

    @Test("an object built by a template's child is given that child as its Injector")
    func injectorIsTheChild() throws {
        let requests = try Templated.requests(on: try Injector(Templated.app))
        let child = try requests.child(Templated.User(name: "ada"), Templated.Request(path: "/"))
        #expect(try child.getInstance(Templated.Handler.self).injector === child)
    }

    @Test("a template whose entry point needs a key nobody binds is reported when it is made, with the path")
    func validatedWhenMade() throws {
        let app = try Injector(Templated.app)
        let error = #expect(throws: InjectionError.self) {
            _ = try app.childTemplate(providing: Templated.User.self) { $0.entryPoint(Templated.NeedsMissing.self) }
        }
        guard case .missingBinding(let key, _, _, _)? = error?.problems.first?.detail else {
            Issue.record("expected a missing binding, got \(String(describing: error))")
            return
        }
        #expect(key == Key<any Templated.Missing>().erased)
        #expect(error?.problems.first?.path.first == Key<Templated.NeedsMissing>().erased)
    }

    @Test("a template providing a key its parent binds is an error naming the key as provided, not as bound by the child's modules")
    func providingParentKeyIsAnError() throws {
        let app = try Injector(Templated.app)
        let line = #line + 1
        let error = #expect(throws: InjectionError.self) { _ = try app.childTemplate(providing: Templated.Database.self) }
        guard case .providedBoundByParent(let key, let template)? = error?.problems.first?.detail else {
            Issue.record("expected providedBoundByParent, got \(String(describing: error))")
            return
        }
        #expect(key == Key<Templated.Database>().erased)
        #expect(template == SourceLocation(fileID: #fileID, line: line))
        let problem = try #require(error?.problems.first)
        #expect(problem.kind == .duplicateBinding)
        #expect(problem.message == "Database is provided to each child of the template declared at \(#fileID):\(line), and the parent injector binds it too: a child's requests could not tell the two apart.")
        #expect(problem.fix == "Provide it under a name of its own, childTemplate(providing: Key<Database>(named: \"…\")), and inject that key where the child's value is meant; or remove the parent's binding of Database, if each child's value replaces it.")
        #expect(!problem.fix.contains("child(modules:overrides:)"))
    }

    @Test("a template providing a key its own modules bind is a duplicate binding")
    func providingBoundKeyIsADuplicate() throws {
        let app = try Injector(Templated.app)
        let error = #expect(throws: InjectionError.self) {
            _ = try app.childTemplate(providing: Templated.User.self) {
                $0.bind(Templated.User.self).to(instance: Templated.User(name: "x"))
            }
        }
        #expect(error?.kind == .duplicateBinding)
    }

    @Test("named keys of a template are provided by name")
    func namedKeys() throws {
        let app = try Injector(Templated.app)
        let requests = try app.childTemplate(providing: Key<String>(named: "id"), Key<String>(named: "region"))
        let child = try requests.child("7f3a", "eu")
        #expect(try child.getInstance(Key<String>(named: "id")) == "7f3a")
        #expect(try child.getInstance(Key<String>(named: "region")) == "eu")
    }

    @Test("a type first requested through a template's child is compiled once and serves later children with their values")
    func compiledOnFirstRequest() throws {
        let requests = try Templated.requests(on: try Injector(Templated.app))
        for name in ["ada", "grace", "barbara"] {
            let child = try requests.child(Templated.User(name: name), Templated.Request(path: "/"))
            #expect(try child.getInstance(Templated.Greeter.self).user.name == name)
        }
    }

    @Test("a child of a template's child sees the values its parent was made with")
    func grandchildSeesProvidedValues() throws {
        let requests = try Templated.requests(on: try Injector(Templated.app))
        let child = try requests.child(Templated.User(name: "ada"), Templated.Request(path: "/"))
        let grandchild = try child.child { $0.bind(Key<Int>(named: "page")).to(instance: 2) }
        #expect(try grandchild.getInstance(Templated.Greeter.self).user.name == "ada")
        #expect(try grandchild.getInstance(Templated.Handler.self).work === (try child.getInstance(Templated.UnitOfWork.self)))
    }

    @Test("a child of a template and its singletons are released when dropped")
    func childReleased() throws {
        final class Watch: @unchecked Sendable {
            weak var child: Injector?
            weak var work: Templated.UnitOfWork?
        }
        let requests = try Templated.requests(on: try Injector(Templated.app))
        let watch = Watch()
        do {
            let child = try requests.child(Templated.User(name: "ada"), Templated.Request(path: "/"))
            watch.child = child
            watch.work = try child.getInstance(Templated.UnitOfWork.self)
        }
        #expect(watch.child == nil)
        #expect(watch.work == nil)
    }

    @Test("a child outlives its template and the app's own reference, keeping its parent alive, and releases both with it")
    func childOutlivesTemplate() throws {
        final class Watch: @unchecked Sendable {
            weak var app: Injector?
            weak var child: Injector?
        }
        let watch = Watch()
        var handler: Templated.Handler?
        do {
            let app = try Injector(Templated.app)
            watch.app = app
            let child = try Templated.requests(on: app).child(Templated.User(name: "ada"), Templated.Request(path: "/"))
            watch.child = child
            handler = try child.getInstance(Templated.Handler.self)
        }
        // The template and the app are dropped; the handler holds its child, which holds the app.
        #expect(watch.app != nil)
        #expect(try handler?.injector.getInstance(Templated.Greeter.self).user.name == "ada")
        #expect(try handler?.injector.getInstance(Templated.Database.self) === handler?.database)
        handler = nil
        #expect(watch.child == nil)
        #expect(watch.app == nil)
    }

    @Test("a template's eager singleton is built when a child is made, and its failure thrown then")
    func eagerPerChild() throws {
        let requests = try Injector(Templated.app).childTemplate(providing: Templated.User.self) {
            $0.bind(Templated.Refusing.self).in(.eagerSingleton)
        }
        _ = try requests.child(Templated.User(name: "ada"))
        let error = #expect(throws: InjectionError.self) { _ = try requests.child(Templated.User(name: "mallory")) }
        #expect(error?.kind == .initializerFailed)
    }

    @Test("shutting a template's child down closes its own values and not its sibling's")
    func shutDownClosesOwnValues() throws {
        let recorder = Templated.Recorder()
        let app = try Injector(Bindings { $0.bind(Templated.Recorder.self).to(instance: recorder) })
        let requests = try app.childTemplate(providing: Templated.User.self) {
            $0.bind(Templated.Connection.self).in(.singleton)
        }
        let first = try requests.child(Templated.User(name: "ada"))
        let second = try requests.child(Templated.User(name: "grace"))
        _ = try first.getInstance(Templated.Connection.self)
        _ = try second.getInstance(Templated.Connection.self)
        try first.shutDown()
        try first.shutDown()
        #expect(recorder.closed.withLock { $0 } == ["connection of ada"])
        #expect(try second.getInstance(Templated.Connection.self).user.name == "grace")
    }

    @Test("making a child of a template whose parent was shut down throws injectorShutDown")
    func childAfterParentShutDown() throws {
        let app = try Injector(Templated.app)
        let requests = try Templated.requests(on: app)
        try app.shutDown()
        let error = #expect(throws: InjectionError.self) { _ = try requests.child(Templated.User(name: "ada"), Templated.Request(path: "/")) }
        #expect(error?.kind == .injectorShutDown)
    }

    @Test("a template's graph export marks its parent's keys and its provided values")
    func exportMarksProvided() throws {
        let text = try Templated.requests(on: try Injector(Templated.app)).exportGraph(as: .text)
        #expect(text.contains("provided"), "\(text)")
        #expect(text.contains("parent's"), "\(text)")
    }

    @Test("10,000 children of one template made from 8 threads each see their own values, and the parent's singleton is built once")
    func manyChildrenFromManyThreads() throws {
        let app = try Injector(modules: []) { $0.bind(Templated.Counted.self).in(.singleton) }
        let requests = try app.childTemplate(providing: Templated.User.self, Templated.Request.self) {
            $0.bind(Templated.UnitOfWork.self).in(.singleton)
        }
        let before = Templated.Counted.builds.load(ordering: .relaxed)
        let failures = Atomic<Int>(0)
        race(threads: 8) { thread in
            for index in 0..<1_250 {
                let name = "\(thread)-\(index)"
                do {
                    let child = try requests.child(Templated.User(name: name), Templated.Request(path: name))
                    let work = try child.getInstance(Templated.UnitOfWork.self)
                    _ = try child.getInstance(Templated.Counted.self)
                    let request = try child.getInstance(Templated.Request.self)
                    let again = try child.getInstance(Templated.UnitOfWork.self)
                    if work.user.name != name || request.path != name || work !== again {
                        failures.add(1, ordering: .relaxed)
                    }
                } catch {
                    failures.add(1, ordering: .relaxed)
                }
            }
        }
        #expect(failures.load(ordering: .relaxed) == 0)
        #expect(Templated.Counted.builds.load(ordering: .relaxed) - before == 1)
    }

    @Test("a template may not provide the Injector key")
    func providingInjectorIsAnError() throws {
        let app = try Injector(Templated.app)
        let error = #expect(throws: InjectionError.self) { _ = try app.childTemplate(providing: Injector.self) }
        guard case .reservedKey? = error?.problems.first?.detail else {
            Issue.record("expected reservedKey, got \(String(describing: error))")
            return
        }
    }

    @Test("a closure of a template that makes a child of the template and asks it again ends in tooDeep, not a crash")
    func recursionThroughChildren() {
        final class Holder: @unchecked Sendable { var template: ChildTemplate<Int>? }
        let outcome = regressionRun(stackSize: regressionSmallStack) {
            let holder = Holder()
            let app = try Injector(modules: [])
            let template = try app.childTemplate(providing: Int.self) { binder in
                binder.bind(Key<String>(named: "deeper")).to { resolver in
                    let depth = try resolver.getInstance(Int.self)
                    return try holder.template?.child(depth + 1).getInstance(Key<String>(named: "deeper")) ?? ""
                }
            }
            holder.template = template
            defer { holder.template = nil }
            _ = try template.child(0).getInstance(Key<String>(named: "deeper"))
        }
        #expect(outcome.error?.kind == .tooDeep, "\(outcome)")
    }

    @Test("children of one template shut down from 8 threads at once close each value exactly once")
    func concurrentShutDown() throws {
        let recorder = Templated.Recorder()
        let app = try Injector(Bindings { $0.bind(Templated.Recorder.self).to(instance: recorder) })
        let requests = try app.childTemplate(providing: Templated.User.self) {
            $0.bind(Templated.Connection.self).in(.singleton)
        }
        let children = try (0..<4).map { index in try requests.child(Templated.User(name: "\(index)")) }
        for child in children { _ = try child.getInstance(Templated.Connection.self) }
        race(threads: 8) { thread in
            _ = try? children[thread % 4].shutDown()
        }
        #expect(recorder.closed.withLock { $0 }.sorted() == (0..<4).map { "connection of \($0)" })
    }

    @Test("a template's singleton that needs await is one per child, awaited once, and closed by the child's awaitShutDown")
    func awaitedSingletonPerChild() async throws {
        final class Transaction: AsyncClosable, Sendable {
            let user: String
            let closed = Locked(false)
            init(user: String) async {
                await Task.yield()
                self.user = user
            }
            func close() async throws { closed.withLock { $0 = true } }
        }
        let requests = try Injector(modules: []).childTemplate(providing: Templated.User.self) { binder in
            binder.bind(Transaction.self).to { resolver in
                await Transaction(user: try resolver.getInstance(Templated.User.self).name)
            }.in(.singleton)
        }
        let first = try requests.child(Templated.User(name: "ada"))
        let second = try requests.child(Templated.User(name: "grace"))
        let transaction = try await first.instance(Transaction.self)
        #expect(transaction === (try await first.instance(Transaction.self)))
        #expect(transaction.user == "ada")
        #expect(try await second.instance(Transaction.self).user == "grace")
        try await first.awaitShutDown()
        #expect(transaction.closed.withLock { $0 })
    }
}
