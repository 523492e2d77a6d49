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

@Suite("A child's map entries over its parent's overridden ones")
struct ChildMapOverTests {
    @Test("a child adds an entry to a map whose entry its parent's override replaced")
    func childAddsOverReplacedEntry() throws {
        let parent = try Injector(
            modules: [Bindings { $0.contribute(to: [String: Int].self, key: "a").to(instance: 1) }],
            overrides: [Bindings { $0.contribute(to: [String: Int].self, key: "a").to(instance: 2) }])
        let child = try parent.child(modules: [Bindings { $0.contribute(to: [String: Int].self, key: "b").to(instance: 3) }])
        #expect(try child.getInstance([String: Int].self) == ["a": 2, "b": 3])
        #expect(try parent.getInstance([String: Int].self) == ["a": 2])
    }

    @Test("a grandchild adds an entry to a map whose entry its grandparent's override replaced")
    func grandchildAddsOverReplacedEntry() throws {
        let root = try Injector(
            modules: [Bindings { $0.contribute(to: [String: Int].self, key: "a").to(instance: 1) }],
            overrides: [Bindings { $0.contribute(to: [String: Int].self, key: "a").to(instance: 2) }])
        let child = try root.child(modules: [Bindings { $0.contribute(to: [String: Int].self, key: "b").to(instance: 3) }])
        let grandchild = try child.child(modules: [Bindings { $0.contribute(to: [String: Int].self, key: "c").to(instance: 4) }])
        #expect(try grandchild.getInstance([String: Int].self) == ["a": 2, "b": 3, "c": 4])
    }

    @Test("a child's entry of a key its parent's override replaced is still a duplicate")
    func childEntryOfReplacedKeyIsDuplicate() throws {
        let parent = try Injector(
            modules: [Bindings { $0.contribute(to: [String: Int].self, key: "a").to(instance: 1) }],
            overrides: [Bindings { $0.contribute(to: [String: Int].self, key: "a").to(instance: 2) }])
        #expect {
            try parent.child(modules: [Bindings { $0.contribute(to: [String: Int].self, key: "a").to(instance: 3) }])
                .getInstance([String: Int].self)
        } throws: { error in
            (error as? InjectionError)?.problems.contains { if case .duplicateBinding = $0.kind { true } else { false } } ?? false
        }
    }
}
