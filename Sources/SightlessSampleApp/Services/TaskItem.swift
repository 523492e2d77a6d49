import Foundation

/// One task of the list, as the store file keeps it.
struct TaskItem: Codable, Equatable, Sendable {
    let id: Int
    let text: String
    let created: Date
    var completed: Date?

    var isDone: Bool { completed != nil }
}
