import Sightless
import Testing

// Every form of `Properties.inject` that a `MainActorInjectable` type may write, each as a user
// writes it. Before each form had a twin taking a `Sendable` key path, the properties of a
// nonisolated class made main-actor-injectable in an extension did not compile: "ambiguous use
// of 'inject(_:named:fileID:line:)'", then "static property 'properties' nearly matches
// defaulted requirement 'properties'"; a main-actor struct had no form at all, nor a main-actor
// class one taking a `Key`.

private final class Palette: Injectable, Sendable {
    let name: String
    init(name: String) { self.name = name }
    static let initializer = Initializer(Palette.init(name:), .named("palette"))
}

private var paletteModule: AnyModule {
    AnyModule { binder in
        binder.bind(Key<String>(named: "palette")).to(instance: "plain")
        binder.bind(Key<Palette>(named: "dark")).to(instance: Palette(name: "dark"))
    }
}

/// A nonisolated class, made main-actor-injectable in an extension: its key paths are
/// `Sendable`.
private final class Journal {
    var palette: Palette?
    var dark: Palette?
    var night: Palette!
    var explicit: Palette?
    init() {}
}

extension Journal: MainActorInjectable {
    static let initializer = Initializer(Journal.init)
    static let properties = Properties<Journal>()
        .inject(\.palette)
        .inject(\.dark, Key<Palette>(named: "dark"))
        .inject(\.night, named: "dark")
        .inject(\Journal.explicit)
}

/// A class declared `nonisolated` that conforms in its primary declaration.
nonisolated private final class Ledger: MainActorInjectable {
    var palette: Palette?
    var dark: Palette?
    init() {}
    static let initializer = Initializer(Ledger.init)
    static let properties = Properties<Ledger>().inject(\.palette).inject(\.dark, Key<Palette>(named: "dark"))
}

/// A class on the main actor: its key paths are not `Sendable`.
@MainActor
private final class Canvas: MainActorInjectable {
    var palette: Palette?
    var dark: Palette?
    var night = Palette(name: "none")
    init() {}
    static let initializer = Initializer(Canvas.init)
    static let properties = Properties<Canvas>()
        .inject(\.palette)
        .inject(\.dark, Key<Palette>(named: "dark"))
        .inject(\.night, Key<Palette>(named: "dark"))
}

/// A struct that conforms in its primary declaration, and so is on the main actor.
private struct Sketch: MainActorInjectable {
    var palette: Palette?
    var dark: Palette?
    static let initializer = Initializer(Sketch.init)
    static let properties = Properties<Sketch>().inject(\.palette).inject(\.dark, Key<Palette>(named: "dark"))
}

/// A nonisolated struct made main-actor-injectable.
nonisolated private struct Draft: MainActorInjectable {
    var palette: Palette?
    var dark: Palette?
    static let initializer = Initializer(Draft.init)
    static let properties = Properties<Draft>().inject(\.palette).inject(\.dark, Key<Palette>(named: "dark"))
}

@Suite("Properties of main-actor-injectable types, in every form")
@MainActor
struct MainActorPropertyFormTests {
    @Test("a nonisolated class conforming in an extension injects its properties by type, key, name and explicit root")
    func nonisolatedClassInExtension() throws {
        let journal = try Injector(modules: [paletteModule]).getInstance(Journal.self)
        #expect(journal.palette?.name == "plain")
        #expect(journal.dark?.name == "dark")
        #expect(journal.night.name == "dark")
        #expect(journal.explicit?.name == "plain")
    }

    @Test("a class declared nonisolated that conforms in its declaration injects its properties")
    func nonisolatedClass() throws {
        let ledger = try Injector(modules: [paletteModule]).getInstance(Ledger.self)
        #expect(ledger.palette?.name == "plain")
        #expect(ledger.dark?.name == "dark")
    }

    @Test("a main-actor class injects properties by type and by key, optional or not")
    func mainActorClass() throws {
        let canvas = try Injector(modules: [paletteModule]).getInstance(Canvas.self)
        #expect(canvas.palette?.name == "plain")
        #expect(canvas.dark?.name == "dark")
        #expect(canvas.night.name == "dark")
    }

    @Test("a struct on the main actor and a nonisolated struct inject their properties")
    func structs() throws {
        let injector = try Injector(modules: [paletteModule])
        let sketch = try injector.getInstance(Sketch.self)
        #expect(sketch.palette?.name == "plain")
        #expect(sketch.dark?.name == "dark")
        let draft = try injector.getInstance(Draft.self)
        #expect(draft.palette?.name == "plain")
        #expect(draft.dark?.name == "dark")
    }

    @Test("an optional property of a main-actor type whose key has no binding stays nil")
    func optionalWithoutBinding() throws {
        let sketch = try Injector(modules: [AnyModule { $0.bind(Key<String>(named: "palette")).to(instance: "plain") }])
            .getInstance(Sketch.self)
        #expect(sketch.palette?.name == "plain")
        #expect(sketch.dark == nil)
    }
}
