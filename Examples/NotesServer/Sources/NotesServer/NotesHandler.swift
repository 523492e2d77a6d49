import Hummingbird
import Logging
import Sightless

/// Answers the note requests of one author: built for each request by the request's child
/// injector, with the app's store and the request's author and session in its initializer,
/// and the logger read where it stands, as a type on its way from another container reads it:
/// resolved from the request's child as the handler is built, and checked with the graph,
/// since the handler states it.
public final class NotesHandler: Injectable, Sendable {
    let store: any NotesStore
    let author: Author
    let session: NotesSession
    let logger = Injection<Logger>()

    init(store: any NotesStore, author: Author, session: NotesSession) {
        self.store = store
        self.author = author
        self.session = session
    }

    public static let initializer = Initializer(NotesHandler.init(store:author:session:))
    public static let properties = Properties<NotesHandler>().reads(\.logger)

    public func list() async throws -> [Note] {
        try await store.notes(by: author.name)
    }

    /// Adds a note; an empty one is refused with 400, after the request's session was leased.
    public func add(_ text: String) async throws -> Note {
        guard !text.isEmpty else { throw HTTPError(.badRequest, message: "A note needs some text.") }
        let note = try await store.add(text, by: author.name)
        // Resolved when the handler was built: this read cannot fail.
        try logger.get().info("note added", metadata: ["author": "\(author.name)", "id": "\(note.id)"])
        return note
    }
}
