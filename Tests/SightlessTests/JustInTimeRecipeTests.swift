import Sightless
import Testing

/// Types of the suite below, each used by one test only.
private enum Recipes {
    /// How many times `Counted.initializer` was read.
    static let initializerReads = Locked(0)

    final class Counted: Injectable {
        init() {}
        static var initializer: Initializer<Counted> {
            Recipes.initializerReads.withLock { $0 += 1 }
            return Initializer(Counted.init)
        }
    }

    final class Kept: Injectable {
        init() {}
        static let initializer = Initializer(Kept.init)
        static var scope: Scope { .singleton }
    }
}

@Suite("Just-in-time recipes")
struct JustInTimeRecipeTests {
    @Test("a later injector builds a just-in-time type without reading its descriptors again")
    func descriptorsReadOncePerProcess() throws {
        for _ in 0..<3 {
            let injector = try Injector(modules: [])
            _ = try injector.getInstance(Recipes.Counted.self)
        }
        #expect(Recipes.initializerReads.withLock { $0 } == 1)
    }

    @Test("each injector keeps its own instance of a just-in-time singleton built from the shared recipe")
    func singletonPerInjector() throws {
        let first = try Injector(modules: [])
        let second = try Injector(modules: [])
        let one = try first.getInstance(Recipes.Kept.self)
        #expect(try first.getInstance(Recipes.Kept.self) === one)
        #expect(try second.getInstance(Recipes.Kept.self) !== one)
    }
}
