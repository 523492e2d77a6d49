import Sightless
import Testing

// Type mismatches that the graph can see were found only when a request ran
// into them; they must be reported by `Injector(modules:)` with every other problem.

private enum TypeCheck {
    protocol Pet: AnyObject {}

    /// Injectable, but not a Pet.
    final class Cat: Injectable {
        static let initializer = Initializer(Cat.init)
    }

    /// A base class whose initializer is a plain `static let` built from `Animal.init`: a
    /// subclass inherits it, and it builds an Animal, never the subclass.
    class Animal: Injectable {
        init() {}
        static let initializer = Initializer(Animal.init)
    }

    final class Dog: Animal {}

    final class Dyn: Injectable {
        let title: String
        init(title: String) { self.title = title }
        static let initializer = Initializer(Dyn.init(title:), .dynamic)
    }

    /// Injects a factory that passes an Int where Dyn takes a String, through an alias key.
    final class Maker: Injectable {
        let make: Factory<Dyn, Int>
        init(make: Factory<Dyn, Int>) { self.make = make }
        static let initializer = Initializer(Maker.init(make:), .named("alias"))
    }

    /// Expects `Injector(modules:)` itself to throw a `typeMismatch` (or, for `kind`, another
    /// kind), and reports what happened otherwise.
    static func expectBuildError(
        _ kinds: Set<InjectionError.Kind>, _ module: Bindings, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> InjectionError? {
        do {
            _ = try Injector(module)
            Issue.record("the injector was built; expected a \(kinds.map(\.description).sorted()) problem", sourceLocation: sourceLocation)
            return nil
        } catch {
            #expect(error.problems.contains { kinds.contains($0.kind) }, "\(error)", sourceLocation: sourceLocation)
            return error
        }
    }
}

@Suite("Regression: type mismatches are found at build")
struct RegressionBuildTimeTypeCheckTests {
    // Swift checks a conformance to a protocol on a value, or on a metatype cast to the
    // protocol's own existential metatype, which generic code cannot name without the runtime's
    // private entry points: a protocol key's alias is checked on the value built.
    @Test("binding a protocol to a type that does not conform is rejected when its value is built")
    func protocolBoundToNonConformingType() throws {
        let injector = try Injector(Bindings { $0.bind((any TypeCheck.Pet).self).to(TypeCheck.Cat.self) })
        let error = #expect(throws: InjectionError.self) { _ = try injector.getInstance((any TypeCheck.Pet).self) }
        #expect(error?.kind == .typeMismatch)
    }

    @Test("a bound subclass whose inherited initializer builds the base class is rejected at build")
    func subclassWithBaseClassInitializer() {
        _ = TypeCheck.expectBuildError([.typeMismatch], Bindings { $0.bind(TypeCheck.Dog.self) })
    }

    @Test("an alias from Key<Int> to Key<String> is rejected at build")
    func aliasBetweenUnrelatedValueTypes() {
        _ = TypeCheck.expectBuildError([.typeMismatch], Bindings { binder in
            binder.bind(Key<String>(named: "text")).to(instance: "seven")
            binder.bind(Key<Int>(named: "number")).to(Key<String>(named: "text"))
        })
    }

    @Test("a Factory<Dyn, Int> reached through an alias key, where Dyn takes a String, is rejected at build")
    func factoryWithWrongArgumentsThroughAlias() {
        _ = TypeCheck.expectBuildError([.argumentType, .typeMismatch], Bindings { binder in
            binder.bind(Key<Factory<TypeCheck.Dyn, Int>>(named: "alias")).to(Key<Factory<TypeCheck.Dyn, Int>>())
            binder.bind(TypeCheck.Maker.self)
        })
    }

    @Test("a Factory<Dyn, Int> bound to an alias key, where Dyn takes a String, is rejected at build")
    func aliasedFactoryWithWrongArguments() {
        _ = TypeCheck.expectBuildError([.argumentType, .typeMismatch], Bindings { binder in
            binder.bind(Key<Factory<TypeCheck.Dyn, Int>>(named: "alias")).to(Key<Factory<TypeCheck.Dyn, Int>>())
        })
    }
}
