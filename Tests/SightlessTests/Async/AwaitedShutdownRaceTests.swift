import Sightless
import Testing

// A synchronous request that meets an awaited singleton a shutdown has just taken away is told
// the injector was shut down, not that the value needs `await`.

private final class Ticket: Sendable {}

/// Shuts the injector it is built in down, as a shutdown racing the request would, between
/// the request's own check and its next argument.
private final class Closer: Injectable, Sendable {
    init(injector: Injector) { try? injector.shutDown() }
    static let initializer = Initializer(Closer.init(injector:))
}

private final class Ticketed: Injectable, Sendable {
    init(closer: Closer, ticket: Ticket) {}
    static let initializer = Initializer(Ticketed.init(closer:ticket:))
}

private struct Visitor: Sendable {}

@Suite("A synchronous request racing a shutdown")
struct AwaitedShutdownRaceTests {
    @Test("a template child's awaited singleton a shutdown took away mid-request is injectorShutDown, not needsAwait")
    func awaitedSingletonTakenAway() async throws {
        let app = try Injector(modules: [])
        let template = try app.childTemplate(providing: Visitor.self) { binder in
            binder.bind(Ticket.self).to { _ async in Ticket() }.in(.singleton)
            binder.bind(Ticketed.self)
        }
        let child = try template.child(Visitor())
        _ = try await child.instance(Ticket.self)   // stored, so a synchronous request may read it
        let error = #expect(throws: InjectionError.self) { try child.getInstance(Ticketed.self) }
        #expect(error?.kind == .injectorShutDown, "\(String(describing: error))")
    }

    @Test("a root's awaited singleton a shutdown took away mid-request is injectorShutDown, not needsAwait")
    func rootAwaitedSingletonTakenAway() async throws {
        let app = try Injector(modules: [AnyModule { binder in
            binder.bind(Ticket.self).to { _ async in Ticket() }.in(.singleton)
        }])
        _ = try await app.instance(Ticket.self)
        let error = #expect(throws: InjectionError.self) { try app.getInstance(Ticketed.self) }
        #expect(error?.kind == .injectorShutDown, "\(String(describing: error))")
    }
}
