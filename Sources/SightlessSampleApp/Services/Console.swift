import Foundation

/// Where commands write: results to standard output, failures to standard error.
protocol Console: AnyObject, Sendable {
    func write(_ text: String)
    func writeError(_ text: String)
}

final class StandardConsole: Console {
    func write(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    func writeError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
