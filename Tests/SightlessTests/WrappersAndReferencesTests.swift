import Sightless
import Testing

// What a dependency's type wraps is told by the type's own conformance, and a class instance kept
// for a request or awaited for a section is read back as the key's class with no layout read: a
// subclass instance under its superclass's key, a protocol key's value, a nested wrapper each
// resolve as they always have.

private class Vehicle: @unchecked Sendable {
    var label: String { "vehicle" }
}
private final class Bike: Vehicle, @unchecked Sendable {
    override var label: String { "bike" }
}
private protocol Road: Sendable {}
private final class Lane: Road, Injectable {
    static let initializer = Initializer(Lane.init)
}
private protocol Unbound: Sendable {}

/// Reads a third time through a `Lazy` while it is built: the request's frame then holds the
/// values.
private final class Trip: Injectable {
    let first: Vehicle
    let second: Vehicle
    let third: Vehicle?
    init(first: Vehicle, second: Vehicle, later: Lazy<Vehicle>) {
        self.first = first
        self.second = second
        third = try? later.get()
    }
    static let initializer = Initializer(Trip.init(first:second:later:))
}

/// Takes a per-request value before the subclass one, so that the subclass one is kept in the
/// request's values, not in the request itself.
private final class Ticket: Injectable {
    static let initializer = Initializer(Ticket.init)
}
private final class LongTrip: Injectable {
    let ticket: Ticket
    let first: Vehicle
    let second: Vehicle
    init(ticket: Ticket, first: Vehicle, second: Vehicle) {
        self.ticket = ticket
        self.first = first
        self.second = second
    }
    static let initializer = Initializer(LongTrip.init(ticket:first:second:))
}

private final class Size: Injectable {
    let value: Int
    init(value: Int) { self.value = value }
    static let initializer = Initializer(Size.init(value:), .dynamic)
}

private final class Wrapped: Injectable {
    let nested: Lazy<Lazy<Lane>>
    let optionalLazy: Lazy<Lane>?
    let sizes: Factory<Size, Int>
    let road: any Road
    let someRoad: (any Road)?
    let noRoad: (any Unbound)?
    init(nested: Lazy<Lazy<Lane>>, optionalLazy: Lazy<Lane>?, sizes: Factory<Size, Int>, road: any Road,
         someRoad: (any Road)?, noRoad: (any Unbound)?) {
        self.nested = nested
        self.optionalLazy = optionalLazy
        self.sizes = sizes
        self.road = road
        self.someRoad = someRoad
        self.noRoad = noRoad
    }
    static let initializer = Initializer(Wrapped.init(nested:optionalLazy:sizes:road:someRoad:noRoad:))
}

private final class AwaitedTrip: Injectable {
    let vehicle: Vehicle
    let road: any Road
    init(vehicle: Vehicle, road: any Road) {
        self.vehicle = vehicle
        self.road = road
    }
    static let initializer = Initializer(AwaitedTrip.init(vehicle:road:))
}

@Suite("Wrapped dependencies and class instances read back as their key's type")
struct WrappersAndReferencesTests {
    @Test("a per-request subclass instance kept under its superclass's key is one within a request, in the request and in its frame")
    func perRequestSubclass() throws {
        let injector = try Injector(Bindings { binder in
            binder.bind(Vehicle.self).to { _ in Bike() }.in(.perRequest)
        })
        let trip = try injector.getInstance(Trip.self)
        #expect(trip.first === trip.second)
        #expect(trip.first.label == "bike")
        #expect(trip.third === trip.first)
        #expect(try injector.getInstance(Trip.self).first !== trip.first)
    }

    @Test("a per-request subclass instance kept in the request's values is read back as its superclass")
    func perRequestSubclassInValues() throws {
        let injector = try Injector(Bindings { binder in
            binder.bind(Ticket.self).in(.perRequest)
            binder.bind(Vehicle.self).to { _ in Bike() }.in(.perRequest)
        })
        let trip = try injector.getInstance(LongTrip.self)
        #expect(trip.first === trip.second)
        #expect(trip.first is Bike)
    }

    @Test("nested and optional wrappers, a factory, a protocol key and optionals of protocol types resolve")
    func wrappers() throws {
        let injector = try Injector(Bindings { binder in
            binder.bind((any Road).self).to(Lane.self)
        })
        let wrapped = try injector.getInstance(Wrapped.self)
        #expect(throws: Never.self) { _ = try wrapped.nested.get().get() }
        #expect(try wrapped.optionalLazy?.get() != nil)
        #expect(try wrapped.sizes.make(7).value == 7)
        #expect(wrapped.road is Lane)
        #expect(wrapped.someRoad is Lane)
        #expect(wrapped.noRoad == nil)
    }

    @Test("an awaited subclass instance and a protocol key's value are read back as their keys' types")
    func awaitedSubclass() async throws {
        let injector = try await Injector.start(modules: [Bindings { binder in
            binder.bind(Vehicle.self).to { _ async in Bike() }
            binder.bind((any Road).self).to { _ async in Lane() }
        }])
        let trip = try await injector.instance(AwaitedTrip.self)
        #expect(trip.vehicle.label == "bike")
        #expect(trip.road is Lane)
    }
}
