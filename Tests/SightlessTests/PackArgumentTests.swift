import Sightless
import Testing

// A `Factory`'s arguments, and four or more arguments of `getInstance(_:arguments:)`, come as a
// parameter pack; a request places them as one tuple when its elements are exactly the slots'
// types, in order, and otherwise takes the general path, which converts each argument.

private final class Token: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

private final class Special: Sendable {
    let label: String
    init(_ label: String) { self.label = label }
}

private class Base: @unchecked Sendable {
    var label: String { "base" }
}

private final class Derived: Base, @unchecked Sendable {
    override var label: String { "derived" }
}

/// Six arguments of mixed sizes and alignments: 50 bytes, padded between each.
private final class Mixed: Injectable {
    let flag: Int8, count: Int64, title: String, on: Bool, ratio: Double, small: Int16
    init(flag: Int8, count: Int64, title: String, on: Bool, ratio: Double, small: Int16) {
        self.flag = flag; self.count = count; self.title = title; self.on = on; self.ratio = ratio; self.small = small
    }
    static let initializer = Initializer(
        Mixed.init(flag:count:title:on:ratio:small:), .dynamic, .dynamic, .dynamic, .dynamic, .dynamic, .dynamic)
}

/// Five strings: 80 bytes, more than a request places on its stack.
private final class Wide: Injectable {
    let parts: [String]
    init(a: String, b: String, c: String, d: String, e: String) { parts = [a, b, c, d, e] }
    static let initializer = Initializer(Wide.init(a:b:c:d:e:), .dynamic, .dynamic, .dynamic, .dynamic, .dynamic)
}

/// Keeps nothing of its argument but its name.
private final class Labelled: Injectable {
    let name: String
    init(token: Token) { name = token.name }
    static let initializer = Initializer(Labelled.init(token:), .dynamic)
}

/// Four slots, the last of a class type a subclass may fill.
private final class Framed: Injectable {
    let a: Int, b: Int, c: Int, base: Base
    init(a: Int, b: Int, c: Int, base: Base) { self.a = a; self.b = b; self.c = c; self.base = base }
    static let initializer = Initializer(Framed.init(a:b:c:base:), .dynamic, .dynamic, .dynamic, .dynamic)
}

private final class Maker: Injectable {
    let mixed: Factory<Mixed, Int8, Int64, String, Bool, Double, Int16>
    let wide: Factory<Wide, String, String, String, String, String>
    let labelled: Factory<Labelled, Token>
    init(mixed: Factory<Mixed, Int8, Int64, String, Bool, Double, Int16>,
         wide: Factory<Wide, String, String, String, String, String>, labelled: Factory<Labelled, Token>) {
        self.mixed = mixed; self.wide = wide; self.labelled = labelled
    }
    static let initializer = Initializer(Maker.init(mixed:wide:labelled:))
}

/// `Mixed`, opened with `await`.
private final class AsyncMixed: Injectable, Sendable {
    let flag: Int8, count: Int64, title: String, on: Bool, ratio: Double, token: Token
    init(flag: Int8, count: Int64, title: String, on: Bool, ratio: Double, token: Token) async {
        await Task.yield()
        self.flag = flag; self.count = count; self.title = title; self.on = on; self.ratio = ratio; self.token = token
    }
    static let initializer = Initializer(
        AsyncMixed.init(flag:count:title:on:ratio:token:), .dynamic, .dynamic, .dynamic, .dynamic, .dynamic, .dynamic)
}

/// Keeps nothing of its argument but its name, opened with `await`.
private final class AsyncLabelled: Injectable, Sendable {
    let name: String
    init(token: Token) async {
        await Task.yield()
        name = token.name
    }
    static let initializer = Initializer(AsyncLabelled.init(token:), .dynamic)
}

private final class AsyncMaker: Injectable, Sendable {
    let mixed: Factory<AsyncMixed, Int8, Int64, String, Bool, Double, Token>
    let labelled: Factory<AsyncLabelled, Token>
    let plain: Factory<Mixed, Int8, Int64, String, Bool, Double, Int16>
    init(mixed: Factory<AsyncMixed, Int8, Int64, String, Bool, Double, Token>, labelled: Factory<AsyncLabelled, Token>,
         plain: Factory<Mixed, Int8, Int64, String, Bool, Double, Int16>) {
        self.mixed = mixed; self.labelled = labelled; self.plain = plain
    }
    static let initializer = Initializer(AsyncMaker.init(mixed:labelled:plain:))
}

/// A request's user, provided by each child of a template.
private final class User: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

/// Built per call with the child's user and a title brought to `make`.
private final class Page: Injectable {
    let user: User, title: String
    init(user: User, title: String) { self.user = user; self.title = title }
    static let initializer = Initializer(Page.init(user:title:), .inject, .dynamic)
}

private final class Pages: Injectable {
    let make: Factory<Page, String>
    init(make: Factory<Page, String>) { self.make = make }
    static let initializer = Initializer(Pages.init(make:))
}

@Suite("Arguments as a parameter pack")
struct PackArgumentTests {
    @Test("a factory's arguments of mixed sizes and alignments arrive at their slots intact")
    func mixedLayoutArrivesIntact() throws {
        let maker = try Injector().getInstance(Maker.self)
        for round in 0..<3 {
            let title = "title \(round) " + String(repeating: "x", count: 20)
            let mixed = try maker.mixed.make(-7, Int64.max - Int64(round), title, true, 0.25 + Double(round), -300)
            #expect(mixed.flag == -7)
            #expect(mixed.count == Int64.max - Int64(round))
            #expect(mixed.title == title)
            #expect(mixed.on)
            #expect(mixed.ratio == 0.25 + Double(round))
            #expect(mixed.small == -300)
        }
    }

    @Test("a factory's arguments too large for the stack take the general path and arrive intact")
    func wideArgumentsArriveIntact() throws {
        let maker = try Injector().getInstance(Maker.self)
        let wide = try maker.wide.make("one", "two", "three", "four", String(repeating: "five", count: 8))
        #expect(wide.parts == ["one", "two", "three", "four", String(repeating: "five", count: 8)])
    }

    @Test("a factory releases an argument the value does not keep once make returns, and only once")
    func argumentReleasedOnce() throws {
        let maker = try Injector().getInstance(Maker.self)
        weak var released: Token?
        var names: [String] = []
        for index in 0..<100 {
            let token = Token("token \(index)")
            released = token
            names.append(try maker.labelled.make(token).name)
        }
        #expect(released == nil)
        #expect(names.last == "token 99")
    }

    @Test("four arguments of exactly the slots' types, then a subclass for a class slot, both fill the slots")
    func subclassAfterExactTypes() throws {
        let injector = try Injector()
        let exact = try injector.getInstance(Framed.self, arguments: 1, 2, 3, Base())
        #expect([exact.a, exact.b, exact.c] == [1, 2, 3])
        #expect(exact.base.label == "base")
        let converted = try injector.getInstance(Framed.self, arguments: 4, 5, 6, Derived())
        #expect([converted.a, converted.b, converted.c] == [4, 5, 6])
        #expect(converted.base.label == "derived")
        let again = try injector.getInstance(Framed.self, arguments: 7, 8, 9, Base())
        #expect(again.base.label == "base")
    }

    @Test("a factory made in a template child builds with that child's values, each child its own")
    func factoryInTemplateChildrenUsesEachChild() throws {
        let template = try Injector().childTemplate(providing: User.self) { $0.entryPoint(Pages.self) }
        let ada = try template.child(User("ada")).getInstance(Pages.self)
        let bob = try template.child(User("bob")).getInstance(Pages.self)
        for round in 0..<3 {
            #expect(try ada.make.make("inbox \(round)").user.name == "ada")
            #expect(try bob.make.make("inbox \(round)").user.name == "bob")
        }
        #expect(try ada.make.make("sent").title == "sent")
    }

    @Test("an awaited factory's arguments of mixed sizes and alignments arrive intact at an async initializer")
    func awaitedMixedLayoutArrivesIntact() async throws {
        let maker = try Injector().getInstance(AsyncMaker.self)
        for round in 0..<3 {
            let title = "title \(round) " + String(repeating: "y", count: 20)
            let built = try await maker.mixed.instance(-7, Int64.min + Int64(round), title, true, 0.5 * Double(round), Token("t\(round)"))
            #expect(built.flag == -7)
            #expect(built.count == Int64.min + Int64(round))
            #expect(built.title == title)
            #expect(built.on)
            #expect(built.ratio == 0.5 * Double(round))
            #expect(built.token.name == "t\(round)")
        }
    }

    @Test("an awaited factory of a type built without await fills its slots as make does")
    func awaitedFactoryOfSynchronousType() async throws {
        let maker = try Injector().getInstance(AsyncMaker.self)
        let built = try await maker.plain.instance(3, 4, "five", false, 6.5, 7)
        #expect(built.flag == 3)
        #expect(built.count == 4)
        #expect(built.title == "five")
        #expect(!built.on)
        #expect(built.ratio == 6.5)
        #expect(built.small == 7)
    }

    @Test("an awaited factory releases an argument the value does not keep once it returns, and only once")
    func awaitedArgumentReleasedOnce() async throws {
        let maker = try Injector().getInstance(AsyncMaker.self)
        weak var released: Token?
        var names: [String] = []
        for index in 0..<100 {
            let token = Token("token \(index)")
            released = token
            names.append(try await maker.labelled.instance(token).name)
        }
        #expect(released == nil)
        #expect(names.last == "token 99")
    }

    @Test("four arguments whose last is of another type than its slot are an error naming the slot")
    func wrongTypeAfterExactTypes() throws {
        let injector = try Injector()
        _ = try injector.getInstance(Framed.self, arguments: 1, 2, 3, Base())
        let error = #expect(throws: InjectionError.self) {
            _ = try injector.getInstance(Framed.self, arguments: 1, 2, 3, Special("no"))
        }
        #expect(error?.kind == .argumentType)
    }
}
