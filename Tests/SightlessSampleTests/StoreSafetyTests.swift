import Foundation
import Testing

/// The store never loses a task: processes that change it at once, odd files where it should
/// be, and what it prints.
@Suite("Store safety")
struct StoreSafetyTests {
    private func taskIDs(_ sample: SampleProcess, store: String) throws -> [Int] {
        let listed = try sample.run("--store", store, "list")
        #expect(listed.status == 0)
        return listed.output.split(separator: "\n").compactMap { Int($0.split(separator: " ").first ?? "") }
    }

    @Test("20 concurrent add processes keep exactly 20 tasks with distinct IDs", arguments: 1...3)
    func concurrentAdds(round: Int) throws {
        let sample = try SampleProcess()
        let store = sample.path("tasks.json")
        let results = try sample.runTogether((1...20).map { ["--store", store, "add", "task \($0)"] })
        #expect(results.allSatisfy { $0.status == 0 }, "\(results.map(\.error))")
        let ids = try taskIDs(sample, store: store)
        #expect(ids.count == 20)
        #expect(Set(ids) == Set(1...20))
    }

    @Test("two writers adding 20 tasks each keep all 40")
    func twoWriters() throws {
        let sample = try SampleProcess()
        let store = sample.path("tasks.json")
        let writer = "for i in $(seq 1 20); do \"$0\" --store \"$1\" add \"$2 $i\" >/dev/null || exit 1; done"
        let binary = try #require(SampleProcess.binary).path
        let results = try sample.runShell(together: [
            [writer, binary, store, "first"],
            [writer, binary, store, "second"],
        ])
        #expect(results.allSatisfy { $0 == 0 })
        let ids = try taskIDs(sample, store: store)
        #expect(ids.count == 40)
        #expect(Set(ids).count == 40)
    }

    @Test("a store whose largest ID cannot grow is reported with exit 65 and left untouched")
    func overflowingID() throws {
        let sample = try SampleProcess()
        let store = sample.path("tasks.json")
        let contents = #"[{"created":"2026-01-01T00:00:00Z","id":9223372036854775807,"text":"last"}]"#
        try contents.write(toFile: store, atomically: true, encoding: .utf8)
        let result = try sample.run("--store", store, "add", "one more")
        #expect(result.status == 65)
        #expect(result.error.contains("largest possible ID"))
        #expect(try String(contentsOfFile: store, encoding: .utf8) == contents)
    }

    @Test("a store whose IDs are not positive is reported with exit 65 and not extended")
    func negativeIDs() throws {
        let sample = try SampleProcess()
        let store = sample.path("tasks.json")
        let contents = #"[{"created":"2026-01-01T00:00:00Z","id":-4,"text":"odd"},{"created":"2026-01-01T00:00:00Z","id":-2,"text":"odder"}]"#
        try contents.write(toFile: store, atomically: true, encoding: .utf8)
        let result = try sample.run("--store", store, "add", "next")
        #expect(result.status == 65)
        #expect(result.error.contains("not positive (-4, -2)"))
        #expect(try String(contentsOfFile: store, encoding: .utf8) == contents)
    }

    @Test("a symlinked store keeps its link, and the file it points to gets the task")
    func symlinkedStore() throws {
        let sample = try SampleProcess()
        let real = sample.path("real.json")
        let link = sample.path("link.json")
        #expect(try sample.run("--store", real, "add", "first").status == 0)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.json")
        #expect(try sample.run("--store", link, "add", "through the link").status == 0)
        let attributes = try FileManager.default.attributesOfItem(atPath: link)
        #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink)
        #expect(try taskIDs(sample, store: real) == [1, 2])
    }

    @Test("a 0600 store stays 0600 after a change")
    func permissionsKept() throws {
        let sample = try SampleProcess()
        let store = sample.path("tasks.json")
        #expect(try sample.run("--store", store, "add", "secret").status == 0)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: store)
        #expect(try sample.run("--store", store, "add", "another secret").status == 0)
        let mode = try FileManager.default.attributesOfItem(atPath: store)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: store)
        #expect(try sample.run("--store", store, "done", "1").status == 0)
        #expect(try FileManager.default.attributesOfItem(atPath: store)[.posixPermissions] as? Int == 0o640)
    }

    @Test("no temporary file survives a save, and one left by a dead process is removed")
    func noTemporaryFiles() throws {
        let sample = try SampleProcess()
        let store = sample.path("tasks.json")
        try Data("stale".utf8).write(to: URL(fileURLWithPath: sample.path(".tasks.json.99999.tmp")))
        #expect(try sample.run("--store", store, "add", "fresh").status == 0)
        let left = try FileManager.default.contentsOfDirectory(atPath: sample.directory.path).filter { $0.hasSuffix(".tmp") }
        #expect(left.isEmpty, "\(left)")
    }

    /// File names as long as a file name may be (255 bytes), and one that leaves just room for
    /// the lock file's suffix; one of two-byte characters, whose bytes cannot be cut anywhere.
    static let longNames = [
        String(repeating: "t", count: 250),
        String(repeating: "t", count: 255),
        String(repeating: "é", count: 127) + "t",
    ]

    @Test("a store whose file name is as long as a file name may be takes tasks and leaves no temporary file",
          arguments: longNames)
    func longFileName(name: String) throws {
        let sample = try SampleProcess()
        let store = sample.path(name)
        let first = try sample.run("--store", store, "add", "first")
        #expect(first.status == 0, "\(first.error)")
        let second = try sample.run("--store", store, "add", "second")
        #expect(second.status == 0, "\(second.error)")
        #expect(try taskIDs(sample, store: store) == [1, 2])
        let left = try FileManager.default.contentsOfDirectory(atPath: sample.directory.path).filter { $0.hasSuffix(".tmp") }
        #expect(left.isEmpty, "\(left)")
    }

    @Test("10 concurrent add processes to a store whose file name is 255 bytes keep all 10 tasks")
    func concurrentAddsToLongFileName() throws {
        let sample = try SampleProcess()
        let store = sample.path(String(repeating: "t", count: 255))
        let results = try sample.runTogether((1...10).map { ["--store", store, "add", "task \($0)"] })
        #expect(results.allSatisfy { $0.status == 0 }, "\(results.map(\.error))")
        #expect(Set(try taskIDs(sample, store: store)) == Set(1...10))
    }

    // Under a sanitizer the sample's runtime handles the file size limit itself (it is killed by
    // the signal, or reports the failed write as its own error), so the case runs in plain builds.
    @Test("a failed write leaves no temporary file and the store as it was",
          .disabled(if: ["TSAN_OPTIONS", "ASAN_OPTIONS"].contains { ProcessInfo.processInfo.environment[$0] != nil },
                    "a sanitizer's runtime handles the file size limit itself"))
    func failedWrite() throws {
        let sample = try SampleProcess()
        let store = sample.path("tasks.json")
        #expect(try sample.run("--store", store, "add", "kept").status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let binary = try #require(SampleProcess.binary).path
        // No file may grow past 0 blocks: writing the new list fails (EFBIG).
        let statuses = try sample.runShell(together: [["ulimit -f 0; exec \"$0\" --store \"$1\" add lost", binary, store]])
        #expect(statuses == [74])
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        let left = try FileManager.default.contentsOfDirectory(atPath: sample.directory.path).filter { $0.hasSuffix(".tmp") }
        #expect(left.isEmpty, "\(left)")
    }

    @Test("task text with terminal escape sequences is printed escaped")
    func controlCharactersEscaped() throws {
        let sample = try SampleProcess()
        let added = try sample.run("add", "red \u{1B}[31mtext\u{7}")
        #expect(added.status == 0)
        #expect(!added.output.contains("\u{1B}"))
        #expect(added.output.contains(#"red \u{1B}[31mtext\u{7}"#))
        #expect(!(try sample.run("list").output.contains("\u{1B}")))
    }

    @Test("without HOME and without --store, a command that needs the store says so and exits 64")
    func homeUnset() throws {
        let sample = try SampleProcess()
        let result = try sample.run(["add", "orphan"], unsetting: ["HOME"])
        #expect(result.status == 64)
        #expect(result.error.contains("HOME is not set"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: sample.directory.path).isEmpty)
        #expect(try sample.run(["help"], unsetting: ["HOME"]).status == 0)
    }

    @Test("a store that is a device is reported as one, with exit 74")
    func deviceStore() throws {
        let sample = try SampleProcess()
        let result = try sample.run("--store", "/dev/null", "list")
        #expect(result.status == 74)
        #expect(result.error.contains("not a regular file"))
    }
}
