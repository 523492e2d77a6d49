import Foundation
import Sightless
import Swinject

enum Contender: String, CaseIterable, Codable {
    case handWired = "hand-wired"
    case sightless = "Sightless"
    case swinject = "Swinject"
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
}

/// A request that Swinject could not serve: a missing registration, which the benchmark's own
/// wiring rules out.
func unwrap<T>(_ value: T?, _ what: String) throws -> T {
    guard let value else { throw BenchmarkFailure(description: "Swinject could not resolve \(what)") }
    return value
}

/// Swinject's synchronized resolver, handed to several threads; it locks inside.
struct SharedResolver: @unchecked Sendable {
    let resolver: Swinject.Resolver
}

/// The three contenders, ready to serve the reference graph.
struct Contenders: @unchecked Sendable {
    let hand = HandWired()
    let injector: Injector
    let logger: Injector.Handle<Logger>
    let swinject: Container
    let synchronized: SharedResolver
    /// A factory of `Screen`s resolved once, for the `factory` case.
    let screens: Factory<Screen, String>
    let appHand = AppHandWired()
    let appSwinject: Container

    init() throws {
        injector = try Injector(modules: [ReferenceModule()])
        logger = try injector.handle(for: Logger.self)
        swinject = makeSwinjectContainer()
        synchronized = SharedResolver(resolver: swinject.synchronize())
        screens = try injector.getInstance(Factory<Screen, String>.self)
        appSwinject = makeAppSwinjectContainer()
    }

    // One batch of each case per contender: `n` requests, each result handed to the sink.

    func graph(_ contender: Contender, _ n: Int, _ sink: Sink) throws {
        switch contender {
        case .handWired:
            for _ in 0..<n { sink.take(hand.screen(title: "Inbox")) }
        case .sightless:
            for _ in 0..<n { sink.take(try injector.getInstance(Screen.self, arguments: "Inbox")) }
        case .swinject:
            for _ in 0..<n { sink.take(try unwrap(swinject.resolve(Screen.self, argument: "Inbox"), "Screen")) }
        }
    }

    func leaf(_ contender: Contender, _ n: Int, _ sink: Sink) throws {
        switch contender {
        case .handWired:
            for _ in 0..<n { sink.take(hand.http()) }
        case .sightless:
            for _ in 0..<n { sink.take(try injector.getInstance(HTTP.self)) }
        case .swinject:
            for _ in 0..<n { sink.take(try unwrap(swinject.resolve(HTTP.self), "HTTP")) }
        }
    }

    func singleton(_ contender: Contender, _ n: Int, _ sink: Sink) throws {
        switch contender {
        case .handWired:
            for _ in 0..<n { sink.take(hand.getLogger()) }
        case .sightless:
            for _ in 0..<n { sink.take(try injector.getInstance(Logger.self)) }
        case .swinject:
            for _ in 0..<n { sink.take(try unwrap(swinject.resolve(Logger.self), "Logger")) }
        }
    }

    /// A `Screen` through a factory resolved once: `screens.make("Inbox")`; by hand, the same
    /// call as `graph`.
    func factory(_ contender: Contender, _ n: Int, _ sink: Sink) throws {
        switch contender {
        case .handWired:
            for _ in 0..<n { sink.take(hand.screen(title: "Inbox")) }
        case .sightless:
            let screens = screens
            for _ in 0..<n { sink.take(try screens.make("Inbox")) }
        case .swinject:
            // Swinject's closest form: a resolve with the argument (its factories are closures too).
            for _ in 0..<n { sink.take(try unwrap(swinject.resolve(Screen.self, argument: "Inbox"), "Screen")) }
        }
    }

    /// The root of the generated app graph (`AppGraph.swift`): `appGraphObjects` new objects.
    func appGraph(_ contender: Contender, _ n: Int, _ sink: Sink) throws {
        switch contender {
        case .handWired:
            for _ in 0..<n { sink.take(appHand.root()) }
        case .sightless:
            for _ in 0..<n { sink.take(try injector.getInstance(AppRoot.self)) }
        case .swinject:
            for _ in 0..<n { sink.take(try unwrap(appSwinject.resolve(AppRoot.self), "the app root")) }
        }
    }

    /// The singleton through a handle resolved once (Sightless's `Injector.handle(for:)`).
    func singletonHandle(_ n: Int, _ sink: Sink) throws {
        let logger = logger
        for _ in 0..<n { sink.take(try logger.get()) }
    }

    /// Like `graph` and `singleton`, but Swinject through its synchronized (thread-safe) resolver,
    /// as several threads must use it.
    func shared(_ contender: Contender, graph: Bool, _ n: Int, _ sink: Sink) throws {
        guard contender == .swinject else {
            return graph ? try self.graph(contender, n, sink) : try singleton(contender, n, sink)
        }
        let resolver = synchronized.resolver
        if graph {
            for _ in 0..<n { sink.take(try unwrap(resolver.resolve(Screen.self, argument: "Inbox"), "Screen")) }
        } else {
            for _ in 0..<n { sink.take(try unwrap(resolver.resolve(Logger.self), "Logger")) }
        }
    }
}

// MARK: - compile-N

/// One link of a generated chain or fan.
final class Link: Sendable {
    let next: Link?
    init(next: Link?) { self.next = next }
}

enum Shape: String, CaseIterable {
    case chain
    case fan
}

/// What a compile case built: the container, and the deepest object. Both are freed after the
/// clock stops, so tearing them down is not counted.
struct Built: @unchecked Sendable {
    let container: AnyObject
    let deepest: Link
}

/// Binds `size` named keys: in a chain each key needs the one before it, in a fan each one
/// needs the same singleton. Builds the injector, validating all of it, and resolves the
/// deepest key.
func compileSightless(_ shape: Shape, size: Int) throws -> Built {
    struct Generated: Module {
        let shape: Shape
        let size: Int
        func configure(_ binder: Binder) {
            switch shape {
            case .chain:
                binder.bind(Key<Link>(named: "0")).to(Initializer { Link(next: nil) })
                for index in 1..<size {
                    binder.bind(Key<Link>(named: String(index)))
                        .to(Initializer({ (next: Link) in Link(next: next) }, .named(String(index - 1))))
                }
            case .fan:
                binder.bind(Key<Link>(named: "root")).to(Initializer { Link(next: nil) }).in(.singleton)
                for index in 1..<size {
                    binder.bind(Key<Link>(named: String(index)))
                        .to(Initializer({ (next: Link) in Link(next: next) }, .named("root")))
                }
            }
        }
    }
    let injector = try Injector(modules: [Generated(shape: shape, size: size)])
    return Built(container: injector, deepest: try injector.getInstance(Key<Link>(named: String(size - 1))))
}

/// Swinject's fan: registering is all it does before the first request. Its chain is not
/// measured: Swinject stops any request deeper than 200 levels with a fatalError.
func compileSwinject(size: Int) throws -> Built {
    let container = Container(defaultObjectScope: .transient)
    container.register(Link.self, name: "root") { _ in Link(next: nil) }.inObjectScope(.container)
    for index in 1..<size {
        container.register(Link.self, name: String(index)) { r in Link(next: r.resolve(Link.self, name: "root")!) }
    }
    return Built(container: container, deepest: try unwrap(container.resolve(Link.self, name: String(size - 1)), "the last link"))
}
