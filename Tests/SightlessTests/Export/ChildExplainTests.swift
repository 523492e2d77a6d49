import Sightless
import Testing

// What `explain` says in a child: a key its parent provides is the parent's, a value a
// template's child is made with is one per child, and a type the family shares is the parent's.

private struct Visitor: Sendable { let name: String }
private protocol Salutation: Sendable { func text() -> String }
private struct Hello: Salutation { func text() -> String { "hello" } }

private final class GuestLedger: Injectable, @unchecked Sendable {
    static let initializer = Initializer(GuestLedger.init)
    static var scope: Scope { .singleton }
}

private final class FrontDesk: Injectable, @unchecked Sendable {
    init(visitor: Visitor, ledger: GuestLedger) {}
    static let initializer = Initializer(FrontDesk.init(visitor:ledger:))
}

private final class FrontCounter: Injectable, @unchecked Sendable {
    init(desk: FrontDesk) {}
    static let initializer = Initializer(FrontCounter.init(desk:))
}

private func parentModule() -> AnyModule {
    AnyModule { $0.bind(Salutation.self).to(instance: Hello()) }
}

@Suite("explain in a child")
struct ChildExplainTests {
    @Test("a plain child explains a key only its parent binds, as the parent's")
    func plainChildExplainsParentsKey() throws {
        let app = try Injector(modules: [parentModule()])
        let child = try app.child(modules: [])
        let text = try child.explain(Salutation.self)
        #expect(text == "Salutation — parent's (unscoped, instance)\n", "\(text)")
    }

    @Test("a template's child explains a key only the template's parent binds, as the parent's")
    func templateChildExplainsParentsKey() throws {
        let app = try Injector(modules: [parentModule()])
        let child = try app.childTemplate(providing: Visitor.self).child(Visitor(name: "ada"))
        let text = try child.explain(Salutation.self)
        #expect(text.hasPrefix("Salutation — parent's (unscoped, instance)"), "\(text)")
    }

    @Test("a value a template's child is made with is explained as one per child, not unscoped")
    func providedValueIsPerChild() throws {
        let app = try Injector(modules: [])
        let child = try app.childTemplate(providing: Visitor.self).child(Visitor(name: "ada"))
        let text = try child.explain(FrontDesk.self)
        #expect(text.contains("Visitor — provided to each child"), "\(text)")
        #expect(!text.contains("unscoped, provided"), "\(text)")
    }

    @Test("a type a child leaves to its parent is drawn as the parent's in the child's explanation")
    func sharedTypeIsParents() throws {
        let app = try Injector(modules: [])
        let child = try app.child(modules: [AnyModule { $0.bind(Visitor.self).to(instance: Visitor(name: "ada")) }])
        let text = try child.explain(FrontCounter.self)
        #expect(text.contains("GuestLedger — singleton, parent's") == false, "\(text)")
        #expect(text.contains("GuestLedger — parent's"), "\(text)")
        #expect(!text.contains("GuestLedger — singleton, just-in-time type, kept by this injector"), "\(text)")
        // And the value is the parent's indeed.
        #expect(try child.getInstance(GuestLedger.self) === app.getInstance(GuestLedger.self))
    }

    @Test("a child explains a shared type it was asked about as the parent's")
    func childExplainsSharedTypeAsParents() throws {
        let app = try Injector(modules: [])
        let child = try app.child(modules: [])
        let text = try child.explain(GuestLedger.self)
        #expect(text == "GuestLedger — parent's (singleton, just-in-time type, kept by this injector)\n", "\(text)")
    }

    @Test("a child's own binding is explained as its own")
    func ownBindingIsOwn() throws {
        let app = try Injector(modules: [parentModule()])
        let child = try app.child(modules: [], overrides: [AnyModule { $0.bind(Salutation.self).to(instance: Hello()) }])
        let text = try child.explain(Salutation.self)
        #expect(text == "Salutation — unscoped, instance\n", "\(text)")
    }

    @Test("a grandchild explains its grandparent's key as the parent's, marked once")
    func grandchildMarksOnce() throws {
        let app = try Injector(modules: [parentModule()])
        let grandchild = try app.child(modules: []).child(modules: [])
        #expect(try grandchild.explain(Salutation.self) == "Salutation — parent's (unscoped, instance)\n")
        let requestChild = try grandchild.childTemplate(providing: Visitor.self).child(Visitor(name: "ada"))
        #expect(try requestChild.explain(Salutation.self) == "Salutation — parent's (unscoped, instance)\n")
    }
}
