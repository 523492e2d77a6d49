@testable import Sightless
import Testing

private class MismatchVehicle {}
private final class MismatchBike: MismatchVehicle, Injectable {
    static let initializer = Initializer(MismatchBike.init)
}
private final class MismatchRock: Injectable {
    static let initializer = Initializer(MismatchRock.init)
}

@Suite("Rule: type mismatch")
struct TypeMismatchRuleTests {
    @Test("an alias to a type that is not the key's type is reported with the type it builds")
    func aliasToOtherClass() {
        let problems = TypeMismatchRule().check(ruleGraph { $0.bind(MismatchVehicle.self).to(MismatchRock.self) })
        guard case .aliasTarget(let key, let target, let actual)? = problems.first?.detail else {
            Issue.record("expected aliasTarget, got \(problems)")
            return
        }
        #expect(key == Key<MismatchVehicle>().erased)
        #expect(target == Key<MismatchRock>().erased)
        #expect(actual == Key<MismatchRock>().erased)
        #expect(problems.first?.message.contains("MismatchRock is not a MismatchVehicle") == true)
    }

    @Test("an alias to a subclass is no problem")
    func aliasToSubclass() {
        #expect(TypeMismatchRule().check(ruleGraph { $0.bind(MismatchVehicle.self).to(MismatchBike.self) }).isEmpty)
    }

    @Test("a key of one type bound to an instance of another through an alias is reported")
    func aliasToInstanceOfOtherType() {
        let problems = TypeMismatchRule().check(ruleGraph { binder in
            binder.bind(Key<Int>(named: "port")).to(Key<String>(named: "host"))
            binder.bind(Key<String>(named: "host")).to(instance: "localhost")
        })
        #expect(problems.map(\.kind) == [.typeMismatch])
    }
}

private protocol MismatchPet {}
private protocol MismatchWalker: MismatchPet {}
private final class MismatchCat: MismatchPet, Injectable {
    static let initializer = Initializer(MismatchCat.init)
}
private final class MismatchDog: MismatchWalker, Injectable {
    static let initializer = Initializer(MismatchDog.init)
}

@Suite("Rule: type mismatch, protocol keys")
struct TypeMismatchProtocolTests {
    // Swift checks a conformance to a protocol on a value, or on a metatype cast to the
    // protocol's own existential metatype, which generic code cannot name: a protocol key's
    // alias to a type is checked when the value is built, not by the rule.
    @Test("a protocol bound to a type that does not conform is reported when its value is built")
    func protocolToNonConformingType() throws {
        let injector = try Injector(Bindings { $0.bind((any MismatchPet).self).to(MismatchRock.self) })
        let error = #expect(throws: InjectionError.self) { _ = try injector.getInstance((any MismatchPet).self) }
        #expect(error?.kind == .typeMismatch)
        #expect(error?.problems.first?.message.contains("MismatchRock is not a MismatchPet") == true)
    }

    @Test("a protocol bound to a conforming type is no problem")
    func protocolToConformingType() {
        #expect(TypeMismatchRule().check(ruleGraph { $0.bind((any MismatchPet).self).to(MismatchCat.self) }).isEmpty)
    }

    @Test("a protocol bound to a type conforming through a refined protocol is no problem")
    func protocolToRefinedConformance() {
        #expect(TypeMismatchRule().check(ruleGraph { $0.bind((any MismatchPet).self).to(MismatchDog.self) }).isEmpty)
    }

    @Test("a protocol composition is checked protocol by protocol")
    func composition() throws {
        let injector = try Injector(Bindings { binder in
            binder.bind((any MismatchPet & MismatchWalker).self).to(MismatchCat.self)
            binder.bind(Key<any MismatchPet & MismatchWalker>(named: "dog")).to(MismatchDog.self)
        })
        let error = #expect(throws: InjectionError.self) { _ = try injector.getInstance((any MismatchPet & MismatchWalker).self) }
        #expect(error?.kind == .typeMismatch)
        #expect(throws: Never.self) { _ = try injector.getInstance(Key<any MismatchPet & MismatchWalker>(named: "dog")) }
    }
}

@Suite("Rule: type mismatch, optional keys")
struct TypeMismatchOptionalTests {
    @Test("an optional key bound to its wrapped type is no problem")
    func optionalToWrapped() {
        #expect(TypeMismatchRule().check(ruleGraph { $0.bind(Key<MismatchVehicle?>()).to(MismatchBike.self) }).isEmpty)
        #expect(TypeMismatchRule().check(ruleGraph { $0.bind(Key<(any MismatchPet)?>()).to(MismatchCat.self) }).isEmpty)
    }

    @Test("an optional key bound to another type is reported")
    func optionalToOtherType() {
        #expect(TypeMismatchRule().check(ruleGraph { $0.bind(Key<MismatchVehicle?>()).to(MismatchRock.self) }).map(\.kind) == [.typeMismatch])
    }
}
