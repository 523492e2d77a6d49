import Foundation
import Sightless

/// Where notes are kept.
public protocol NotesStore: Sendable {
    func notes(by author: String) async throws -> [Note]
    func add(_ text: String, by author: String) async throws -> Note
}

/// Keeps notes in memory: what the tests swap in for the file.
public actor MemoryNotesStore: NotesStore {
    private var stored: [Note] = []

    public init(_ notes: [Note] = []) {
        stored = notes
    }

    public func notes(by author: String) -> [Note] {
        stored.filter { $0.author == author }
    }

    public func add(_ text: String, by author: String) -> Note {
        let note = Note(id: (stored.map(\.id).max() ?? 0) + 1, author: author, text: text)
        stored.append(note)
        return note
    }
}

/// Keeps notes in a JSON file: read when the store opens, written when it closes.
public actor FileNotesStore: NotesStore {
    private let url: URL
    private var stored: [Note]
    private var isDirty = false

    /// Opens the store at `path`, reading the notes it holds (none if the file does not exist).
    public static func open(at path: String) async throws -> FileNotesStore {
        let url = URL(fileURLWithPath: path)
        let data = FileManager.default.fileExists(atPath: path) ? try Data(contentsOf: url) : Data("[]".utf8)
        return FileNotesStore(url: url, notes: try JSONDecoder().decode([Note].self, from: data))
    }

    private init(url: URL, notes: [Note]) {
        self.url = url
        self.stored = notes
    }

    public func notes(by author: String) -> [Note] {
        stored.filter { $0.author == author }
    }

    public func add(_ text: String, by author: String) -> Note {
        let note = Note(id: (stored.map(\.id).max() ?? 0) + 1, author: author, text: text)
        stored.append(note)
        isDirty = true
        return note
    }

    /// Writes the notes back, if any was added.
    public func save() throws {
        guard isDirty else { return }
        try JSONEncoder().encode(stored).write(to: url, options: .atomic)
        isDirty = false
    }
}
