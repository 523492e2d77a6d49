import Testing
import Sightless

@Suite("Exporting the graph")
struct GraphExportTests {
    let injector: Injector

    init() throws {
        injector = try Injector(modules: [Newsroom.AppModule()])
    }

    @Test("DOT draws every node with its scope and source, and every edge with what it fills")
    func dot() {
        #expect(injector.exportGraph(as: .dot) == #"""
            digraph Sightless {
              rankdir=LR;
              node [shape=box, fontname="Helvetica"];
              edge [fontname="Helvetica", fontsize=10];
              "Clock" [label="Clock\nsingleton, closure, kept by this injector", style=bold];
              "Feed" [label="Feed\nsingleton, alias, kept by this injector", style=bold];
              "Logger" [label="Logger\nunscoped, provider"];
              "Reader" [label="Reader\nunscoped, type, dynamic: String"];
              "RemoteFeed" [label="RemoteFeed\nunscoped, just-in-time type"];
              "String(named: \"endpoint\")" [label="String(named: \"endpoint\")\nunscoped, instance"];
              "Feed" -> "RemoteFeed" [label="bound to"];
              "Reader" -> "Feed" [label="argument 1"];
              "Reader" -> "Logger" [label="property \\Reader.logger (optional)", style=dashed];
              "RemoteFeed" -> "String(named: \"endpoint\")" [label="argument 1"];
              "RemoteFeed" -> "Clock" [label="argument 2"];
            }

            """#)
    }

    @Test("Mermaid draws the same graph with identifiers GitHub accepts")
    func mermaid() {
        #expect(injector.exportGraph(as: .mermaid) == #"""
            flowchart LR
              Clock["Clock<br/>singleton, closure, kept by this injector"]
              Feed["Feed<br/>singleton, alias, kept by this injector"]
              Logger["Logger<br/>unscoped, provider"]
              Reader["Reader<br/>unscoped, type, dynamic: String"]
              RemoteFeed["RemoteFeed<br/>unscoped, just-in-time type"]
              String_named___endpoint__["String(named: #quot;endpoint#quot;)<br/>unscoped, instance"]
              Feed -->|"bound to"| RemoteFeed
              Reader -->|"argument 1"| Feed
              Reader -.->|"property \Reader.logger (optional)"| Logger
              RemoteFeed -->|"argument 1"| String_named___endpoint__
              RemoteFeed -->|"argument 2"| Clock
              classDef singleton stroke-width:3px
              class Clock,Feed singleton

            """#)
    }

    @Test("text lists each node, then its edges indented")
    func text() {
        #expect(injector.exportGraph(as: .text) == #"""
            Clock — singleton, closure, kept by this injector
            Feed — singleton, alias, kept by this injector
              bound to → RemoteFeed
            Logger — unscoped, provider
            Reader — unscoped, type, dynamic: String
              argument 1 → Feed
              property \Reader.logger (optional) → Logger
            RemoteFeed — unscoped, just-in-time type
              argument 1 → String(named: "endpoint")
              argument 2 → Clock
            String(named: "endpoint") — unscoped, instance

            """#)
    }

    @Test("the keys of the graph come in the exports' order")
    func keys() {
        #expect(injector.graphKeys.map(\.description) == [
            "Clock", "Feed", "Logger", "Reader", "RemoteFeed", #"String(named: "endpoint")"#,
        ])
    }

    @Test("the export does not depend on the order of the bindings")
    func stableOrder() throws {
        struct Reversed: Module {
            func configure(_ binder: Binder) {
                binder.bind(Newsroom.Logger.self).to(provider: Newsroom.LoggerProvider())
                binder.bind(Newsroom.Clock.self).to { _ in Newsroom.Clock() }.in(.singleton)
                binder.bind(Key<String>(named: "endpoint")).to(instance: "https://example.com")
                binder.bind(Newsroom.Feed.self).to(Newsroom.RemoteFeed.self).in(.singleton)
                binder.bind(Newsroom.Reader.self)
            }
        }
        let reversed = try Injector(modules: [Reversed()])
        for format in GraphFormat.allCases {
            #expect(reversed.exportGraph(as: format) == injector.exportGraph(as: format))
        }
    }

    @Test("the export leaves out types compiled on a later first request")
    func laterRequests() throws {
        let before = injector.exportGraph(as: .text)
        _ = try injector.getInstance(Newsroom.RemoteFeed.self)
        _ = try injector.getInstance(Garage.self)
        #expect(injector.exportGraph(as: .text) == before)
    }
}

@Suite("Explaining a type")
struct ExplainTests {
    let injector: Injector

    init() throws {
        injector = try Injector(modules: [Newsroom.AppModule()])
    }

    @Test("explain draws the tree of what building a type takes")
    func tree() throws {
        #expect(try injector.explain(Newsroom.Reader.self) == #"""
            Reader — unscoped, type, dynamic: String
            ├─ argument 1 → Feed — singleton, alias, kept by this injector
            │  └─ bound to → RemoteFeed — unscoped, just-in-time type
            │     ├─ argument 1 → String(named: "endpoint") — unscoped, instance
            │     └─ argument 2 → Clock — singleton, closure, kept by this injector
            └─ property \Reader.logger (optional) → Logger — unscoped, provider

            """#)
    }

    @Test("a node reached twice is expanded once")
    func repeated() throws {
        final class Desk: Injectable {
            init(first: Newsroom.Feed, second: Newsroom.Feed) {}
            static let initializer = Initializer(Desk.init(first:second:))
        }
        #expect(try injector.explain(Desk.self) == #"""
            Desk — unscoped, just-in-time type
            ├─ argument 1 → Feed — singleton, alias, kept by this injector
            │  └─ bound to → RemoteFeed — unscoped, just-in-time type
            │     ├─ argument 1 → String(named: "endpoint") — unscoped, instance
            │     └─ argument 2 → Clock — singleton, closure, kept by this injector
            └─ argument 2 → Feed (see above)

            """#)
    }

    @Test("explain names a key by its name too")
    func namedKey() throws {
        #expect(try injector.explain(Key<String>(named: "endpoint")) == #"""
            String(named: "endpoint") — unscoped, instance

            """#)
    }

    @Test("a dependency nothing fills is shown as missing")
    func missing() throws {
        final class Printer: Injectable {
            init(paper: Color) {}
            static let initializer = Initializer(Printer.init(paper:))
        }
        #expect(try injector.explain(Printer.self) == #"""
            Printer — unscoped, just-in-time type
            └─ argument 1 → Color: missing (nothing bound)

            """#)
    }

    @Test("explaining a key nothing can build is a missing binding")
    func unknown() {
        #expect(throws: InjectionError.self) { try injector.explain(Color.self) }
    }
}
