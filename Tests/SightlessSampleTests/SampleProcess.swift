import Foundation
import Testing

/// Runs the built `SightlessSample` binary, in a temporary directory that is also its home, so
/// that the default store never touches the real one. The directory goes away with the value.
final class SampleProcess: Sendable {
    struct Result {
        let status: Int32
        let output: String
        let error: String
    }

    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("SightlessSampleTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A file in the temporary directory.
    func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    /// Runs the sample with these arguments, to completion.
    func run(_ arguments: String...) throws -> Result {
        try run(arguments, unsetting: [])
    }

    /// Runs several samples at once, each with its own arguments, and waits for all of them.
    func runTogether(_ commands: [[String]]) throws -> [Result] {
        let results = Locked<[Int: Result]>([:])
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: commands.count) { index in
            do {
                let result = try run(commands[index], unsetting: [])
                results.withLock { $0[index] = result }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        try #require(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        return results.withLock { all in commands.indices.compactMap { all[$0] } }
    }

    /// Runs shell scripts at once (`sh -c SCRIPT ARG…`), in the sample's directory; their exit
    /// statuses.
    func runShell(together scripts: [[String]]) throws -> [Int32] {
        let processes = try scripts.map { script in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c"] + script
            process.currentDirectoryURL = directory
            try process.run()
            return process
        }
        return processes.map { process in
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    /// Runs the sample with these arguments and without these environment variables.
    func run(_ arguments: [String], unsetting unset: [String]) throws -> Result {
        let binary = try #require(Self.binary, "SightlessSample was not found next to the tests; run `swift build` first.")
        // Captured outside the sample's directory, which the tests inspect.
        let capture = FileManager.default.temporaryDirectory
        let output = capture.appendingPathComponent("SightlessSampleTests-stdout-\(UUID().uuidString)")
        let error = capture.appendingPathComponent("SightlessSampleTests-stderr-\(UUID().uuidString)")
        try Data().write(to: output)
        try Data().write(to: error)
        let outputHandle = try FileHandle(forWritingTo: output)
        let errorHandle = try FileHandle(forWritingTo: error)
        defer {
            try? FileManager.default.removeItem(at: output)
            try? FileManager.default.removeItem(at: error)
        }

        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = directory.path
        environment["SIGHTLESS_TASKS"] = nil
        for name in unset { environment[name] = nil }
        process.environment = environment
        // Files, not pipes: nothing to drain while the process runs.
        process.standardOutput = outputHandle
        process.standardError = errorHandle
        try process.run()
        process.waitUntilExit()
        try outputHandle.close()
        try errorHandle.close()
        return Result(
            status: process.terminationStatus,
            output: String(decoding: try Data(contentsOf: output), as: UTF8.self),
            error: String(decoding: try Data(contentsOf: error), as: UTF8.self))
    }

    /// The binary SwiftPM built next to this test bundle, in the same configuration.
    static let binary: URL? = {
        var candidates: [URL] = []
        // The test runner lives in the build products directory, beside the sample.
        if let runner = Bundle.main.executableURL {
            candidates.append(runner.deletingLastPathComponent())
        }
        candidates.append(Bundle.main.bundleURL)
        candidates.append(Bundle(for: Marker.self).bundleURL.deletingLastPathComponent())
        // Else the package's default build directory, found from this file's place in it.
        let package = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(package.appendingPathComponent(".build/debug"))
        return candidates
            .map { $0.appendingPathComponent("SightlessSample") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    private final class Marker {}
}

/// A value behind a lock, for the results of processes run at once.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
