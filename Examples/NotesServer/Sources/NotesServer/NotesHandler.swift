import Logging
import Sightless

/// Answers the note requests of one author: built for each request by the request's child
/// injector, with the app's store and logger and the request's author.
public final class NotesHandler: Injectable, Sendable {
    let store: any NotesStore
    let author: Author
    let logger: Logger

    init(store: any NotesStore, author: Author, logger: Logger) {
        self.store = store
        self.author = author
        self.logger = logger
    }

    public static let initializer = Initializer(NotesHandler.init(store:author:logger:))

    public func list() async throws -> [Note] {
        try await store.notes(by: author.name)
    }

    public func add(_ text: String) async throws -> Note {
        let note = try await store.add(text, by: author.name)
        logger.info("note added", metadata: ["author": "\(author.name)", "id": "\(note.id)"])
        return note
    }
}
