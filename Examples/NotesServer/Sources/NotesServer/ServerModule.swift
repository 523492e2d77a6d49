import Logging
import Sightless

/// Where the app's values come from: the store, opened from `storePath`, and the logger.
public struct ServerModule: Module {
    public let store: any NotesStore

    public init(store: any NotesStore) {
        self.store = store
    }

    public func configure(_ binder: Binder) {
        binder.bind(Logger.self).to(instance: Logger(label: "notes-server"))
        binder.bind((any NotesStore).self).to(instance: store)
    }
}
