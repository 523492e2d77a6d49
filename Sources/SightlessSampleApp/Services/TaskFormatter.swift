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
            return "\(id)  [\(task.isDone ? "x" : " ")] \(Self.printable(task.text))"
        }
    }

    func line(for task: TaskItem) -> String {
        "\(task.id)  [\(task.isDone ? "x" : " ")] \(Self.printable(task.text))"
    }

    /// The text with control characters (a terminal's escape sequences among them) written as
    /// `\u{1B}`, so that printing a task never drives the terminal.
    static func printable(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar.properties.generalCategory == .control {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
