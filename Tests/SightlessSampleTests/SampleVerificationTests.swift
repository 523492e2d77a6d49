import Sightless
import SightlessSampleApp
import Testing

/// The first test an app writes: its graph, as it builds it, has no problem.
@Suite("Verifying the sample's graph")
struct SampleVerificationTests {
    @Test("the graph with the file store is valid")
    func fileStore() throws {
        let graph = SampleApp.modules(storePath: "tasks.json", inMemory: false)
        try Injector.verify(modules: graph.modules, overrides: graph.overrides)
    }

    @Test("the graph with the in-memory store is valid")
    func inMemory() throws {
        let graph = SampleApp.modules(storePath: "", inMemory: true)
        try Injector.verify(modules: graph.modules, overrides: graph.overrides)
    }
}
