/// A deadline for a task that looks at it between short sleeps, extended by the time no
/// cooperative thread ran that task: tests that block the process's few cooperative threads (the
/// sample's, waiting for its processes) stall every task for a while, which is no hang of the
/// work being watched, and no reason for it to fail.
struct PatientDeadline {
    private var deadline: ContinuousClock.Instant
    private var lastLook: ContinuousClock.Instant

    /// A deadline `limit` from now.
    init(after limit: Duration) {
        let now = ContinuousClock.now
        deadline = now + limit
        lastLook = now
    }

    /// Whether the deadline has passed. A look that comes far later than the sleep between looks
    /// (more than 250 ms) means the task was not run: the deadline moves by that much.
    mutating func hasPassed() -> Bool {
        let now = ContinuousClock.now
        let stall = now - lastLook
        if stall > .milliseconds(250) { deadline += stall }
        lastLook = now
        return now >= deadline
    }
}
