import Sightless

/// `add "text"`: appends a task and prints it with its new ID.
struct AddCommand: Command, Injectable {
    let store: TaskStore
    let clock: Clock
    let console: Console
    let formatter: TaskFormatter
    let text: String

    static let initializer = Initializer(
        AddCommand.init(store:clock:console:formatter:text:), .inject, .inject, .inject, .inject, .dynamic)

    func run() throws(SampleFailure) {
        let text = text.trimmingWhitespace()
        guard !text.isEmpty else {
            throw .usage("add needs the text of the task, e.g. SightlessSample add \"Buy milk\".")
        }
        var tasks = try store.load()
        let task = TaskItem(id: (tasks.map(\.id).max() ?? 0) + 1, text: text, created: clock.now)
        tasks.append(task)
        try store.save(tasks)
        console.write("Added \(formatter.line(for: task))")
    }
}

extension String {
    func trimmingWhitespace() -> String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
