import Sightless
import Synchronization

/// The task list in memory, gone when the process ends: for trying commands out, and for the
/// `--in-memory` override.
final class InMemoryTaskStore: TaskStore, Injectable {
    private let tasks = Mutex<[TaskItem]>([])

    static let initializer = Initializer(InMemoryTaskStore.init)

    func load() -> [TaskItem] { tasks.withLock { $0 } }

    func update<Result>(_ change: (inout [TaskItem]) throws(SampleFailure) -> Result) throws(SampleFailure) -> Result {
        try tasks.withLock { (tasks: inout [TaskItem]) throws(SampleFailure) -> Result in try change(&tasks) }
    }
}
