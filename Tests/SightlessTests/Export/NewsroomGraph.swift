import Sightless

/// A small graph with one node of each way of building a value, drawn by the export suites.
enum Newsroom {
    protocol Feed: AnyObject {}

    final class Clock: Sendable {}

    final class Logger: Sendable {}

    struct LoggerProvider: Provider {
        func provide(_ resolver: Resolver) -> Logger { Logger() }
    }

    final class RemoteFeed: Feed, Injectable {
        init(endpoint: String, clock: Clock) {}
        static let initializer = Initializer(RemoteFeed.init(endpoint:clock:), .named("endpoint"), .inject)
    }

    final class Reader: Injectable {
        let feed: Feed
        var logger: Logger?
        init(feed: Feed, title: String) { self.feed = feed }
        static let initializer = Initializer(Reader.init(feed:title:), .inject, .dynamic)
        static let properties = Properties<Reader>().inject(\.logger)
    }

    struct AppModule: Module {
        func configure(_ binder: Binder) {
            binder.bind(Reader.self)
            binder.bind(Feed.self).to(RemoteFeed.self).in(.singleton)
            binder.bind(Key<String>(named: "endpoint")).to(instance: "https://example.com")
            binder.bind(Clock.self).to { _ in Clock() }.in(.singleton)
            binder.bind(Logger.self).to(provider: LoggerProvider())
        }
    }
}
