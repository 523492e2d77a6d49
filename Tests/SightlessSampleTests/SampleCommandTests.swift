import Foundation
import Testing

@Suite("Tracking tasks")
struct TrackingTests {
    @Test("add, list, done and remove round-trip through the store file")
    func roundTrip() throws {
        let sample = try SampleProcess()
        let store = sample.path("tasks.json")

        let added = try sample.run("--store", store, "add", "Buy milk")
        #expect(added.status == 0)
        #expect(added.output == "Added 1  [ ] Buy milk\n")
        #expect(try sample.run("--store", store, "add", "Call the bank").output == "Added 2  [ ] Call the bank\n")

        #expect(try sample.run("--store", store, "list").output == "1  [ ] Buy milk\n2  [ ] Call the bank\n")

        let done = try sample.run("--store", store, "done", "1")
        #expect(done.status == 0)
        #expect(done.output == "Done 1  [x] Buy milk\n")
        #expect(try sample.run("--store", store, "list").output == "1  [x] Buy milk\n2  [ ] Call the bank\n")

        let removed = try sample.run("--store", store, "remove", "2")
        #expect(removed.status == 0)
        #expect(removed.output == "Removed 2  [ ] Call the bank\n")
        #expect(try sample.run("--store", store, "list").output == "1  [x] Buy milk\n")
    }

    @Test("an empty list says how to add a task")
    func emptyList() throws {
        let sample = try SampleProcess()
        let listed = try sample.run("--store", sample.path("tasks.json"), "list")
        #expect(listed.status == 0)
        #expect(listed.output == "No tasks. Add one: SightlessSample add \"Buy milk\"\n")
    }

    @Test("without --store, the tasks are kept in the home directory")
    func defaultStore() throws {
        let sample = try SampleProcess()
        #expect(try sample.run("add", "Water the plants").status == 0)
        #expect(FileManager.default.fileExists(atPath: sample.path(".sightless-tasks.json")))
    }

    @Test("--in-memory keeps the tasks for the run and writes no file")
    func inMemory() throws {
        let sample = try SampleProcess()
        let added = try sample.run("--in-memory", "add", "Buy milk")
        #expect(added.status == 0)
        #expect(added.output == "Added 1  [ ] Buy milk\n")
        #expect(try sample.run("--in-memory", "list").output.hasPrefix("No tasks."))
        #expect(try FileManager.default.contentsOfDirectory(atPath: sample.directory.path).isEmpty)
    }

    @Test("help prints the commands and the default store, and succeeds")
    func help() throws {
        let help = try SampleProcess().run("help")
        #expect(help.status == 0)
        for word in ["add \"TEXT\"", "list", "done ID", "remove ID", "graph", "explain TYPE", "--store PATH", "--in-memory", "~/.sightless-tasks.json"] {
            #expect(help.output.contains(word), "help does not mention \(word)")
        }
    }
}

@Suite("Bad input")
struct BadInputTests {
    @Test("an unknown command prints the usage and exits 64")
    func unknownCommand() throws {
        let result = try SampleProcess().run("frobnicate")
        #expect(result.status == 64)
        #expect(result.output.isEmpty)
        #expect(result.error.hasPrefix("error: unknown command 'frobnicate'.\n"))
        #expect(result.error.contains("USAGE: SightlessSample"))
        #expect(result.error.contains("COMMANDS:"))
    }

    @Test("no command at all prints the usage and exits 64")
    func noCommand() throws {
        let result = try SampleProcess().run()
        #expect(result.status == 64)
        #expect(result.error.hasPrefix("error: no command given.\n"))
    }

    @Test("add without text says what to type, and exits 64")
    func missingText() throws {
        let result = try SampleProcess().run("--in-memory", "add")
        #expect(result.status == 64)
        #expect(result.error.hasPrefix("error: add needs the text of the task, e.g. SightlessSample add \"Buy milk\".\n"))
    }

    @Test("add with blank text exits 64")
    func blankText() throws {
        let result = try SampleProcess().run("--in-memory", "add", "   ")
        #expect(result.status == 64)
        #expect(result.error.hasPrefix("error: add needs the text of the task"))
    }

    @Test("done without an ID exits 64")
    func missingID() throws {
        let result = try SampleProcess().run("--in-memory", "done")
        #expect(result.status == 64)
        #expect(result.error.hasPrefix("error: done needs the ID of a task, e.g. SightlessSample done 3.\n"))
    }

    @Test("a malformed ID exits 64")
    func malformedID() throws {
        let result = try SampleProcess().run("--in-memory", "remove", "three")
        #expect(result.status == 64)
        #expect(result.error.hasPrefix("error: remove needs a task ID, a whole number such as 3, not 'three'.\n"))
    }

    @Test("an unknown ID names the IDs there are, and exits 1")
    func unknownID() throws {
        let sample = try SampleProcess()
        let store = sample.path("tasks.json")
        _ = try sample.run("--store", store, "add", "Buy milk")
        let result = try sample.run("--store", store, "done", "7")
        #expect(result.status == 1)
        #expect(result.error == "error: no task has ID 7 (IDs are 1). See them with: SightlessSample list\n")
    }

    @Test("an unknown option exits 64")
    func unknownOption() throws {
        let result = try SampleProcess().run("--verbose", "list")
        #expect(result.status == 64)
        #expect(result.error.hasPrefix("error: unknown option '--verbose'.\n"))
    }

    @Test("an unknown graph format exits 64")
    func unknownFormat() throws {
        let result = try SampleProcess().run("--in-memory", "graph", "--format", "svg")
        #expect(result.status == 64)
        #expect(result.error.hasPrefix("error: unknown graph format 'svg'; use one of dot, mermaid, text.\n"))
    }

    @Test("explaining a type the graph lacks exits 64")
    func unknownType() throws {
        let result = try SampleProcess().run("--in-memory", "explain", "Spaceship")
        #expect(result.status == 64)
        #expect(result.error.hasPrefix("error: the graph has no type Spaceship. Its types: AddCommand, "))
    }

    @Test("a corrupt store is reported with exit 65 and left byte for byte intact")
    func corruptStore() throws {
        let sample = try SampleProcess()
        let store = sample.path("tasks.json")
        let corrupt = Data("[{\"id\": 1, \"text\": \"Buy milk\"".utf8)
        try corrupt.write(to: URL(fileURLWithPath: store))

        let result = try sample.run("--store", store, "add", "Call the bank")
        #expect(result.status == 65)
        #expect(result.error.hasPrefix("error: the task store \(store) is not a task list ("))
        #expect(result.error.contains("it was left untouched"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == corrupt)
        // Nothing but the store and the lock file beside it: no temporary file, no replacement.
        #expect(try FileManager.default.contentsOfDirectory(atPath: sample.directory.path).sorted() == ["tasks.json", "tasks.json.lock"])
    }

    @Test("a store of the wrong shape is reported with exit 65 and left intact")
    func wrongShape() throws {
        let sample = try SampleProcess()
        let store = sample.path("tasks.json")
        let wrong = Data("{\"tasks\": []}".utf8)
        try wrong.write(to: URL(fileURLWithPath: store))

        let result = try sample.run("--store", store, "done", "1")
        #expect(result.status == 65)
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == wrong)
    }

    @Test("a store that cannot be read is reported with exit 74")
    func unreadableStore() throws {
        let sample = try SampleProcess()
        // A directory cannot be read as a file, even by root, for whom permissions do not count.
        let store = sample.path("tasks.json")
        try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: false)

        let result = try sample.run("--store", store, "list")
        #expect(result.status == 74)
        #expect(result.error == "error: cannot read the task store \(store): it is a directory. Pass a file with --store PATH.\n")
    }
}

@Suite("The sample's object graph")
struct SampleGraphTests {
    static let nodes = [
        "AddCommand", "Clock", "Console", "DoneCommand", "ExplainCommand", "FileTaskStore",
        "GraphCommand", "HelpCommand", "Injector", "ListCommand", "RemoveCommand", "Router",
        #"String(named: \"storePath\")"#, "TaskFormatter", "TaskStore",
    ]

    @Test("graph --format dot names every node of the app's graph")
    func dot() throws {
        let result = try SampleProcess().run("graph", "--format", "dot")
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("digraph Sightless {\n"))
        let declared = result.output.split(separator: "\n")
            .filter { $0.contains(" [label=") && !$0.contains(" -> ") }
            .compactMap { $0.split(separator: " [label=").first?.trimmingCharacters(in: .whitespaces) }
        #expect(declared == Self.nodes.map { "\"\($0)\"" })
    }

    @Test("with --in-memory the graph shows the in-memory store in place of the file store")
    func inMemory() throws {
        let result = try SampleProcess().run("--in-memory", "graph")
        #expect(result.status == 0)
        #expect(result.output.contains("TaskStore — singleton, alias, kept by this injector\n  bound to → InMemoryTaskStore\n"))
        #expect(!result.output.contains("FileTaskStore"))
    }

    @Test("graph --format mermaid prints a flowchart")
    func mermaid() throws {
        let result = try SampleProcess().run("graph", "--format", "mermaid")
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("flowchart LR\n"))
    }

    @Test("explain prints the tree of a command")
    func explain() throws {
        let result = try SampleProcess().run("explain", "RemoveCommand")
        #expect(result.status == 0)
        #expect(result.output == #"""
            RemoveCommand — unscoped, just-in-time type, dynamic: Int
            ├─ argument 1 → TaskStore — singleton, alias, kept by this injector
            │  └─ bound to → FileTaskStore — unscoped, just-in-time type
            │     └─ argument 1 → String(named: "storePath") — unscoped, instance
            ├─ argument 2 → Console — unscoped, instance
            └─ argument 3 → TaskFormatter — unscoped, just-in-time type

            """#)
    }
}
