import Sightless
import Testing

// A request of an injector below a shut-down one throws `injectorShutDown`, whatever form it
// takes, even for a value an injector above the shut-down one keeps and has built already.

private final class Catalog: Sendable {}
private struct Visitor: Sendable {}

@Suite("A request below a shut-down injector")
struct ShutDownAncestorTests {
    private func app() throws -> Injector {
        try Injector(modules: [AnyModule { binder in
            binder.bind(Catalog.self).to { _ in Catalog() }.in(.singleton)
        }])
    }

    @Test("a plain child's child refuses the root's built singleton once its parent is shut down")
    func grandchildOfPlainChild() throws {
        let root = try app()
        let child = try root.child(modules: [])
        let grandchild = try child.child(modules: [])
        let catalog = try grandchild.getInstance(Catalog.self)
        try child.shutDown()
        let error = #expect(throws: InjectionError.self) { _ = try grandchild.getInstance(Catalog.self) }
        #expect(error?.kind == .injectorShutDown)
        #expect(try root.getInstance(Catalog.self) === catalog)
    }

    @Test("a template child's child refuses the root's built singleton once the template child is shut down")
    func grandchildOfTemplateChild() throws {
        let root = try app()
        let child = try root.childTemplate(providing: Visitor.self) { _ in }.child(Visitor())
        let grandchild = try child.child(modules: [])
        _ = try grandchild.getInstance(Catalog.self)
        try child.shutDown()
        let error = #expect(throws: InjectionError.self) { _ = try grandchild.getInstance(Catalog.self) }
        #expect(error?.kind == .injectorShutDown)
    }

    @Test("an awaited request of the root's built singleton, below a shut-down child, is refused")
    func awaitedRequest() async throws {
        let root = try app()
        let child = try root.child(modules: [])
        let grandchild = try child.child(modules: [])
        _ = try await grandchild.instance(Catalog.self)
        try child.shutDown()
        await #expect(throws: InjectionError.self) { _ = try await grandchild.instance(Catalog.self) }
        await #expect(throws: InjectionError.self) { _ = try await grandchild.instance(Key<Catalog>()) }
    }

    @Test("a handle and a Lazy of the root's built singleton, taken below a child, are refused once it is shut down")
    func handleAndLazy() async throws {
        let root = try app()
        let child = try root.child(modules: [])
        let grandchild = try child.child(modules: [])
        let handle = try grandchild.handle(for: Catalog.self)
        let lazy = try grandchild.getInstance(Lazy<Catalog>.self)
        _ = try handle.get()
        try child.shutDown()
        #expect(throws: InjectionError.self) { _ = try handle.get() }
        #expect(throws: InjectionError.self) { _ = try lazy.get() }
        await #expect(throws: InjectionError.self) { _ = try await lazy.value }
    }
}

@Suite("A handle or a Lazy of a shut-down child")
struct ShutDownChildHandleTests {
    @Test("a handle and a Lazy of the root's built singleton, taken from a child, are refused once the child is shut down")
    func ownShutdown() throws {
        let root = try Injector(modules: [AnyModule { binder in
            binder.bind(Catalog.self).to { _ in Catalog() }.in(.singleton)
        }])
        let child = try root.child(modules: [])
        let handle = try child.handle(for: Catalog.self)
        let lazy = try child.getInstance(Lazy<Catalog>.self)
        _ = try handle.get()
        try child.shutDown()
        let error = #expect(throws: InjectionError.self) { _ = try handle.get() }
        #expect(error?.kind == .injectorShutDown)
        #expect(throws: InjectionError.self) { _ = try lazy.get() }
        _ = try root.handle(for: Catalog.self).get()
    }
}
