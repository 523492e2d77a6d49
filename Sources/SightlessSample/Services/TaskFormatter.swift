import Sightless
/// Turns tasks into the lines the commands print.
struct TaskFormatter: Injectable {
    static let initializer = Initializer(TaskFormatter.init)

    /// `  3  [x] Buy milk`, IDs right-aligned so the boxes line up.
    func lines(for tasks: [TaskItem]) -> [String] {
        guard !tasks.isEmpty else { return ["No tasks. Add one: SightlessSample add \"Buy milk\""] }
        let width = tasks.map { String($0.id).count }.max() ?? 1
        return tasks.map { task in
            let id = String(repeating: " ", count: width - String(task.id).count) + String(task.id)
            return "\(id)  [\(task.isDone ? "x" : " ")] \(task.text)"
        }
    }

    func line(for task: TaskItem) -> String {
        "\(task.id)  [\(task.isDone ? "x" : " ")] \(task.text)"
    }
}
