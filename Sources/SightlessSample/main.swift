import Foundation
import SightlessSampleApp

// A write over the file size limit fails with an error the store reports, instead of ending the
// process with a signal midway through a save.
signal(SIGXFSZ, SIG_IGN)
exit(SampleApp.run(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
