/// A failure the user can act on: a message for standard error and the process's exit status.
///
/// The statuses follow BSD's sysexits, so scripts can tell a typo from a damaged file.
struct SampleFailure: Error, Equatable {
    let message: String
    let status: Int32
    /// Whether the whole usage helps more than the one-line reminder (no command, or one the
    /// sample does not know).
    var showsUsage = false

    /// The command line is wrong: an unknown command or option, a missing or malformed argument.
    static func usage(_ message: String) -> SampleFailure { SampleFailure(message: message, status: 64) }
    /// The command line names no command the sample knows.
    static func unknownCommand(_ message: String) -> SampleFailure {
        SampleFailure(message: message, status: 64, showsUsage: true)
    }
    /// The store file exists but is not a task list.
    static func corruptStore(_ message: String) -> SampleFailure { SampleFailure(message: message, status: 65) }
    /// The store file cannot be read or written.
    static func storeAccess(_ message: String) -> SampleFailure { SampleFailure(message: message, status: 74) }
    /// No task has the ID given.
    static func notFound(_ message: String) -> SampleFailure { SampleFailure(message: message, status: 1) }
    /// The object graph itself is wrong: a bug in the sample, reported rather than crashed on.
    static func software(_ message: String) -> SampleFailure { SampleFailure(message: message, status: 70) }
}
