@testable import Sightless
import Testing

// An `Optional`, a `Lazy` or a `Factory` says what it is through its own conformance, asked of
// the runtime once per type; every other type must come out as none of them.

private enum Shapes {
    protocol Service: Sendable {}
    protocol Bound: AnyObject {}
    final class Engine: Injectable {
        init() {}
        static let initializer = Initializer(Engine.init)
    }
    struct Value {}
    /// A generic root class of one parameter, shaped as `Lazy` is.
    final class Box<Content> {}
    class Base<Content> {}
    final class Derived<Content>: Base<Content> {}
    enum Choice<Content> { case one(Content) }
}

@Suite("Dependency traits")
struct DependencyTraitsTests {
    @Test("a Lazy of any target is recognized, with its target")
    func lazyTargets() {
        let targets: [Any.Type] = [Int.self, String.self, Shapes.Engine.self, Shapes.Value.self, (any Shapes.Service).self,
                                   Int?.self, Lazy<Int>.self, Shapes.Box<Int>.self, [String: Int].self, ((Int) -> Int).self]
        for target in targets {
            func check<Target>(_: Target.Type) {
                #expect(DependencyTraits.isWrapper(Lazy<Target>.self), "Lazy<\(Target.self)>")
                #expect(DependencyTraits.of(Lazy<Target>.self).deferredTarget == Target.self, "Lazy<\(Target.self)>")
                #expect(DependencyTraits.of(Lazy<Target>.self).factoryArguments == nil)
                #expect(DependencyTraits.optionalWrapped(Lazy<Target>.self) == nil)
            }
            check(target)
        }
    }

    @Test("a Factory is recognized, with its target and its arguments' types")
    func factoryTargets() throws {
        #expect(DependencyTraits.isWrapper(Factory<Shapes.Engine>.self))
        #expect(DependencyTraits.isWrapper(Factory<Shapes.Engine, String, Int>.self))
        let traits = DependencyTraits.of(Factory<Shapes.Engine, String, Int>.self)
        #expect(traits.deferredTarget == Shapes.Engine.self)
        let arguments = try #require(traits.factoryArguments)
        #expect(arguments.count == 2)
        #expect(arguments.first == String.self && arguments.last == Int.self)
    }

    @Test("an optional is recognized with its wrapped type, an optional of a Lazy or of a protocol type too")
    func optionals() {
        #expect(DependencyTraits.optionalWrapped(Int?.self) == Int.self)
        #expect(DependencyTraits.optionalWrapped(Lazy<Int>?.self) == Lazy<Int>.self)
        #expect(DependencyTraits.optionalWrapped((any Shapes.Service)?.self) == (any Shapes.Service).self)
        #expect(DependencyTraits.optionalWrapped(Int??.self) == Int?.self)
        #expect(DependencyTraits.of(Lazy<Int>?.self).deferred == nil)
        #expect(DependencyTraits.optionalWrapped(Shapes.Choice<Int>.self) == nil)
        #expect(DependencyTraits.optionalWrapped(Int.self) == nil)
    }

    @Test("no other type is taken for a Lazy or a Factory, a generic class of Lazy's shape included")
    func othersAreNotDeferred() {
        let others: [Any.Type] = [Int.self, String.self, Shapes.Engine.self, Shapes.Value.self, (any Shapes.Service).self,
                                  (any Shapes.Bound).self, Lazy<Int>?.self, Factory<Int>?.self, Shapes.Box<Int>.self,
                                  Shapes.Box<Lazy<Int>>.self, Shapes.Base<Int>.self, Shapes.Derived<Int>.self,
                                  Shapes.Choice<Int>.self, [Lazy<Int>].self, (Lazy<Int>, Int).self, ((Lazy<Int>) -> Int).self,
                                  Lazy<Int>.Type.self, Any.self, AnyObject.self, Injector.self, Key<Int>.self]
        for type in others {
            #expect(DependencyTraits.of(type).deferred == nil, "\(type)")
        }
    }

    @Test("what the traits tell agrees with the runtime's conformance")
    func agreesWithTheRuntime() {
        let types: [Any.Type] = [Lazy<Int>.self, Lazy<Shapes.Engine>.self, Lazy<any Shapes.Service>.self, Factory<Int>.self,
                                 Factory<Shapes.Engine, Int>.self, Shapes.Box<Int>.self, Shapes.Engine.self, Shapes.Value.self,
                                 Shapes.Derived<String>.self, Lazy<Int>?.self, [Int].self]
        for type in types {
            #expect((DependencyTraits.of(type).deferred != nil) == (type is any DeferredDependency.Type), "\(type)")
        }
    }

    @Test("an optional, a Lazy or a Factory never declares itself")
    func wrappersDoNotDeclareThemselves() {
        #expect(!DependencyTraits.mayDeclareItself(Lazy<Shapes.Engine>.self))
        #expect(!DependencyTraits.mayDeclareItself(Factory<Shapes.Engine, Int>.self))
        #expect(!DependencyTraits.mayDeclareItself(Shapes.Engine?.self))
        #expect(DependencyTraits.mayDeclareItself(Shapes.Engine.self))
        #expect(DependencyTraits.mayDeclareItself(Shapes.Box<Shapes.Engine>.self))
        #expect(DependencyTraits.mayDeclareItself((any Shapes.Service).self))
    }

    @Test("an alias's check tells a class or wrapper key exactly, and leaves a protocol, struct or enum key to the built value")
    func aliasCheck() {
        #expect(valuesOf(Shapes.Derived<Int>.self, areValuesOf: Shapes.Base<Int>.self))
        #expect(!valuesOf(Shapes.Engine.self, areValuesOf: Shapes.Base<Int>.self))
        #expect(!valuesOf(Shapes.Engine.self, areValuesOf: Shapes.Base<Int>?.self))
        #expect(valuesOf(Shapes.Engine.self, areValuesOf: (any Shapes.Bound).self))
        #expect(valuesOf(Shapes.Engine.self, areValuesOf: (any Shapes.Service)?.self))
        #expect(!valuesOf(String.self, instance: "text", areValuesOf: Int.self))
        #expect(valuesOf(Shapes.Value.self, instance: Shapes.Value(), areValuesOf: Shapes.Value?.self))
        #expect(valuesOf(Shapes.Engine.self, areValuesOf: Int.self))
        #expect(!valuesOf(Shapes.Engine.self, areValuesOf: Lazy<Shapes.Engine>.self))
        #expect(valuesOf(Shapes.Engine.self, areValuesOf: Shapes.Value.self))
    }
}
