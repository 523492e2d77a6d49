@testable import Sightless
import Testing

// A `Lazy` or `Factory` is told from its metadata, never from a conformance lookup; every other
// type must come out as not one, and the answer must be the runtime's own.

private enum Shapes {
    protocol Service: Sendable {}
    final class Engine: Injectable {
        init() {}
        static let initializer = Initializer(Engine.init)
    }
    struct Value {}
    /// A generic root class of one parameter, laid out as `Lazy` is.
    final class Box<Content> {}
    class Base<Content> {}
    final class Derived<Content>: Base<Content> {}
    enum Choice<Content> { case one(Content) }
}

@Suite("Deferred types")
struct DeferredTypesTests {
    @Test("a Lazy of any target is recognized from its metadata, with its target")
    func lazyTargets() {
        let targets: [Any.Type] = [Int.self, String.self, Shapes.Engine.self, Shapes.Value.self, (any Shapes.Service).self,
                                   Int?.self, Lazy<Int>.self, Shapes.Box<Int>.self, [String: Int].self, ((Int) -> Int).self]
        for target in targets {
            func check<Target>(_: Target.Type) {
                #expect(DeferredTypes.isDeferred(Lazy<Target>.self), "Lazy<\(Target.self)>")
                #expect(DependencyTraits.of(Lazy<Target>.self).deferredTarget == Target.self, "Lazy<\(Target.self)>")
                #expect(DependencyTraits.of(Lazy<Target>.self).factoryArguments == nil)
            }
            check(target)
        }
    }

    @Test("a Factory is recognized from its metadata, with its target and its arguments' types")
    func factoryTargets() throws {
        #expect(DeferredTypes.isDeferred(Factory<Shapes.Engine>.self))
        #expect(DeferredTypes.isDeferred(Factory<Shapes.Engine, String, Int>.self))
        let traits = DependencyTraits.of(Factory<Shapes.Engine, String, Int>.self)
        #expect(traits.deferredTarget == Shapes.Engine.self)
        let arguments = try #require(traits.factoryArguments)
        #expect(arguments.count == 2)
        #expect(arguments.first == String.self && arguments.last == Int.self)
    }

    @Test("no other type is taken for a Lazy or a Factory, a generic class of Lazy's shape included")
    func othersAreNotDeferred() {
        let others: [Any.Type] = [Int.self, String.self, Shapes.Engine.self, Shapes.Value.self, (any Shapes.Service).self,
                                  Lazy<Int>?.self, Factory<Int>?.self, Shapes.Box<Int>.self, Shapes.Box<Lazy<Int>>.self,
                                  Shapes.Base<Int>.self, Shapes.Derived<Int>.self, Shapes.Choice<Int>.self, [Lazy<Int>].self,
                                  (Lazy<Int>, Int).self, ((Lazy<Int>) -> Int).self, Lazy<Int>.Type.self, Any.self, AnyObject.self,
                                  Injector.self, Key<Int>.self]
        for type in others {
            #expect(!DeferredTypes.isDeferred(type), "\(type)")
            #expect(DependencyTraits.of(type).deferred == nil, "\(type)")
        }
    }

    @Test("what the metadata tells agrees with the runtime's conformance")
    func agreesWithTheRuntime() {
        let types: [Any.Type] = [Lazy<Int>.self, Lazy<Shapes.Engine>.self, Lazy<any Shapes.Service>.self, Factory<Int>.self,
                                 Factory<Shapes.Engine, Int>.self, Shapes.Box<Int>.self, Shapes.Engine.self, Shapes.Value.self,
                                 Shapes.Derived<String>.self, Lazy<Int>?.self, [Int].self]
        for type in types {
            #expect((DependencyTraits.of(type).deferred != nil) == (type is any DeferredDependency.Type), "\(type)")
        }
    }

    @Test("a Lazy or a Factory never declares itself: the runtime is not asked whether it is injectable")
    func deferredTypesDoNotDeclareThemselves() {
        #expect(!DependencyTraits.mayDeclareItself(Lazy<Shapes.Engine>.self))
        #expect(!DependencyTraits.mayDeclareItself(Factory<Shapes.Engine, Int>.self))
        #expect(DependencyTraits.mayDeclareItself(Shapes.Engine.self))
        #expect(DependencyTraits.mayDeclareItself(Shapes.Box<Shapes.Engine>.self))
    }

    @Test("the metadata of a struct or a Swift class names its declaration, shared by every instance of a generic one")
    func nominalIdentity() {
        #expect(nominalTypeIdentity(of: Shapes.Box<Int>.self) != nil)
        #expect(nominalTypeIdentity(of: Shapes.Box<Int>.self) == nominalTypeIdentity(of: Shapes.Box<String>.self))
        #expect(nominalTypeIdentity(of: Shapes.Box<Int>.self) != nominalTypeIdentity(of: Lazy<Int>.self))
        #expect(nominalTypeIdentity(of: [Int].self) == nominalTypeIdentity(of: [String].self))
        #expect(nominalTypeIdentity(of: Shapes.Choice<Int>.self) == nil)
        #expect(nominalTypeIdentity(of: (any Shapes.Service).self) == nil)
        #expect(nominalTypeIdentity(of: (Int, Int).self) == nil)
        #expect(nominalTypeIdentity(of: Int?.self) == nil)
    }

    @Test("a layout is refused when two instances do not hold their arguments where a root class holds them")
    func layoutChecked() {
        #expect(GenericClassLayout(Shapes.Box<Int>.self, argument: Int.self, Shapes.Box<String>.self, argument: String.self) != nil)
        // Arguments that are not the instances': refused, not trusted.
        #expect(GenericClassLayout(Shapes.Box<Int>.self, argument: String.self, Shapes.Box<String>.self, argument: Int.self) == nil)
        // Instances of two classes, or the same argument twice: refused.
        #expect(GenericClassLayout(Shapes.Box<Int>.self, argument: Int.self, Lazy<String>.self, argument: String.self) == nil)
        #expect(GenericClassLayout(Shapes.Box<Int>.self, argument: Int.self, Shapes.Box<Int>.self, argument: Int.self) == nil)
        // Not a class.
        #expect(GenericClassLayout([Int].self, argument: Int.self, [String].self, argument: String.self) == nil)
        let layout = GenericClassLayout(Shapes.Box<Int>.self, argument: Int.self, Shapes.Box<String>.self, argument: String.self)
        #expect(layout?.argument(of: Shapes.Box<Shapes.Engine>.self) == Shapes.Engine.self)
        #expect(layout?.argument(of: Lazy<Shapes.Engine>.self) == nil)
    }
}
