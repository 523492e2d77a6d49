import Sightless
import Testing

// A `Lazy` or `Factory` of a `Lazy` or `Factory` builds its value when the innermost one is
// asked, as an argument and requested alike. It was "Nothing provides Lazy<Meal>", while
// `Lazy<Meal>?` and `Lazy<Lazy<Meal>?>` worked.

private final class Meal: Sendable {}

private final class Order: Injectable {
    let table: Int
    init(table: Int) { self.table = table }
    static let initializer = Initializer(Order.init(table:), .dynamic)
}

/// Nothing binds it.
private protocol Pantry: Sendable {}

/// Builds a `Meal` on every request, counting them.
private func kitchen(_ cooked: Counter) -> Bindings {
    Bindings { $0.bind(Meal.self).to { _ in cooked.increment(); return Meal() } }
}

private final class LazyLazyDiner: Injectable {
    let meal: Lazy<Lazy<Meal>>
    init(meal: Lazy<Lazy<Meal>>) { self.meal = meal }
    static let initializer = Initializer(LazyLazyDiner.init(meal:))
}

private final class LazyFactoryDiner: Injectable {
    let meals: Lazy<Factory<Meal>>
    init(meals: Lazy<Factory<Meal>>) { self.meals = meals }
    static let initializer = Initializer(LazyFactoryDiner.init(meals:))
}

private final class LazyOrderDiner: Injectable {
    let orders: Lazy<Factory<Order, Int>>
    init(orders: Lazy<Factory<Order, Int>>) { self.orders = orders }
    static let initializer = Initializer(LazyOrderDiner.init(orders:))
}

private final class FactoryLazyDiner: Injectable {
    let meals: Factory<Lazy<Meal>>
    init(meals: Factory<Lazy<Meal>>) { self.meals = meals }
    static let initializer = Initializer(FactoryLazyDiner.init(meals:))
}

private final class MaybeLazyLazyDiner: Injectable {
    let meal: Lazy<Lazy<Meal>>?
    init(meal: Lazy<Lazy<Meal>>?) { self.meal = meal }
    static let initializer = Initializer(MaybeLazyLazyDiner.init(meal:))
}

private final class MaybePantryDiner: Injectable {
    let pantry: Lazy<Lazy<any Pantry>>?
    init(pantry: Lazy<Lazy<any Pantry>>?) { self.pantry = pantry }
    static let initializer = Initializer(MaybePantryDiner.init(pantry:))
}

private final class LazyLazyPantry: Injectable {
    init(pantry: Lazy<Lazy<any Pantry>>) {}
    static let initializer = Initializer(LazyLazyPantry.init(pantry:))
}

private final class LazyFactoryPantry: Injectable {
    init(pantry: Lazy<Factory<any Pantry>>) {}
    static let initializer = Initializer(LazyFactoryPantry.init(pantry:))
}

private final class LazyFactoryArgumentPantry: Injectable {
    init(pantry: Lazy<Factory<any Pantry, Int>>) {}
    static let initializer = Initializer(LazyFactoryArgumentPantry.init(pantry:))
}

private final class FactoryLazyPantry: Injectable {
    init(pantry: Factory<Lazy<any Pantry>>) {}
    static let initializer = Initializer(FactoryLazyPantry.init(pantry:))
}

/// The nestings of `Lazy` and `Factory` around a `Pantry`, which nothing binds.
enum PantryNesting: String, CaseIterable, Sendable, CustomStringConvertible {
    case lazyOfLazy = "Lazy<Lazy<Pantry>>"
    case lazyOfFactory = "Lazy<Factory<Pantry>>"
    case lazyOfFactoryWithArgument = "Lazy<Factory<Pantry, Int>>"
    case factoryOfLazy = "Factory<Lazy<Pantry>>"

    var description: String { rawValue }

    /// A module that binds a type taking the nesting as an argument.
    var consumerModule: Bindings {
        switch self {
        case .lazyOfLazy: Bindings { $0.bind(LazyLazyPantry.self) }
        case .lazyOfFactory: Bindings { $0.bind(LazyFactoryPantry.self) }
        case .lazyOfFactoryWithArgument: Bindings { $0.bind(LazyFactoryArgumentPantry.self) }
        case .factoryOfLazy: Bindings { $0.bind(FactoryLazyPantry.self) }
        }
    }

    /// Requests the nesting itself.
    func request(from injector: Injector) throws {
        switch self {
        case .lazyOfLazy: _ = try injector.getInstance(Lazy<Lazy<any Pantry>>.self)
        case .lazyOfFactory: _ = try injector.getInstance(Lazy<Factory<any Pantry>>.self)
        case .lazyOfFactoryWithArgument: _ = try injector.getInstance(Lazy<Factory<any Pantry, Int>>.self)
        case .factoryOfLazy: _ = try injector.getInstance(Factory<Lazy<any Pantry>>.self)
        }
    }
}

/// The key `error`'s one problem says nothing provides.
private func missingKey(_ error: InjectionError?) -> AnyKey? {
    #expect(error?.problems.count == 1)
    guard case .missingBinding(let key, _, _, _)? = error?.problems.first?.detail else {
        Issue.record("expected missingBinding, got \(String(describing: error))")
        return nil
    }
    return key
}

@Suite("Nested Lazy and Factory")
struct NestedDeferredTests {
    @Test("a Lazy of a Lazy argument builds the value when its inner Lazy is asked, not before")
    func lazyOfLazyArgument() throws {
        let cooked = Counter()
        let diner = try Injector(kitchen(cooked)).getInstance(LazyLazyDiner.self)
        let inner = try diner.meal.get()
        #expect(cooked.count == 0)
        let meal = try inner.get()
        #expect(cooked.count == 1)
        #expect(try inner.get() === meal)
    }

    @Test("a Lazy of a Lazy requested builds the value when its inner Lazy is asked, not before")
    func lazyOfLazyRequested() throws {
        let cooked = Counter()
        let outer = try Injector(kitchen(cooked)).getInstance(Lazy<Lazy<Meal>>.self)
        let inner = try outer.get()
        #expect(cooked.count == 0)
        _ = try inner.get()
        #expect(cooked.count == 1)
    }

    @Test("a Lazy of a Factory argument makes a new value on each call of its factory")
    func lazyOfFactoryArgument() throws {
        let cooked = Counter()
        let diner = try Injector(kitchen(cooked)).getInstance(LazyFactoryDiner.self)
        let factory = try diner.meals.get()
        #expect(cooked.count == 0)
        #expect(try factory.make() !== factory.make())
        #expect(cooked.count == 2)
    }

    @Test("a Lazy of a Factory requested makes a new value on each call of its factory")
    func lazyOfFactoryRequested() throws {
        let cooked = Counter()
        let factory = try Injector(kitchen(cooked)).getInstance(Lazy<Factory<Meal>>.self).get()
        #expect(try factory.make() !== factory.make())
        #expect(cooked.count == 2)
    }

    @Test("a Lazy of a Factory with an argument argument passes the argument to the value")
    func lazyOfFactoryWithArgumentArgument() throws {
        let diner = try Injector(modules: []).getInstance(LazyOrderDiner.self)
        #expect(try diner.orders.get().make(7).table == 7)
    }

    @Test("a Lazy of a Factory with an argument requested passes the argument to the value")
    func lazyOfFactoryWithArgumentRequested() throws {
        let orders = try Injector(modules: []).getInstance(Lazy<Factory<Order, Int>>.self)
        #expect(try orders.get().make(7).table == 7)
    }

    @Test("a Factory of a Lazy argument makes a Lazy that builds its own value when asked, not before")
    func factoryOfLazyArgument() throws {
        let cooked = Counter()
        let diner = try Injector(kitchen(cooked)).getInstance(FactoryLazyDiner.self)
        let first = try diner.meals.make(), second = try diner.meals.make()
        #expect(cooked.count == 0)
        #expect(try first.get() !== second.get())
        #expect(cooked.count == 2)
    }

    @Test("a Factory of a Lazy requested makes a Lazy that builds the value when asked, not before")
    func factoryOfLazyRequested() throws {
        let cooked = Counter()
        let lazy = try Injector(kitchen(cooked)).getInstance(Factory<Lazy<Meal>>.self).make()
        #expect(cooked.count == 0)
        _ = try lazy.get()
        #expect(cooked.count == 1)
    }

    @Test("an optional Lazy of a Lazy argument is one when the value can be built")
    func optionalLazyOfLazy() throws {
        let cooked = Counter()
        let diner = try Injector(kitchen(cooked)).getInstance(MaybeLazyLazyDiner.self)
        let meal = try #require(diner.meal)
        _ = try meal.get().get()
        #expect(cooked.count == 1)
    }

    @Test("an optional Lazy of a Lazy argument is nil when nothing builds the value")
    func optionalLazyOfLazyOfMissing() throws {
        let diner = try Injector(modules: []).getInstance(MaybePantryDiner.self)
        #expect(diner.pantry == nil)
    }

    @Test("an optional Lazy of a Lazy requested is nil when nothing builds the value")
    func optionalLazyOfLazyOfMissingRequested() throws {
        #expect(try Injector(modules: []).getInstance(Lazy<Lazy<any Pantry>>?.self) == nil)
    }

    @Test("a value nothing provides behind a nesting of Lazy and Factory is reported by its own key when the injector is built",
          arguments: PantryNesting.allCases)
    func missingBehindNestingArgument(nesting: PantryNesting) {
        let error = #expect(throws: InjectionError.self) { _ = try Injector(nesting.consumerModule) }
        #expect(missingKey(error) == Key<any Pantry>().erased)
    }

    @Test("a nesting of Lazy and Factory of a value nothing provides, requested, is a missing binding of that value",
          arguments: PantryNesting.allCases)
    func missingBehindNestingRequested(nesting: PantryNesting) throws {
        let injector = try Injector(modules: [])
        let error = #expect(throws: InjectionError.self) { try nesting.request(from: injector) }
        #expect(missingKey(error) == Key<any Pantry>().erased)
    }
}
