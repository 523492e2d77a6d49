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
        let now = clock.now
        let task = try store.update { (tasks: inout [TaskItem]) throws(SampleFailure) -> TaskItem in
            let (next, overflow) = (tasks.map(\.id).max() ?? 0).addingReportingOverflow(1)
            guard !overflow else {
                throw .corruptStore("the task store has a task with the largest possible ID, so no new task can get one; it was left untouched. Renumber or remove that task.")
            }
            let task = TaskItem(id: next, text: text, created: now)
            tasks.append(task)
            return task
        }
        console.write("Added \(formatter.line(for: task))")
    }
}

extension String {
    func trimmingWhitespace() -> String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
