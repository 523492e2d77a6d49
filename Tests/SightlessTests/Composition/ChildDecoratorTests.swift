import Sightless
import Testing

// A child decorates what it builds: a key its parent binds is the parent's, for the whole family.

private final class Inkwell: Injectable, Sendable {
    let color: String
    init(color: String = "black") { self.color = color }
    static let initializer = Initializer { Inkwell() }
}

private final class Pen: Injectable, Sendable {
    let ink: Inkwell
    init(ink: Inkwell) { self.ink = ink }
    static let initializer = Initializer(Pen.init(ink:))
}

private let motto = Key<String>(named: "motto")

@Suite("A child's decorators of its parent's keys")
struct ChildDecoratorTests {
    @Test("a child's decorator of a key only its parent binds says so, and how to fix it")
    func decoratorOfParentsKey() throws {
        let app = try Injector(modules: [AnyModule { $0.bind(motto).to(instance: "onward") }])
        let error = #expect(throws: InjectionError.self) {
            try app.child { $0.decorate(motto) { text in text + "!" } }
        }
        #expect(error?.kind == .unusedDeclaration)
        guard case .decoratorOfParentKey(let key, let location)? = error?.problems.first?.detail else {
            Issue.record("expected decoratorOfParentKey, got \(String(describing: error))")
            return
        }
        #expect(key == motto.erased)
        #expect(location?.fileID.hasSuffix("ChildDecoratorTests.swift") == true)
        let text = "\(String(describing: error))"
        #expect(text.contains("its parent binds String(named: \"motto\")"), "\(text)")
        #expect(text.contains("override"), "\(text)")
    }

    @Test("a child's decorator of an injectable type its parent binds is refused, not silently ignored")
    func decoratorOfParentsBoundType() throws {
        let app = try Injector(modules: [AnyModule { $0.bind(Inkwell.self).in(.singleton) }])
        let error = #expect(throws: InjectionError.self) {
            try app.child { $0.decorate(Inkwell.self) { ink in Inkwell(color: ink.color + " and gold") } }
        }
        #expect(error?.kind == .unusedDeclaration)
    }

    @Test("a child that overrides its parent's key decorates its override")
    func childDecoratesItsOverride() throws {
        let app = try Injector(modules: [AnyModule { $0.bind(motto).to(instance: "onward") }])
        let child = try app.child(overrides: [AnyModule { binder in
            binder.bind(motto).to(instance: "upward")
            binder.decorate(motto) { text in text + "!" }
        }])
        #expect(try child.getInstance(motto) == "upward!")
        #expect(try app.getInstance(motto) == "onward")
    }

    @Test("a child's decorator of a type its parent does not bind applies to the child's own value")
    func childDecoratesUnboundType() throws {
        let app = try Injector(modules: [])
        let child = try app.child { $0.decorate(Inkwell.self) { ink in Inkwell(color: ink.color + " and gold") } }
        #expect(try child.getInstance(Pen.self).ink.color == "black and gold")
        #expect(try app.getInstance(Pen.self).ink.color == "black")
    }
}
