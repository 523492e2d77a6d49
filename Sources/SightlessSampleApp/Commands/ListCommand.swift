import Sightless

/// `list`: prints every task, done or not, in the order they were added.
struct ListCommand: Command, Injectable {
    let store: TaskStore
    let console: Console
    let formatter: TaskFormatter

    static let initializer = Initializer(ListCommand.init(store:console:formatter:))

    func run() throws(SampleFailure) {
        for line in formatter.lines(for: try store.load()) { console.write(line) }
    }
}
