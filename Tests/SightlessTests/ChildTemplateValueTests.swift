import Sightless
import Testing

/// The values a template's children are made with: of every kind (classes, structs holding
/// references, strings, existentials, wide-aligned vectors), through every arity of
/// `childTemplate(providing:)`, read where they are needed and destroyed once with the child.
private enum Provided {
    /// Counts how many of its tokens are alive.
    final class Ledger: @unchecked Sendable {
        let alive = Locked(0)
    }

    final class Token: Sendable {
        let ledger: Ledger
        let name: String
        init(_ name: String, _ ledger: Ledger) {
            self.name = name
            self.ledger = ledger
            ledger.alive.withLock { $0 += 1 }
        }
        deinit { ledger.alive.withLock { $0 -= 1 } }
    }

    /// A struct holding a reference and a string: destroyed through its own layout.
    struct Envelope: Sendable {
        let token: Token
        let label: String
    }

    protocol Greeting: Sendable { var text: String { get } }
    struct Hello: Greeting {
        let token: Token
        var text: String { "hello \(token.name)" }
    }

    /// Needs a value of each kind a child can hold.
    final class Reader: Injectable {
        let token: Token
        let envelope: Envelope
        let count: Int
        let greeting: any Greeting
        init(token: Token, envelope: Envelope, count: Int, greeting: any Greeting) {
            self.token = token
            self.envelope = envelope
            self.count = count
            self.greeting = greeting
        }
        static let initializer = Initializer(Reader.init(token:envelope:count:greeting:))
    }

    /// Holds its token weakly: a value the runtime cannot move by copying its bytes.
    struct WeakNote: Sendable {
        weak var token: Token?
        let label: String
    }

    final class Vectors: Injectable {
        let vector: SIMD4<Float>
        let name: String
        init(vector: SIMD4<Float>, name: String) {
            self.vector = vector
            self.name = name
        }
        static let initializer = Initializer(Vectors.init(vector:name:))
    }
}

@Suite("Child template values")
struct ChildTemplateValueTests {
    @Test("a template of one value gives each child its own")
    func oneValue() throws {
        let ledger = Provided.Ledger()
        let template = try Injector(modules: []).childTemplate(providing: Provided.Token.self) { _ in }
        let first = try template.child(Provided.Token("ada", ledger))
        let second = try template.child(Provided.Token("bob", ledger))
        #expect(try first.getInstance(Provided.Token.self).name == "ada")
        #expect(try second.getInstance(Provided.Token.self).name == "bob")
    }

    @Test("a template of three values declared by keys gives each child its values by name")
    func threeKeys() throws {
        let template = try Injector(modules: []).childTemplate(
            providing: Key<String>(named: "user"), Key<String>(named: "region"), Key<Int>(named: "page"))
        let child = try template.child("ada", "eu", 3)
        #expect(try child.getInstance(Key<String>(named: "user")) == "ada")
        #expect(try child.getInstance(Key<String>(named: "region")) == "eu")
        #expect(try child.getInstance(Key<Int>(named: "page")) == 3)
    }

    @Test("a template of two types with modules gives each child its values")
    func twoTypesWithModules() throws {
        let template = try Injector(modules: []).childTemplate(
            providing: SIMD4<Float>.self, String.self, modules: [Bindings { $0.entryPoint(Provided.Vectors.self) }])
        let vectors = try template.child(SIMD4<Float>(1, 2, 3, 4), "wide").getInstance(Provided.Vectors.self)
        #expect(vectors.vector == SIMD4<Float>(1, 2, 3, 4))
        #expect(vectors.name == "wide")
    }

    @Test("a template of four values of every kind, declared variadically, gives its child each of them")
    func fourValuesOfEveryKind() throws {
        let ledger = Provided.Ledger()
        let template = try Injector(modules: []).childTemplate(
            providing: Provided.Token.self, Provided.Envelope.self, Int.self, (any Provided.Greeting).self
        ) { $0.entryPoint(Provided.Reader.self) }
        let child = try template.child(
            Provided.Token("ada", ledger), Provided.Envelope(token: Provided.Token("env", ledger), label: "letter"), 7,
            Provided.Hello(token: Provided.Token("greeter", ledger)))
        let reader = try child.getInstance(Provided.Reader.self)
        #expect(reader.token.name == "ada")
        #expect(reader.envelope.label == "letter" && reader.envelope.token.name == "env")
        #expect(reader.count == 7)
        #expect(reader.greeting.text == "hello greeter")
    }

    @Test("every value a child holds is destroyed exactly once when the child and what it built are released")
    func valuesDestroyedWithChild() throws {
        let ledger = Provided.Ledger()
        let template = try Injector(modules: []).childTemplate(
            providing: Provided.Token.self, Provided.Envelope.self, Int.self, (any Provided.Greeting).self
        ) { $0.entryPoint(Provided.Reader.self) }
        do {
            let child = try template.child(
                Provided.Token("ada", ledger), Provided.Envelope(token: Provided.Token("env", ledger), label: "letter"),
                7, Provided.Hello(token: Provided.Token("greeter", ledger)))
            _ = try child.getInstance(Provided.Reader.self)
            #expect(ledger.alive.withLock { $0 } == 3)
        }
        #expect(ledger.alive.withLock { $0 } == 0)
    }

    @Test("a child made when its template's parent is shut down throws and releases the values it was given")
    func valuesReleasedWhenRefused() throws {
        let ledger = Provided.Ledger()
        let app = try Injector(modules: [])
        let template = try app.childTemplate(providing: Provided.Token.self, Provided.Envelope.self) { _ in }
        try app.shutDown()
        #expect(throws: InjectionError.self) {
            _ = try template.child(Provided.Token("ada", ledger), Provided.Envelope(token: Provided.Token("env", ledger), label: ""))
        }
        #expect(ledger.alive.withLock { $0 } == 0)
    }

    @Test("values small enough to lie in the child itself are read back and destroyed exactly once with it")
    func valuesInPlaceDestroyedOnce() throws {
        let ledger = Provided.Ledger()
        // 8 + 24 + 8 bytes, each movable by copying its bytes: the child holds them in place.
        let template = try Injector(modules: []).childTemplate(
            providing: Provided.Token.self, Provided.Envelope.self, Int.self) { _ in }
        do {
            let children = try (0..<3).map { index in
                try template.child(Provided.Token("t\(index)", ledger),
                                   Provided.Envelope(token: Provided.Token("e\(index)", ledger), label: "l\(index)"), index)
            }
            #expect(ledger.alive.withLock { $0 } == 6)
            for (index, child) in children.enumerated() {
                #expect(try child.getInstance(Provided.Token.self).name == "t\(index)")
                #expect(try child.getInstance(Provided.Envelope.self).label == "l\(index)")
                #expect(try child.getInstance(Int.self) == index)
            }
        }
        #expect(ledger.alive.withLock { $0 } == 0)
    }

    @Test("a value holding a weak reference, which cannot be moved by its bytes, is read back and destroyed with the child")
    func weakValueKeptApart() throws {
        let ledger = Provided.Ledger()
        let token = Provided.Token("kept", ledger)
        let template = try Injector(modules: []).childTemplate(providing: Provided.WeakNote.self, Provided.Token.self) { _ in }
        do {
            let child = try template.child(Provided.WeakNote(token: token, label: "note"), Provided.Token("own", ledger))
            let note = try child.getInstance(Provided.WeakNote.self)
            #expect(note.token === token && note.label == "note")
            #expect(try child.getInstance(Provided.Token.self).name == "own")
            #expect(ledger.alive.withLock { $0 } == 2)
        }
        #expect(ledger.alive.withLock { $0 } == 1)
    }

    @Test("a grandchild reads the values of the template child it was made from, in place or apart")
    func grandchildReadsValuesInPlaceAndApart() throws {
        let ledger = Provided.Ledger()
        let small = try Injector(modules: []).childTemplate(providing: Provided.Token.self) { _ in }
        let wide = try Injector(modules: []).childTemplate(providing: SIMD4<Float>.self, Provided.Token.self) { _ in }
        let fromSmall = try small.child(Provided.Token("small", ledger)).child { _ in }
        let fromWide = try wide.child(SIMD4<Float>(1, 2, 3, 4), Provided.Token("wide", ledger)).child { _ in }
        #expect(try fromSmall.getInstance(Provided.Token.self).name == "small")
        #expect(try fromWide.getInstance(Provided.Token.self).name == "wide")
        #expect(try fromWide.getInstance(SIMD4<Float>.self) == SIMD4<Float>(1, 2, 3, 4))
    }

    @Test("six references fill a child's own room and a seventh moves them all apart; either way each is read back and destroyed once")
    func roomBoundary() throws {
        let ledger = Provided.Ledger()
        func token(_ name: String) -> Provided.Token { Provided.Token(name, ledger) }
        let six = try Injector(modules: []).childTemplate(
            providing: Key<Provided.Token>(named: "1"), Key<Provided.Token>(named: "2"), Key<Provided.Token>(named: "3"),
            Key<Provided.Token>(named: "4"), Key<Provided.Token>(named: "5"), Key<Provided.Token>(named: "6"))
        let seven = try Injector(modules: []).childTemplate(
            providing: Key<Provided.Token>(named: "1"), Key<Provided.Token>(named: "2"), Key<Provided.Token>(named: "3"),
            Key<Provided.Token>(named: "4"), Key<Provided.Token>(named: "5"), Key<Provided.Token>(named: "6"),
            Key<Provided.Token>(named: "7"))
        do {
            let inPlace = try six.child(token("a1"), token("a2"), token("a3"), token("a4"), token("a5"), token("a6"))
            let apart = try seven.child(token("b1"), token("b2"), token("b3"), token("b4"), token("b5"), token("b6"),
                                        token("b7"))
            #expect(ledger.alive.withLock { $0 } == 13)
            for index in 1...6 {
                #expect(try inPlace.getInstance(Key<Provided.Token>(named: "\(index)")).name == "a\(index)")
            }
            for index in 1...7 {
                #expect(try apart.getInstance(Key<Provided.Token>(named: "\(index)")).name == "b\(index)")
            }
        }
        #expect(ledger.alive.withLock { $0 } == 0)
    }

    @Test("an empty value and a reference are read back from a child")
    func emptyValue() throws {
        struct Marker: Sendable, Equatable {}
        let ledger = Provided.Ledger()
        let template = try Injector(modules: []).childTemplate(providing: Marker.self, Provided.Token.self) { _ in }
        do {
            let child = try template.child(Marker(), Provided.Token("after", ledger))
            #expect(try child.getInstance(Marker.self) == Marker())
            #expect(try child.getInstance(Provided.Token.self).name == "after")
        }
        #expect(ledger.alive.withLock { $0 } == 0)
    }

    @Test("values of mixed sizes and alignments lie as their tuple does: each is read back, in place or apart, and destroyed once")
    func mixedLayoutsReadBack() throws {
        let ledger = Provided.Ledger()
        // A byte, a word, a short, a string and a reference: 48 bytes with their padding, in place.
        let inPlace = try Injector(modules: []).childTemplate(
            providing: UInt8.self, Int.self, UInt16.self, String.self, Provided.Token.self) { _ in }
        // The same after a 16-byte aligned vector: apart.
        let apart = try Injector(modules: []).childTemplate(
            providing: Key<UInt8>(), Key<SIMD4<Float>>(), Key<UInt16>(), Key<String>(), Key<Provided.Token>(),
            Key<Int>())
        do {
            let first = try inPlace.child(7, -3, 65_000, "sixteen bytes or more, on the heap", Provided.Token("in", ledger))
            let second = try apart.child(9, SIMD4<Float>(1, 2, 3, 4), 12, "apart", Provided.Token("apart", ledger), 42)
            #expect(try first.getInstance(UInt8.self) == 7)
            #expect(try first.getInstance(Int.self) == -3)
            #expect(try first.getInstance(UInt16.self) == 65_000)
            #expect(try first.getInstance(String.self) == "sixteen bytes or more, on the heap")
            #expect(try first.getInstance(Provided.Token.self).name == "in")
            #expect(try second.getInstance(UInt8.self) == 9)
            #expect(try second.getInstance(SIMD4<Float>.self) == SIMD4<Float>(1, 2, 3, 4))
            #expect(try second.getInstance(UInt16.self) == 12)
            #expect(try second.getInstance(String.self) == "apart")
            #expect(try second.getInstance(Provided.Token.self).name == "apart")
            #expect(try second.getInstance(Int.self) == 42)
            #expect(ledger.alive.withLock { $0 } == 2)
        }
        #expect(ledger.alive.withLock { $0 } == 0)
    }

    @Test("an optional reference, nil or not, a Sendable AnyObject and a class-bound existential are each destroyed once")
    func referenceLikeValuesDestroyedOnce() throws {
        let ledger = Provided.Ledger()
        let template = try Injector(modules: []).childTemplate(
            providing: Key<Provided.Token?>(named: "none"), Key<Provided.Token?>(named: "some"), Key<any AnyObject & Sendable>(),
            Key<any ClassBound>())
        do {
            let child = try template.child(nil, Provided.Token("some", ledger), Provided.Token("object", ledger),
                                           BoundToken(token: Provided.Token("bound", ledger)))
            #expect(try child.getInstance(Key<Provided.Token?>(named: "none")) == nil)
            #expect(try child.getInstance(Key<Provided.Token?>(named: "some"))?.name == "some")
            #expect((try child.getInstance(Key<any AnyObject & Sendable>()) as? Provided.Token)?.name == "object")
            #expect(try child.getInstance(Key<any ClassBound>()).name == "bound")
            #expect(ledger.alive.withLock { $0 } == 3)
        }
        #expect(ledger.alive.withLock { $0 } == 0)
    }

    @Test("children made and released many times leave none of their values alive")
    func manyChildrenReleaseEverything() throws {
        let ledger = Provided.Ledger()
        let references = try Injector(modules: []).childTemplate(providing: Provided.Token.self, Provided.Token?.self) { _ in }
        let mixed = try Injector(modules: []).childTemplate(providing: Provided.Envelope.self, Int.self) { _ in }
        for index in 0..<200 {
            let child = try references.child(Provided.Token("a\(index)", ledger), index.isMultiple(of: 2) ? nil : Provided.Token("b", ledger))
            #expect(try child.getInstance(Provided.Token.self).name == "a\(index)")
            _ = try mixed.child(Provided.Envelope(token: Provided.Token("e", ledger), label: "\(index)"), index)
        }
        #expect(ledger.alive.withLock { $0 } == 0)
    }
}

/// A protocol only classes adopt: its existential holds a reference and a witness table.
private protocol ClassBound: AnyObject, Sendable {
    var name: String { get }
}

private final class BoundToken: ClassBound {
    let token: Provided.Token
    var name: String { token.name }
    init(token: Provided.Token) { self.token = token }
}
