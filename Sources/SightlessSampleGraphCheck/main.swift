import Foundation
import Sightless
import SightlessSampleApp

// The sample's graph check: verifies the graph the app builds, with its file store and with the
// in-memory store that `--in-memory` swaps in, and builds nothing. `swift package verify-graph`
// builds and runs it, and fails with what it writes when it exits non-zero.

var failures: [String] = []
for inMemory in [false, true] {
    let graph = SampleApp.modules(storePath: "", inMemory: inMemory)
    do {
        try Injector.verify(modules: graph.modules, overrides: graph.overrides)
    } catch {
        failures.append("The graph\(inMemory ? " with --in-memory" : "") is wrong:\n\(error)")
    }
}
if failures.isEmpty {
    print("The sample's graph is valid, with its file store and in memory.")
} else {
    FileHandle.standardError.write(Data((failures.joined(separator: "\n\n") + "\n").utf8))
    exit(1)
}
