import Sightless
import Testing

// An alias to an unbound optional key of a type with dynamic arguments
// let a request read its own dynamic arguments as the target's (an Int read as a String).

private enum ArgSafety {
    final class Dyn: Injectable {
        let title: String
        init(title: String) { self.title = title }
        static let initializer = Initializer(Dyn.init(title:), .dynamic)
    }

    final class Outer: Injectable {
        let dyn: Dyn?
        let n: Int
        init(dyn: Dyn?, n: Int) { self.dyn = dyn; self.n = n }
        static let initializer = Initializer(Outer.init(dyn:n:), .named("x"), .dynamic)
    }

    /// The same shape, injected as a plain dependency by a type without creation-time
    /// arguments.
    final class Plain: Injectable {
        let dyn: Dyn?
        init(dyn: Dyn?) { self.dyn = dyn }
        static let initializer = Initializer(Plain.init(dyn:), .named("x"))
    }

    static var aliasModule: Bindings {
        Bindings { $0.bind(Key<Dyn?>(named: "x")).to(Key<Dyn?>()) }
    }
}

@Suite("Regression: dynamic argument safety")
struct RegressionCreationTimeArgumentSafetyTests {
    @Test("an alias to an unbound optional key of a type with dynamic arguments is rejected as dynamicDependency")
    func optionalAliasToDynamicTypeIsRejected() {
        // On a thread of its own: reading the argument buffer wrongly may crash.
        let outcome = regressionRun {
            let injector = try Injector(ArgSafety.aliasModule)
            _ = try injector.getInstance(ArgSafety.Outer.self, arguments: 0x4141_4141_4141)
            // Reaching here means the request succeeded; never read `dyn.title`: it is garbage.
        }
        #expect(!outcome.returned, "Outer was built, with its Int argument read as Dyn's String")
        #expect(outcome.error?.kind == .dynamicDependency, "\(outcome)")
    }

    @Test("an alias to an unbound optional key of a type with dynamic arguments, injected without arguments, is rejected as dynamicDependency")
    func optionalAliasToDynamicTypeWithoutArgumentsIsRejected() {
        let outcome = regressionRun {
            let injector = try Injector(ArgSafety.aliasModule)
            _ = try injector.getInstance(ArgSafety.Plain.self)
        }
        #expect(!outcome.returned, "Plain was built although nothing could fill Dyn's dynamic argument")
        #expect(outcome.error?.kind == .dynamicDependency, "\(outcome)")
    }
}
