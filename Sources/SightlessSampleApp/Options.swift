import Foundation

/// The options that choose the storage, read from anywhere on the command line; the rest is
/// the command and its arguments.
struct Options {
    /// The store's path; `nil` when none was given and `HOME` is not set.
    var storePath: String?
    var inMemory = false
    var command: [String] = []

    init(parsing arguments: [String], environment: [String: String]) throws(SampleFailure) {
        storePath = environment["SIGHTLESS_TASKS"] ?? Self.defaultStore(home: environment["HOME"])
        var rest = arguments[...]
        var storeGiven = false
        while let argument = rest.popFirst() {
            switch argument {
            case "--":
                command.append(contentsOf: rest)
                rest = []
            case "--in-memory":
                inMemory = true
            case "--store":
                guard let path = rest.popFirst(), !path.isEmpty else {
                    throw .usage("--store needs a file path, e.g. --store tasks.json.")
                }
                storePath = path
                storeGiven = true
            case _ where argument.hasPrefix("--store="):
                let path = String(argument.dropFirst("--store=".count))
                guard !path.isEmpty else { throw .usage("--store needs a file path, e.g. --store=tasks.json.") }
                storePath = path
                storeGiven = true
            case "--format":
                // graph's own option: keep it, and its value, with the command.
                command.append(argument)
                if let value = rest.popFirst() { command.append(value) }
            case _ where argument.hasPrefix("--") && argument != "--help":
                throw .usage("unknown option '\(argument)'.")
            default:
                command.append(argument)
            }
        }
        if inMemory && storeGiven {
            throw .usage("--store and --in-memory cannot be used together.")
        }
        if storePath == nil && !inMemory && needsStore {
            throw .usage("HOME is not set, so there is no default task store. Pass --store PATH, set SIGHTLESS_TASKS, or use --in-memory.")
        }
    }

    private static func defaultStore(home: String?) -> String? {
        guard let home, !home.isEmpty else { return nil }
        return URL(fileURLWithPath: home).appendingPathComponent(".sightless-tasks.json").path
    }

    /// Whether the command reads or writes the task store.
    var needsStore: Bool {
        ["add", "list", "done", "remove"].contains(command.first ?? "")
    }
}
