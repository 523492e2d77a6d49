@testable import Sightless

/// The process has one chosen injector: the tests that choose one, and those that read where
/// no injector is current, take this lock, so that they never see each other's choice.
enum ProcessInjectorLock {
    private static let lock = Locked<Void>(())

    static func holding<Result>(_ body: () throws -> Result) rethrows -> Result {
        try lock.withLock { _ in try body() }
    }

    /// Forgets the process's chosen injector.
    static func forget() { _ = ProcessInjector.clear() }
}
