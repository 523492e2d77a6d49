import Foundation
import Sightless

/// The task tracker as its executables see it: the command line run through the app's injector,
/// and the modules that injector is built from, which the graph check verifies.
public enum SampleApp {
    /// The app's modules, storing the tasks at `storePath`, and the overrides that keep them in
    /// memory instead when `inMemory` is set.
    public static func modules(storePath: String, inMemory: Bool) -> (modules: [any Module], overrides: [any Module]) {
        ([AppModule(), FileStorageModule(path: storePath)], inMemory ? [InMemoryStorageModule()] : [])
    }

    /// Builds the injector from the modules the options choose, then hands the command line to
    /// the router. Every failure ends in a message on standard error and a non-zero exit status,
    /// which this returns.
    public static func run(arguments: [String], environment: [String: String]) -> Int32 {
        let options: Options
        do {
            options = try Options(parsing: arguments, environment: environment)
        } catch {
            StandardConsole().writeError("error: \(error.message)\n\(Usage.reminder)")
            return error.status
        }
        do {
            let graph = modules(storePath: options.storePath ?? "", inMemory: options.inMemory)
            let injector = try Injector(modules: graph.modules, overrides: graph.overrides)
            return try injector.getInstance(Router.self).run(options.command)
        } catch {
            StandardConsole().writeError("error: the object graph is wrong:\n\(error)")
            return SampleFailure.software("").status
        }
    }
}
