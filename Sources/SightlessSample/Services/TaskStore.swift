import Foundation
import Sightless

/// Where the task list lives. One instance per run (a singleton), shared by every command.
protocol TaskStore: AnyObject {
    func load() throws(SampleFailure) -> [TaskItem]
    func save(_ tasks: [TaskItem]) throws(SampleFailure)
}

/// The task list in a JSON file.
///
/// A missing file is an empty list. A file that cannot be read or decoded is reported and never
/// written over: every save writes a temporary file next to the store and renames it onto the
/// store, so the store is always either the old list or the new one, whole.
final class FileTaskStore: TaskStore, Injectable {
    let path: String

    init(path: String) { self.path = path }

    static let initializer = Initializer(FileTaskStore.init(path:), .named("storePath"))

    func load() throws(SampleFailure) -> [TaskItem] {
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [] }
        if isDirectory.boolValue {
            throw .storeAccess("cannot read the task store \(path): it is a directory. Pass a file with --store PATH.")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .storeAccess("cannot read the task store \(path): \(Self.reason(error)). Check its permissions, or pass another file with --store PATH.")
        }
        do {
            return try Self.decoder.decode([TaskItem].self, from: data)
        } catch {
            throw .corruptStore("the task store \(path) is not a task list (\(Self.reason(error))); it was left untouched. Repair or move it, or pass another file with --store PATH.")
        }
    }

    func save(_ tasks: [TaskItem]) throws(SampleFailure) {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
        do {
            try Self.encoder.encode(tasks).write(to: temporary)
        } catch {
            throw .storeAccess("cannot write next to the task store \(path): \(Self.reason(error)).")
        }
        // rename(2) replaces the store in one step: a reader sees the old file or the new one.
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw .storeAccess("cannot replace the task store \(path): \(reason).")
        }
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    private static func reason(_ error: any Error) -> String {
        if let decoding = error as? DecodingError {
            switch decoding {
            case .dataCorrupted(let context): return context.underlyingError.map { "\($0.localizedDescription)" } ?? context.debugDescription
            case .keyNotFound(let key, _): return "a task has no \"\(key.stringValue)\""
            case .typeMismatch(_, let context), .valueNotFound(_, let context): return context.debugDescription
            @unknown default: return "\(decoding)"
            }
        }
        let described = (error as NSError).localizedDescription
        return described.hasSuffix(".") ? String(described.dropLast()) : described
    }
}

/// The task list in memory, gone when the process ends: for trying commands out, and for the
/// `--in-memory` override.
final class InMemoryTaskStore: TaskStore, Injectable {
    private var tasks: [TaskItem] = []

    static let initializer = Initializer(InMemoryTaskStore.init)

    func load() -> [TaskItem] { tasks }
    func save(_ tasks: [TaskItem]) { self.tasks = tasks }
}
