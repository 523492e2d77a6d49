import Sightless

/// The services every command uses. The commands need no bindings: the router's factories
/// reach them, so the graph validates and draws them from the router.
struct AppModule: Module {
    func configure(_ binder: Binder) {
        binder.bind(Clock.self).to { _ in SystemClock() }
        binder.bind(Console.self).to(instance: StandardConsole())
        binder.entryPoint(Router.self)
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
