import Foundation
import Sightless
import Testing

// Builds the mistake behind each kind of InjectionError, exactly as the Errors article
// shows it, and checks that the message in the article is the one a user sees. To refresh the
// messages after changing one on purpose: SIGHTLESS_WRITE_ERRORS_DOC=1 swift test --filter ErrorsDocumentation
//
// The declarations pass the file and line that Errors.md shows, so that the "declared at" lines
// do not depend on where this file's lines fall.

private enum Examples {
    protocol Api {}

    final class Garage: Injectable {
        static let initializer = Initializer(Garage.init, fileID: "App/Garage.swift", line: 4)
    }

    final class FeedService: Injectable {
        init(api: any Api) {}
        static let initializer = Initializer(FeedService.init(api:), fileID: "App/FeedService.swift", line: 8)
    }

    final class Screen: Injectable {
        init(feed: FeedService) {}
        static let initializer = Initializer(Screen.init(feed:), fileID: "App/Screen.swift", line: 6)
    }

    final class Parent: Injectable {
        init(child: Child) {}
        static let initializer = Initializer(Parent.init(child:), fileID: "App/Family.swift", line: 5)
    }

    final class Child: Injectable {
        init(parent: Parent) {}
        static let initializer = Initializer(Child.init(parent:), fileID: "App/Family.swift", line: 11)
    }

    final class Detail: Injectable {
        init(garage: Garage, title: String) {}
        static let initializer = Initializer(Detail.init(garage:title:), .inject, .dynamic,
                                             fileID: "App/Detail.swift", line: 7)
    }

    final class Router: Injectable {
        init(detail: Detail) {}
        static let initializer = Initializer(Router.init(detail:), fileID: "App/Router.swift", line: 5)
    }

    enum DatabaseError: Error { case locked }

    final class Database: Injectable {
        init(path: String) throws { throw DatabaseError.locked }
        static let initializer = Initializer(Database.init(path:), .named("databasePath"),
                                             fileID: "App/Database.swift", line: 9)
    }

    final class Repository: Injectable {
        init(database: Database) {}
        static let initializer = Initializer(Repository.init(database:), fileID: "App/Repository.swift", line: 6)
    }

    final class Link: Sendable {}

    struct Account: Sendable {}

    final class Menu: Injectable {
        init(detail: Factory<Detail, Int>) {}
        static let initializer = Initializer(Menu.init(detail:), fileID: "App/Menu.swift", line: 5)
    }

    final class Shelf: Injectable {
        let detail: Factory<Detail, String>
        init(detail: Factory<Detail, String>) { self.detail = detail }
        static let initializer = Initializer(Shelf.init(detail:), fileID: "App/Shelf.swift", line: 6)
        static var scope: Scope { .singleton }
    }

    final class Reader: Injectable {
        let detail: Factory<Detail, String>
        init(detail: Factory<Detail, String>) { self.detail = detail }
        static let initializer = Initializer(Reader.init(detail:), fileID: "App/Reader.swift", line: 6)
    }

    enum ConnectionError: Error { case alreadyClosed }

    final class Connection: Injectable, Closable {
        static let initializer = Initializer(Connection.init, fileID: "App/Connection.swift", line: 3)
        func close() throws { throw ConnectionError.alreadyClosed }
    }

    final class Vault: Injectable {
        init(path: String) async throws {}
        static let initializer = Initializer(Vault.init(path:), .named("vaultPath"),
                                             fileID: "App/Vault.swift", line: 4)
    }

    final class Checkout: Injectable {
        init(vault: Vault) {}
        static let initializer = Initializer(Checkout.init(vault:), fileID: "App/Checkout.swift", line: 6)
    }

    // Main-actor types whose descriptors are nonisolated, so that an injector built off the
    // main actor (as this test runs) can read them; a `MainActorInjectable` type, as Errors.md
    // shows it, gives the same messages.
    @MainActor final class InboxModel: Injectable {
        init() {}   // isolated to the main actor (an implicit one would not be)
        nonisolated static let initializer = Initializer(InboxModel.init, fileID: "App/InboxModel.swift", line: 4)
    }

    struct NetworkModule: Module {
        func configure(_ binder: Binder) {
            binder.install(StorageModule(), fileID: "App/NetworkModule.swift", line: 3)
        }
    }

    struct StorageModule: Module {
        func configure(_ binder: Binder) {
            binder.install(NetworkModule(), fileID: "App/StorageModule.swift", line: 3)
        }
    }

    final class Badge: Injectable {
        init(count: Int) {}
        static let initializer = Initializer<Badge>([.inject(Garage.self)], fileID: "App/Badge.swift", line: 4) { arguments in
            Badge(count: try arguments.value(at: 1))
        }
    }
}

/// What `body` threw.
private func caught(_ body: () throws -> Void) -> InjectionError? {
    do { try body() } catch { return error as? InjectionError }
    return nil
}

/// The error each kind's mistake produces.
private func error(of kind: InjectionError.Kind) throws -> InjectionError? {
    typealias Api = Examples.Api
    typealias Garage = Examples.Garage
    typealias Screen = Examples.Screen
    typealias Parent = Examples.Parent
    typealias Detail = Examples.Detail
    typealias Router = Examples.Router
    typealias Repository = Examples.Repository
    typealias Link = Examples.Link
    typealias Menu = Examples.Menu
    typealias Shelf = Examples.Shelf
    typealias Badge = Examples.Badge
    switch kind {
    case .missingBinding:
        return caught { _ = try Injector(Bindings { $0.bind(Screen.self, fileID: "App/AppModule.swift", line: 5) }) }
    case .incompleteBinding:
        return caught { _ = try Injector(Bindings { $0.bind((any Api).self, fileID: "App/AppModule.swift", line: 5) }) }
    case .factoryArguments:
        return caught { _ = try Injector(Bindings { $0.bind(Menu.self, fileID: "App/AppModule.swift", line: 5) }) }
    case .rawArguments:
        let injector = try Injector(modules: [])
        return caught { _ = try injector.getInstance(Badge.self) }
    case .injectorReleased:
        var injector: Injector? = try Injector(modules: [])
        let menu = try injector?.getInstance(Shelf.self)
        injector = nil
        return caught { _ = try menu?.detail.make("Inbox") }
    case .injectorShutDown:
        let injector = try Injector(modules: [])
        let shelf = try injector.getInstance(Examples.Reader.self)
        try injector.shutDown()
        return caught { _ = try shelf.detail.make("Inbox") }
    case .noInjector:
        return ProcessInjectorLock.holding {
            caught { _ = try Injection<Examples.Garage>(fileID: "App/ProfileModel.swift", line: 3).get() }
        }
    case .processInjectorChosen:
        return try ProcessInjectorLock.holding {
            let injector = try Injector(modules: [])
            try injector.chooseForProcess(fileID: "App/AppMain.swift", line: 12)
            defer { ProcessInjectorLock.forget() }
            return caught { try injector.chooseForProcess(fileID: "App/AppMain.swift", line: 20) }
        }
    case .closeFailed:
        let injector = try Injector(Bindings { $0.bind(Examples.Connection.self, fileID: "App/AppModule.swift", line: 5).in(.singleton) })
        _ = try injector.getInstance(Examples.Connection.self)
        return caught { try injector.shutDown() }
    case .noSession:
        let app = try Injector(modules: [])
        let session = InjectorSession(try app.childTemplate(providing: Examples.Account.self, modules: []))
        return caught { try session.withCurrent { _ in } }
    case .needsAwait:
        let injector = try Injector(Bindings {
            $0.bind(Key<String>(named: "vaultPath"), fileID: "App/AppModule.swift", line: 5).to(instance: "/run/secrets")
        })
        return caught { _ = try injector.getInstance(Examples.Checkout.self) }
    case .offActor:
        let injector = try Injector(modules: [])
        return caught { _ = try injector.getInstance(Examples.InboxModel.self) }
    case .unusedDeclaration:
        return caught {
            _ = try Injector(
                modules: [Bindings { $0.bind(Key<String>(named: "endpoint"), fileID: "App/AppModule.swift", line: 6).to(instance: "https://example.com") }],
                overrides: [Bindings { $0.bind(Key<String>(named: "endpiont"), fileID: "AppTests/FakeNetwork.swift", line: 4).to(instance: "http://localhost") }])
        }
    case .ambiguousBinding:
        final class HttpApi: Api {}
        final class OfflineApi: Api {}
        return caught {
            _ = try Injector(modules: [
                Bindings { $0.candidate(HttpApi.self, for: (any Api).self, fileID: "App/NetworkModule.swift", line: 4) { $0 } },
                Bindings { $0.candidate(OfflineApi.self, for: (any Api).self, fileID: "App/OfflineModule.swift", line: 7) { $0 } },
            ])
        }
    case .internalInconsistency:
        // Nothing a user writes produces it: it reports a broken invariant inside Sightless.
        return nil
    case .cyclicDependency:
        return caught { _ = try Injector(Bindings { $0.bind(Parent.self, fileID: "App/AppModule.swift", line: 5) }) }
    case .cyclicInstall:
        return caught { _ = try Injector(modules: [Examples.NetworkModule()]) }
    case .duplicateBinding:
        return caught {
            _ = try Injector(modules: [
                Bindings { $0.bind(Key<String>(named: "endpoint"), fileID: "App/AppModule.swift", line: 6).to(instance: "https://example.com") },
                Bindings { $0.bind(Key<String>(named: "endpoint"), fileID: "App/StagingModule.swift", line: 4).to(instance: "https://staging.example.com") },
            ])
        }
    case .dynamicDependency:
        return caught { _ = try Injector(Bindings { $0.bind(Router.self, fileID: "App/AppModule.swift", line: 5) }) }
    case .scopeConflict:
        return caught { _ = try Injector(Bindings { $0.bind(Detail.self, fileID: "App/AppModule.swift", line: 5).in(.singleton) }) }
    case .argumentCount:
        let injector = try Injector(modules: [])
        return caught { _ = try injector.getInstance(Detail.self) }
    case .argumentType:
        let injector = try Injector(modules: [])
        return caught { _ = try injector.getInstance(Detail.self, arguments: 42) }
    case .typeMismatch:
        let injector = try Injector(Bindings { $0.bind((any Api).self, fileID: "App/AppModule.swift", line: 5).to(Garage.self) })
        return caught { _ = try injector.getInstance((any Api).self) }
    case .initializerFailed:
        let injector = try Injector(Bindings {
            $0.bind(Key<String>(named: "databasePath"), fileID: "App/AppModule.swift", line: 5).to(instance: "/tmp/app.db")
        })
        return caught { _ = try injector.getInstance(Repository.self) }
    case .tooDeep:
        // A chain of closure bindings deeper than a 512 KiB stack holds.
        let injector = try Injector(Bindings { binder in
            for index in 0..<5_000 {
                binder.bind(Key<Link>(named: "n\(index)")).to { resolver in
                    index == 4_999 ? Link() : try resolver.getInstance(Key<Link>(named: "n\(index + 1)"))
                }
            }
        })
        let thrown = Locked<InjectionError?>(nil)
        onThread(stackSize: 512 * 1024) {
            let error = caught { _ = try injector.getInstance(Key<Link>(named: "n0")) }
            thrown.withLock { $0 = error }
        }
        return thrown.withLock { $0 }
    }
}

/// The text Errors.md shows for an error: its description (the numbers of `tooDeep` depend on
/// the build and the thread, and are compared masked).
private func shown(_ error: InjectionError) -> String {
    String(describing: error)
}

private func maskingNumbers(_ text: String) -> String {
    text.replacingOccurrences(of: "[0-9]+", with: "#", options: .regularExpression)
}

private let errorsFile = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Documentation/Sightless.docc/Errors.md")

/// The message blocks of Errors.md: a `<!-- message: kind -->` line, then a ```text block.
private func messageBlocks(in document: String) -> [(kind: String, range: Range<String.Index>)] {
    var blocks: [(String, Range<String.Index>)] = []
    var searchFrom = document.startIndex
    while let marker = document.range(of: "<!-- message: ", range: searchFrom..<document.endIndex),
          let markerEnd = document.range(of: " -->", range: marker.upperBound..<document.endIndex),
          let open = document.range(of: "```text\n", range: markerEnd.upperBound..<document.endIndex),
          let close = document.range(of: "\n```", range: open.upperBound..<document.endIndex) {
        blocks.append((String(document[marker.upperBound..<markerEnd.lowerBound]), open.upperBound..<close.lowerBound))
        searchFrom = close.upperBound
    }
    return blocks
}

@Suite("Errors.md")
struct ErrorsDocumentationTests {
    @Test("Errors.md shows, for every kind of error, the message its mistake produces", .serialized,
          arguments: InjectionError.Kind.allCases)
    func messageMatches(kind: InjectionError.Kind) throws {
        let document = try String(contentsOf: errorsFile, encoding: .utf8)
        guard kind != .internalInconsistency else { return }
        let thrown = try #require(try error(of: kind))
        #expect(thrown.kind == kind)
        #expect(thrown.problems.count == 1)
        let block = messageBlocks(in: document).first { $0.kind == "\(kind)" }
        let written = try #require(block.map { String(document[$0.range]) }, "Errors.md has no message block for \(kind)")
        if kind == .tooDeep {
            #expect(maskingNumbers(written) == maskingNumbers(shown(thrown)))
        } else {
            #expect(written == shown(thrown))
        }
    }

    @Test("Errors.md has one section per kind of error, in the order of the kinds")
    func everyKindDocumented() throws {
        let document = try String(contentsOf: errorsFile, encoding: .utf8)
        #expect(messageBlocks(in: document).map(\.kind) == InjectionError.Kind.allCases.map { "\($0)" })
    }

    @Test("SIGHTLESS_WRITE_ERRORS_DOC=1 rewrites the messages of Errors.md",
          .enabled(if: ProcessInfo.processInfo.environment["SIGHTLESS_WRITE_ERRORS_DOC"] == "1"))
    func rewriteMessages() throws {
        var document = try String(contentsOf: errorsFile, encoding: .utf8)
        for block in messageBlocks(in: document).reversed() {
            guard let kind = InjectionError.Kind.allCases.first(where: { "\($0)" == block.kind }),
                  let thrown = try error(of: kind) else { continue }
            document.replaceSubrange(block.range, with: shown(thrown))
        }
        try document.write(to: errorsFile, atomically: true, encoding: .utf8)
    }
}
