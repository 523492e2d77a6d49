import Sightless

/// `graph [--format dot|mermaid|text]`: prints the sample's own object graph.
struct GraphCommand: Command, Injectable {
    let injector: Injector
    let console: Console
    let format: GraphFormat

    static let initializer = Initializer(GraphCommand.init(injector:console:format:), .inject, .inject, .dynamic)

    func run() {
        // The export ends with a line break; the console adds its own.
        console.write(String(injector.exportGraph(as: format).dropLast()))
    }
}
