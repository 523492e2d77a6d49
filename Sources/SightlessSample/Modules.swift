import Sightless

/// The services every command uses, and the commands themselves (bound so that the graph shows
/// them; each is built per request with its dynamic arguments).
struct AppModule: Module {
    func configure(_ binder: Binder) {
        binder.bind(Clock.self).to { _ in SystemClock() }
        binder.bind(Console.self).to(instance: StandardConsole())
        binder.bind(Router.self)
        binder.bind(AddCommand.self)
        binder.bind(ListCommand.self)
        binder.bind(DoneCommand.self)
        binder.bind(RemoveCommand.self)
        binder.bind(GraphCommand.self)
        binder.bind(ExplainCommand.self)
        binder.bind(HelpCommand.self)
    }
}

/// Keeps the tasks in a JSON file, one store for the whole run.
struct FileStorageModule: Module {
    let path: String

    func configure(_ binder: Binder) {
        binder.bind(Key<String>(named: "storePath")).to(instance: path)
        binder.bind(TaskStore.self).to(FileTaskStore.self).in(.singleton)
    }
}

/// Replaces the file store with one in memory: passed as an override, it wins over
/// ``FileStorageModule``'s binding of the same key.
struct InMemoryStorageModule: Module {
    func configure(_ binder: Binder) {
        binder.bind(TaskStore.self).to(InMemoryTaskStore.self).in(.singleton)
    }
}
