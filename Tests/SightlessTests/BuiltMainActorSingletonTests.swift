import Sightless
import Testing

@MainActor private final class Dashboard: MainActorInjectable {
    init() {}
    static let initializer = Initializer(Dashboard.init)
    static var scope: Scope { .singleton }
}

@Suite("A main-actor singleton already built")
struct BuiltMainActorSingletonTests {
    @Test("a synchronous request off the main actor of a main-actor singleton not built yet throws offActor")
    func notBuiltThrows() async throws {
        let injector = try await Injector.start(modules: [])
        let error = await Task.detached { () -> InjectionError? in
            do {
                _ = try injector.getInstance(Dashboard.self)
                return nil
            } catch let error as InjectionError {
                return error
            } catch {
                return nil
            }
        }.value
        #expect(error?.kind == .offActor)
    }

    @Test("a synchronous request off the main actor of a main-actor singleton already built returns it")
    func builtIsReturned() async throws {
        let injector = try await Injector.start(modules: [])
        let built = try await injector.instance(Dashboard.self)
        let found = try await Task.detached { try injector.getInstance(Dashboard.self) }.value
        #expect(found === built)
    }
}
