import Sightless
import Testing

// A child's own decorators and contextual bindings apply to what it builds, whatever its parent
// built before it was made.

private final class Leaf: Sendable {
    let source: String
    init(source: String) { self.source = source }
}

private final class Consumer: Injectable, Sendable {
    let leaf: Leaf
    init(leaf: Leaf) { self.leaf = leaf }
    static let initializer = Initializer(Consumer.init(leaf:))
}

@Suite("A child's composition over what its parent compiled")
struct ChildCompositionTests {
    private func parent() throws -> Injector {
        try Injector(Bindings { $0.bind(Leaf.self).to { _ in Leaf(source: "parent") } })
    }

    @Test("a child's contextual binding serves a consumer its parent compiled before the child was made")
    func contextualAfterParentCompiled() throws {
        let parent = try parent()
        _ = try parent.getInstance(Consumer.self)
        let child = try parent.child { $0.bind(Leaf.self).whenInjected(into: Consumer.self).to { _ in Leaf(source: "child") } }
        #expect(try child.getInstance(Consumer.self).leaf.source == "child")
        #expect(try parent.getInstance(Consumer.self).leaf.source == "parent")
    }

    @Test("a child's contextual binding in its overrides replaces its parent's for that child")
    func contextualOverride() throws {
        let parent = try Injector(Bindings { binder in
            binder.bind(Leaf.self).to { _ in Leaf(source: "parent") }
            binder.bind(Leaf.self).whenInjected(into: Consumer.self).to { _ in Leaf(source: "parent, contextual") }
        })
        let child = try parent.child(overrides: [Bindings { binder in
            binder.bind(Leaf.self).whenInjected(into: Consumer.self).to { _ in Leaf(source: "child, contextual") }
        }])
        #expect(try child.getInstance(Consumer.self).leaf.source == "child, contextual")
        #expect(try parent.getInstance(Consumer.self).leaf.source == "parent, contextual")
    }

    @Test("a child's decorator applies to a type its parent compiled before the child was made")
    func decoratorAfterParentCompiled() throws {
        let parent = try parent()
        _ = try parent.getInstance(Consumer.self)
        let child = try parent.child { binder in
            binder.decorate(Consumer.self) { consumer in Consumer(leaf: Leaf(source: consumer.leaf.source + ", decorated")) }
        }
        #expect(try child.getInstance(Consumer.self).leaf.source == "parent, decorated")
        #expect(try parent.getInstance(Consumer.self).leaf.source == "parent")
    }
}
