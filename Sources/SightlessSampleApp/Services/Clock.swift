import Foundation

/// The time a task is added or done; a protocol so a fixed clock can stand in.
protocol Clock {
    var now: Date { get }
}

struct SystemClock: Clock {
    var now: Date { Date() }
}
