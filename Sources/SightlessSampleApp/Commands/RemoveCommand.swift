import Sightless

/// `remove ID`: deletes a task.
struct RemoveCommand: Command, Injectable {
    let store: TaskStore
    let console: Console
    let formatter: TaskFormatter
    let id: Int

    static let initializer = Initializer(
        RemoveCommand.init(store:console:formatter:id:), .inject, .inject, .inject, .dynamic)

    func run() throws(SampleFailure) {
        let id = id
        let removed = try store.update { (tasks: inout [TaskItem]) throws(SampleFailure) -> TaskItem in
            guard let index = tasks.firstIndex(where: { $0.id == id }) else {
                throw .notFound(TaskItem.unknownID(id, among: tasks))
            }
            return tasks.remove(at: index)
        }
        console.write("Removed \(formatter.line(for: removed))")
    }
}
