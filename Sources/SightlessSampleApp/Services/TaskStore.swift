import Foundation
import Sightless

/// Where the task list lives. One instance per run (a singleton), shared by every command.
protocol TaskStore: AnyObject, Sendable {
    /// The tasks, read under a shared lock.
    func load() throws(SampleFailure) -> [TaskItem]
    /// Reads the tasks, lets `change` modify them, and writes them back if it did, all under
    /// one exclusive lock: two processes changing the store at once never lose a change.
    func update<Result>(_ change: (inout [TaskItem]) throws(SampleFailure) -> Result) throws(SampleFailure) -> Result
}
