import Sightless
import Testing

// A service that conforms to `Injectable` and to a protocol of its own target. With default
// main-actor isolation, a protocol of the target is isolated to the main actor, and so is the
// conformance of a type to it, which makes the type's `initializer` main-actor isolated:
// "conformance of 'LiveWeatherService' to protocol 'Injectable' crosses into main
// actor-isolated code". Isolating the conformance to `Injectable` too (`@MainActor Injectable`,
// as the compiler suggests) is refused, since `Injectable` refines `SendableMetatype`. The fix
// is the protocol's: declared `nonisolated`, it leaves the service nonisolated, as an
// `Injectable` type of no other protocol is. This file compiles only with that declaration.

nonisolated protocol WeatherService {
    func forecast(for city: String) -> String
}

final class LiveWeatherService: WeatherService, Injectable {
    init() {}
    func forecast(for city: String) -> String { "sunny in \(city)" }
    static let initializer = Initializer(LiveWeatherService.init)
    static var scope: Scope { .singleton }
}

struct WeatherModule: Module {
    func configure(_ binder: Binder) {
        binder.bind((any WeatherService).self).to(LiveWeatherService.self)
    }
}

@Suite("A service of a nonisolated protocol of the app target")
struct NonisolatedProtocolTests {
    @Test("a service that conforms to a nonisolated protocol of the target is built synchronously on the main actor")
    func builtOnMainActor() throws {
        let injector = try Injector(modules: [WeatherModule()])
        #expect(try injector.getInstance((any WeatherService).self).forecast(for: "Oslo") == "sunny in Oslo")
    }

    @Test("a service that conforms to a nonisolated protocol of the target is built synchronously off the main actor")
    func builtOffMainActor() async throws {
        let injector = try Injector(modules: [WeatherModule()])
        let forecast = try await Task.detached {
            try injector.getInstance(LiveWeatherService.self).forecast(for: "Lima")
        }.value
        #expect(forecast == "sunny in Lima")
    }
}
