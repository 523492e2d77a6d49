@testable import Sightless
import Testing

// An awaited request builds off the caller's actor: a request made on the main actor does not
// run its initializers there, whether they await or not.

private final class Clock: Injectable, Sendable {
    let openedOnMainActor: Bool
    init() async { openedOnMainActor = ActorIsolation.mainActor.isCurrent }
    static let initializer = Initializer(Clock.init)
}

private final class Report: Injectable, Sendable {
    let clock: Clock
    let builtOnMainActor: Bool
    init(clock: Clock) {
        self.clock = clock
        builtOnMainActor = ActorIsolation.mainActor.isCurrent
    }
    static let initializer = Initializer(Report.init(clock:))
}

@Suite("Where an awaited request builds")
struct AwaitedIsolationTests {
    @Test("an awaited request made on the main actor builds a type that awaits off the main actor")
    @MainActor
    func buildsOffMainActor() async throws {
        // The check the initializers make answers on this actor.
        #expect(ActorIsolation.mainActor.isCurrent)
        let injector = try Injector(Bindings { _ in })
        let report = try await injector.instance(Report.self)
        #expect(!report.builtOnMainActor)
        #expect(!report.clock.openedOnMainActor)
    }

    @Test("an awaited request made on the main actor with arguments builds off the main actor")
    @MainActor
    func buildsOffMainActorWithArguments() async throws {
        let injector = try Injector(Bindings { _ in })
        let titled = try await injector.instance(TitledReport.self, arguments: "Inbox")
        #expect(titled.title == "Inbox")
        #expect(!titled.builtOnMainActor)
    }
}

private final class TitledReport: Injectable, Sendable {
    let title: String
    let builtOnMainActor: Bool
    init(clock: Clock, title: String) {
        self.title = title
        builtOnMainActor = ActorIsolation.mainActor.isCurrent
    }
    static let initializer = Initializer(TitledReport.init(clock:title:), .inject, .dynamic)
}
