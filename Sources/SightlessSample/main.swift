import Foundation
import Sightless

// Builds the injector from the modules the options choose, then hands the command line to the
// router. Every failure ends in a message on standard error and a non-zero exit status.

func run() -> Int32 {
    let options: Options
    do {
        options = try Options(parsing: Array(CommandLine.arguments.dropFirst()),
                              environment: ProcessInfo.processInfo.environment)
    } catch {
        StandardConsole().writeError("error: \(error.message)\n\(Usage.reminder)")
        return error.status
    }
    do {
        let injector = try Injector(
            modules: [AppModule(), FileStorageModule(path: options.storePath ?? "")],
            overrides: options.inMemory ? [InMemoryStorageModule()] : [])
        return try injector.getInstance(Router.self).run(options.command)
    } catch {
        StandardConsole().writeError("error: the object graph is wrong:\n\(error)")
        return SampleFailure.software("").status
    }
}

// A write over the file size limit fails with an error the store reports, instead of ending the
// process with a signal midway through a save.
signal(SIGXFSZ, SIG_IGN)
exit(run())
