import Sightless
import Testing

// Mirrors the "Quick start" block of README.md, type for type. Keep the two in step.
private enum QuickStart {
    protocol Api { func fetch() -> [String] }

    final class HttpApi: Api, Injectable {
        let endpoint: String
        init(endpoint: String) { self.endpoint = endpoint }
        func fetch() -> [String] { ["hello from \(endpoint)"] }

        static let initializer = Initializer(HttpApi.init(endpoint:), .named("endpoint"))
    }

    final class Logger: Injectable {
        private(set) var lines: [String] = []
        func log(_ line: String) { lines.append(line) }
        static let initializer = Initializer(Logger.init)
    }

    final class FeedScreen: Injectable {
        let api: Api
        let title: String
        var logger: Logger?

        init(api: Api, title: String) {
            self.api = api
            self.title = title
        }

        static let initializer = Initializer(FeedScreen.init(api:title:), .inject, .dynamic)
        static let properties = Properties<FeedScreen>().inject(\.logger)

        func awakeFromInjection() { logger?.log("\(title) is ready") }
    }

    struct AppModule: Module {
        func configure(_ binder: Binder) {
            binder.bind(Api.self).to(HttpApi.self).in(.singleton)
            binder.bind(Key<String>(named: "endpoint")).to(instance: "https://example.com")
            binder.bind(Logger.self).in(.singleton)
        }
    }

    struct NoEndpointModule: Module {
        func configure(_ binder: Binder) {
            binder.bind(Api.self).to(HttpApi.self).in(.singleton)
        }
    }
}

@Suite("README")
struct ReadmeQuickStartTests {
    @Test("the quick start builds the screen and logs as the README says")
    func quickStart() throws {
        let injector = try Injector(modules: [QuickStart.AppModule()])
        let screen = try injector.getInstance(QuickStart.FeedScreen.self, arguments: "Inbox")
        #expect(screen.api.fetch() == ["hello from https://example.com"])
        #expect(try injector.getInstance(QuickStart.Logger.self).lines == ["Inbox is ready"])
    }

    @Test("the quick start without the endpoint fails with the README's message")
    func quickStartMissingEndpoint() throws {
        let error = #expect(throws: InjectionError.self) { _ = try Injector(modules: [QuickStart.NoEndpointModule()]) }
        #expect(error?.problems.first?.message == #"Nothing provides String(named: "endpoint"), needed by HttpApi (argument 1)."#)
        #expect(error?.problems.first?.pathDescription == #"Api → HttpApi → String(named: "endpoint")"#)
        #expect(error?.problems.first?.fix == #"Bind it in a module: binder.bind(Key<String>(named: "endpoint")).to(…)."#)
    }
}
