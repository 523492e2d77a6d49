import Sightless

// The `per-request-handler` case: per request, a child made from a template with the request's
// value, and a handler of three objects: the request's unit of work, kept per request and shared
// by the handler and its repository, the repository, and the handler.
// `per-request-handler-unscoped` binds the unit of work unscoped (two of them per request).
// Measured by instructions only.

final class ScopedWork: Injectable, Sendable {
    static let initializer = Initializer(ScopedWork.init)
}

final class ScopedWorkRepository: Injectable, Sendable {
    let work: ScopedWork
    let config: Config
    init(work: ScopedWork, config: Config) {
        self.work = work
        self.config = config
    }
    static let initializer = Initializer(ScopedWorkRepository.init(work:config:))
}

final class ScopedWorkHandler: Injectable, Sendable {
    let work: ScopedWork
    let repository: ScopedWorkRepository
    let request: RequestInfo
    init(work: ScopedWork, repository: ScopedWorkRepository, request: RequestInfo) {
        self.work = work
        self.repository = repository
        self.request = request
    }
    static let initializer = Initializer(ScopedWorkHandler.init(work:repository:request:))
}

/// Builds `n` handlers, each in a template child of its own.
func scopedWorkHandlers(_ contender: Contender, scoped: Bool, _ n: Int, _ sink: Sink) throws {
    let parent = try Injector(modules: [ReferenceModule()])
    let requests = try parent.childTemplate(providing: RequestInfo.self) { binder in
        binder.bind(ScopedWork.self).in(scoped ? .perRequest : .unscoped)
        binder.entryPoint(ScopedWorkHandler.self)
    }
    let paths = (0..<8).map { "/notes/\($0)" }
    switch contender {
    case .handWired:
        let config = Config()
        for index in 0..<n {
            let request = RequestInfo(path: paths[index & 7])
            let work = ScopedWork()
            sink.take(ScopedWorkHandler(work: work, repository: ScopedWorkRepository(work: scoped ? work : ScopedWork(), config: config),
                                  request: request))
        }
    case .sightless, .swinject:
        for index in 0..<n {
            sink.take(try requests.child(RequestInfo(path: paths[index & 7])).getInstance(ScopedWorkHandler.self))
        }
    }
}
