import Foundation
import Sightless

// A graph check over a graph broken on purpose, which `.ci/run` runs through
// `swift package verify-graph --target BrokenGraphFixture` and expects to fail with both
// problems below: the plugin's negative check. Its name does not end in GraphCheck, so the
// plugin runs it only when named.

protocol Api: Sendable {}
struct StubApi: Api {}
final class Feed: Injectable {
    init(api: any Api) {}
    static let initializer = Initializer(Feed.init(api:))
}
struct User: Sendable {}
final class Session: Sendable {}
final class RequestHandler: Injectable {
    init(user: User, feed: Feed, session: Session) {}
    static let initializer = Initializer(RequestHandler.init(user:feed:session:))
}
final class Ping: Injectable {
    init(pong: Pong) {}
    static let initializer = Initializer(Ping.init(pong:))
}
final class Pong: Injectable {
    init(ping: Ping) {}
    static let initializer = Initializer(Pong.init(ping:))
}

struct AppModule: Module {
    func configure(_ binder: Binder) {
        binder.bind(Api.self).to { _ in StubApi() }
        binder.entryPoint(Feed.self)
    }
}

do {
    // The app's graph is valid; each template is broken: nothing provides a Session, and Ping
    // and Pong need each other.
    try Injector.verify(modules: [AppModule()], templates: [
        { app in try app.childTemplate(providing: User.self) { $0.entryPoint(RequestHandler.self) } },
        { app in try app.childTemplate { $0.entryPoint(Ping.self) } },
    ])
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
