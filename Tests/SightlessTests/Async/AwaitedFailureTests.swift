import Sightless
import Testing

// An awaited build that fails with an error holding heap memory (a long message, a class): the
// error travels through the task that builds, the waiters and the injector's start-up.

private final class Cause: Sendable {
    let detail: String
    init(_ detail: String) { self.detail = detail }
}

private struct OpeningFailed: Error {
    let message: String
    let cause: Cause
}

private final class Store: Sendable {}

private func failingStore(_ scope: Scope) -> Bindings {
    Bindings { binder in
        binder.bind(Store.self).to { _ async throws -> Store in
            await Task.yield()
            throw OpeningFailed(message: String(repeating: "the store cannot be opened ", count: 4),
                                cause: Cause("a long explanation that does not fit in a small string"))
        }.in(scope)
    }
}

@Suite("Awaited failures")
struct AwaitedFailureTests {
    @Test("Injector.start reports an eager singleton whose awaited build throws an error holding heap memory")
    func eagerFailure() async throws {
        for _ in 0..<20 {
            let error = await #expect(throws: InjectionError.self) { _ = try await Injector.start(modules: [failingStore(.eagerSingleton)]) }
            #expect(error?.kind == .initializerFailed)
            #expect((error?.problems.first?.underlying as? OpeningFailed)?.cause.detail.hasPrefix("a long") == true)
        }
    }

    @Test("an awaited singleton whose build throws an error holding heap memory reports it to every waiter")
    func singletonFailure() async throws {
        let injector = try Injector(failingStore(.singleton))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    let error = await #expect(throws: InjectionError.self) { _ = try await injector.instance(Store.self) }
                    #expect(error?.kind == .initializerFailed)
                }
            }
        }
    }

    @Test("an unscoped awaited build that throws an error holding heap memory is reported")
    func unscopedFailure() async throws {
        let injector = try Injector(failingStore(.unscoped))
        for _ in 0..<20 {
            let error = await #expect(throws: InjectionError.self) { _ = try await injector.instance(Store.self) }
            #expect(error?.kind == .initializerFailed)
        }
    }
}

import Foundation

private protocol Notes: Sendable {}

private actor FileNotes: Notes {
    static func open(at path: String) async throws -> FileNotes {
        _ = try Data(contentsOf: URL(fileURLWithPath: path))
        return FileNotes()
    }
}

@Suite("Awaited failures of Foundation")
struct AwaitedFoundationFailureTests {
    @Test("Injector.start reports an eager protocol singleton whose file cannot be read")
    func unreadableFile() async throws {
        let directory = FileManager.default.temporaryDirectory.path
        let error = await #expect(throws: InjectionError.self) {
            _ = try await Injector.start(modules: [Bindings { binder in
                binder.bind((any Notes).self).to { _ in try await FileNotes.open(at: directory) }.in(.eagerSingleton)
            }])
        }
        #expect(error?.kind == .initializerFailed)
    }
}

@Suite("Awaited failures at start with overrides in place")
struct AwaitedStartOverridingFailureTests {
    @Test("Injector.start with overrides in place reports an eager singleton whose awaited build throws")
    func failureWithOverrides() async throws {
        let error = await #expect(throws: InjectionError.self) {
            _ = try await Injector.start(modules: [failingStore(.eagerSingleton)]) { _ in }
        }
        #expect(error?.kind == .initializerFailed)
    }
}

private actor ClosingNotes: Notes, AsyncClosable {
    static func open(at path: String) async throws -> ClosingNotes {
        let data = FileManager.default.fileExists(atPath: path) ? try Data(contentsOf: URL(fileURLWithPath: path)) : Data("[]".utf8)
        _ = try JSONDecoder().decode([String].self, from: data)
        return ClosingNotes()
    }
    func close() async throws {}
}

@Suite("Awaited failures of a closing store")
struct AwaitedClosingStoreFailureTests {
    @Test("Injector.start reports an eager AsyncClosable protocol singleton whose file cannot be read")
    func unreadableClosingStore() async throws {
        let directory = FileManager.default.temporaryDirectory.path
        let error = await #expect(throws: InjectionError.self) {
            _ = try await Injector.start(modules: [Bindings { binder in
                binder.bind(Key<String>(named: "label")).to(instance: "notes")
                binder.bind((any Notes).self).to { _ in try await ClosingNotes.open(at: directory) }.in(.eagerSingleton)
            }]) { _ in }
        }
        #expect(error?.kind == .initializerFailed)
    }
}
