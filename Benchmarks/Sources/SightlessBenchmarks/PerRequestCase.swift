import Sightless
import Swinject

// The `per-request-value` case: per request, a child made from a template with the request's
// value, and a handler of three objects, one of which, the request's context, is kept for the
// request (`.perRequest`, bound in the template) and shared by the handler and its service.
// `per-request-unscoped` is the same with the context unscoped: built twice, once for each.
// Measured by instructions only (`--profile per-request-value …`), against the same objects
// wired by hand and against Swinject.
//
// Swinject has no templates, and no scope of one child's request: the closest is what its
// documentation prescribes for a request's values, a child container per request
// (`Container(parent:)`) with the request's value registered in it, and `.graph` for the
// context, Swinject's one instance per resolution (what `.perRequest` is: Sightless's scope
// documentation names `.graph` as its equivalent). The handler, its service and the context are registered
// once in the parent, which resolves them through the child.

final class PerRequestInput: Sendable {
    let path: String
    init(path: String) { self.path = path }
}

final class RequestContext: Injectable, Sendable {
    let input: PerRequestInput
    init(input: PerRequestInput) { self.input = input }
    static let initializer = Initializer(RequestContext.init(input:))
}

final class ContextService: Injectable, Sendable {
    let context: RequestContext
    let config: Config
    init(context: RequestContext, config: Config) {
        self.context = context
        self.config = config
    }
    static let initializer = Initializer(ContextService.init(context:config:))
}

final class ContextHandler: Injectable, Sendable {
    let context: RequestContext
    let service: ContextService
    init(context: RequestContext, service: ContextService) {
        self.context = context
        self.service = service
    }
    static let initializer = Initializer(ContextHandler.init(context:service:))
}

/// Builds `n` handlers, each in a child of its own made from a template with the request's
/// value; with the context kept for the request (`scoped`) or unscoped.
func perRequestValues(_ contender: Contender, scoped: Bool, _ n: Int, _ sink: Sink) throws {
    let paths = (0..<8).map { "/items/\($0)" }
    switch contender {
    case .handWired:
        let config = Config()
        for index in 0..<n {
            let input = PerRequestInput(path: paths[index & 7])
            let context = RequestContext(input: input)
            let service = ContextService(context: scoped ? context : RequestContext(input: input), config: config)
            sink.take(ContextHandler(context: context, service: service))
        }
    case .sightless:
        let parent = try Injector(modules: [ReferenceModule()])
        let requests = try parent.childTemplate(providing: PerRequestInput.self) { binder in
            if scoped { binder.bind(RequestContext.self).in(.perRequest) }
            binder.entryPoint(ContextHandler.self)
        }
        let first = try requests.child(PerRequestInput(path: "/")).getInstance(ContextHandler.self)
        guard (first.context === first.service.context) == scoped else {
            throw BenchmarkFailure(description: "Sightless: the context is \(scoped ? "not " : "")shared")
        }
        for index in 0..<n {
            sink.take(try requests.child(PerRequestInput(path: paths[index & 7])).getInstance(ContextHandler.self))
        }
    case .swinject:
        let parent = Container(defaultObjectScope: .transient)
        parent.register(Config.self) { _ in Config() }.inObjectScope(.container)
        parent.register(RequestContext.self) { r in RequestContext(input: r.resolve(PerRequestInput.self)!) }
            .inObjectScope(scoped ? .graph : .transient)
        parent.register(ContextService.self) { r in
            ContextService(context: r.resolve(RequestContext.self)!, config: r.resolve(Config.self)!)
        }
        parent.register(ContextHandler.self) { r in
            ContextHandler(context: r.resolve(RequestContext.self)!, service: r.resolve(ContextService.self)!)
        }
        func handler(_ input: PerRequestInput) throws -> ContextHandler {
            let child = Container(parent: parent, defaultObjectScope: .transient)
            child.register(PerRequestInput.self) { _ in input }
            return try unwrap(child.resolve(ContextHandler.self), "ContextHandler")
        }
        let first = try handler(PerRequestInput(path: "/"))
        guard (first.context === first.service.context) == scoped else {
            throw BenchmarkFailure(description: "Swinject: the context is \(scoped ? "not " : "")shared")
        }
        for index in 0..<n { sink.take(try handler(PerRequestInput(path: paths[index & 7]))) }
    }
}
