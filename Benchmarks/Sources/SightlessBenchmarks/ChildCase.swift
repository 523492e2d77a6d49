import Sightless

// The `child` case: per request, a child injector with two runtime values (the user and the
// request), made from a template declared once, and a 5-object handler graph that mixes them
// with the parent's singletons. `child-adhoc` makes the same child with `parent.child { … }`,
// which compiles the child's bindings every time. Measured by instructions only
// (`--profile child …`), with a parent of the reference graph and with one that also binds
// 10,000 keys, to show that making a child does not grow with its parent.

final class RequestUser: Sendable {
    let name: String
    init(name: String) { self.name = name }
}

final class RequestInfo: Sendable {
    let path: String
    init(path: String) { self.path = path }
}

final class Audit: Injectable, Sendable {
    let logger: Logger
    let user: RequestUser
    init(logger: Logger, user: RequestUser) {
        self.logger = logger
        self.user = user
    }
    static let initializer = Initializer(Audit.init(logger:user:))
}

final class NotesRepository: Injectable, Sendable {
    let config: Config
    init(config: Config) { self.config = config }
    static let initializer = Initializer(NotesRepository.init(config:))
}

final class NotesHandler: Injectable, Sendable {
    let audit: Audit
    let notes: NotesRepository
    let request: RequestInfo
    init(audit: Audit, notes: NotesRepository, request: RequestInfo) {
        self.audit = audit
        self.notes = notes
        self.request = request
    }
    static let initializer = Initializer(NotesHandler.init(audit:notes:request:))
}

/// The parent of the children: the reference graph, and optionally `extra` more bound keys.
struct ParentModule: Module {
    let extra: Int
    func configure(_ binder: Binder) {
        binder.install(ReferenceModule())
        for index in 0..<extra { binder.bind(Key<Int>(named: "setting\(index)")).to(instance: index) }
    }
}

/// Builds `n` handlers, each for a request of its own, under a parent with `parentBindings`
/// more bound keys than the reference graph: through a child made from a template, or
/// (`adHoc`) through a child made with its bindings each time.
func childRequests(_ contender: Contender, parentBindings: Int, adHoc: Bool = false, _ n: Int, _ sink: Sink) throws {
    let parent = try Injector(modules: [ParentModule(extra: parentBindings)])
    let requests = try parent.childTemplate(providing: RequestUser.self, RequestInfo.self) { binder in
        binder.entryPoint(NotesHandler.self)
    }
    switch contender {
    case .handWired:
        let logger = Logger(), config = Config()
        for index in 0..<n {
            let user = RequestUser(name: "user")
            let request = RequestInfo(path: "/notes/\(index & 7)")
            let handler = NotesHandler(audit: Audit(logger: logger, user: user), notes: NotesRepository(config: config),
                                       request: request)
            sink.take(handler)
        }
    case .sightless where !adHoc:
        for index in 0..<n {
            let user = RequestUser(name: "user")
            let request = RequestInfo(path: "/notes/\(index & 7)")
            sink.take(try requests.child(user, request).getInstance(NotesHandler.self))
        }
    case .sightless, .swinject:
        for index in 0..<n {
            let user = RequestUser(name: "user")
            let request = RequestInfo(path: "/notes/\(index & 7)")
            let child = try parent.child { binder in
                binder.bind(RequestUser.self).to(instance: user)
                binder.bind(RequestInfo.self).to(instance: request)
            }
            sink.take(try child.getInstance(NotesHandler.self))
        }
    }
}
