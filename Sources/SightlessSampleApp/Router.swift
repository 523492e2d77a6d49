import Sightless

/// Reads the command line and makes the command it names, with the values typed after it as
/// the command's dynamic arguments. Each command comes from a `Factory`, so the graph shows
/// and checks every edge from the router to a command when the injector is built.
final class Router: Injectable {
    private let add: Factory<AddCommand, String>
    private let list: Factory<ListCommand>
    private let done: Factory<DoneCommand, Int>
    private let remove: Factory<RemoveCommand, Int>
    private let graph: Factory<GraphCommand, GraphFormat>
    private let explain: Factory<ExplainCommand, String>
    private let help: Factory<HelpCommand>
    private let console: Console

    init(
        add: Factory<AddCommand, String>, list: Factory<ListCommand>, done: Factory<DoneCommand, Int>,
        remove: Factory<RemoveCommand, Int>, graph: Factory<GraphCommand, GraphFormat>,
        explain: Factory<ExplainCommand, String>, help: Factory<HelpCommand>, console: Console
    ) {
        self.add = add
        self.list = list
        self.done = done
        self.remove = remove
        self.graph = graph
        self.explain = explain
        self.help = help
        self.console = console
    }

    static let initializer = Initializer(Router.init(add:list:done:remove:graph:explain:help:console:))

    /// Runs a command; the process's exit status.
    func run(_ arguments: [String]) -> Int32 {
        do {
            try command(for: arguments).run()
            return 0
        } catch {
            console.writeError("error: \(error.message)")
            if error.showsUsage {
                console.writeError("\n" + Usage.text)
            } else if error.status == 64 {
                console.writeError(Usage.reminder)
            }
            return error.status
        }
    }

    private func command(for arguments: [String]) throws(SampleFailure) -> any Command {
        guard let name = arguments.first else { throw .unknownCommand("no command given.") }
        let rest = Array(arguments.dropFirst())
        do {
            switch name {
            case "add": return try add.make(try text(of: name, rest))
            case "list":
                try noArguments(name, rest)
                return try list.make()
            case "done": return try done.make(try id(of: name, rest))
            case "remove": return try remove.make(try id(of: name, rest))
            case "graph": return try graph.make(try format(rest))
            case "explain": return try explain.make(try typeName(rest))
            case "help", "--help", "-h": return try help.make()
            default: throw SampleFailure.unknownCommand("unknown command '\(name)'.")
            }
        } catch let failure as SampleFailure {
            throw failure
        } catch {
            throw .software("the object graph is wrong: \(error)")
        }
    }

    // MARK: - Arguments

    private func text(of command: String, _ rest: [String]) throws(SampleFailure) -> String {
        guard rest.count == 1 else {
            throw .usage(rest.isEmpty
                ? "\(command) needs the text of the task, e.g. SightlessSample add \"Buy milk\"."
                : "\(command) takes one argument, the text in quotes: SightlessSample add \"\(rest.joined(separator: " "))\".")
        }
        return rest[0]
    }

    private func id(of command: String, _ rest: [String]) throws(SampleFailure) -> Int {
        guard rest.count == 1 else {
            throw .usage(rest.isEmpty
                ? "\(command) needs the ID of a task, e.g. SightlessSample \(command) 3."
                : "\(command) takes one ID, but \(rest.count) arguments were given.")
        }
        guard let id = Int(rest[0]), id > 0 else {
            throw .usage("\(command) needs a task ID, a whole number such as 3, not '\(TaskFormatter.printable(rest[0]))'.")
        }
        return id
    }

    private func format(_ rest: [String]) throws(SampleFailure) -> GraphFormat {
        let formats = GraphFormat.allCases.map(\.rawValue).joined(separator: ", ")
        switch rest.count {
        case 0:
            return .text
        case 2 where rest[0] == "--format":
            guard let format = GraphFormat(rawValue: rest[1]) else {
                throw .usage("unknown graph format '\(TaskFormatter.printable(rest[1]))'; use one of \(formats).")
            }
            return format
        case 1 where rest[0] == "--format":
            throw .usage("--format needs a value: one of \(formats).")
        default:
            throw .usage("graph takes only --format FORMAT, one of \(formats).")
        }
    }

    private func typeName(_ rest: [String]) throws(SampleFailure) -> String {
        guard rest.count == 1 else {
            throw .usage("explain needs one type name, e.g. SightlessSample explain AddCommand.")
        }
        return rest[0]
    }

    private func noArguments(_ command: String, _ rest: [String]) throws(SampleFailure) {
        guard rest.isEmpty else { throw .usage("\(command) takes no arguments.") }
    }
}
