import Sightless

/// `done ID`: marks a task done.
struct DoneCommand: Command, Injectable {
    let store: TaskStore
    let clock: Clock
    let console: Console
    let formatter: TaskFormatter
    let id: Int

    static let initializer = Initializer(
        DoneCommand.init(store:clock:console:formatter:id:), .inject, .inject, .inject, .inject, .dynamic)

    func run() throws(SampleFailure) {
        let now = clock.now
        let id = id
        let task = try store.update { (tasks: inout [TaskItem]) throws(SampleFailure) -> TaskItem in
            guard let index = tasks.firstIndex(where: { $0.id == id }) else {
                throw .notFound(TaskItem.unknownID(id, among: tasks))
            }
            if tasks[index].completed == nil { tasks[index].completed = now }
            return tasks[index]
        }
        console.write("Done \(formatter.line(for: task))")
    }
}

extension TaskItem {
    /// The message for an ID no task has, with the IDs there are.
    static func unknownID(_ id: Int, among tasks: [TaskItem]) -> String {
        let known = tasks.isEmpty ? "the list is empty" : "IDs are " + tasks.map { String($0.id) }.joined(separator: ", ")
        return "no task has ID \(id) (\(known)). See them with: SightlessSample list"
    }
}
