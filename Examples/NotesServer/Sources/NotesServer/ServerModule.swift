import Logging
import Sightless

/// Where the app's values come from: the store, opened asynchronously from `storePath` when the
/// server starts, and the logger.
public struct ServerModule: Module {
    public let storePath: String

    public init(storePath: String) {
        self.storePath = storePath
    }

    public func configure(_ binder: Binder) {
        binder.bind(Logger.self).to(instance: Logger(label: "notes-server"))
        let path = storePath
        binder.bind((any NotesStore).self).to { _ in try await FileNotesStore.open(at: path) }.in(.eagerSingleton)
    }
}
