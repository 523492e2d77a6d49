import Sightless
import Synchronization

// Types shared by the suites. Each test builds its own injector; these only describe needs.

protocol Api: AnyObject, Sendable { var name: String { get } }

final class HttpApi: Api, Injectable {
    let name = "http"
    static let initializer = Initializer(HttpApi.init)
}

final class FakeApi: Api {
    let name = "fake"
}

final class Address: Injectable {
    let street: String
    init(street: String) { self.street = street }
    static let initializer = Initializer(Address.init(street:), .named("street"))
}

final class Color: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

final class Garage: Injectable {
    static let initializer = Initializer(Garage.init)
}

final class Driveway: Injectable {
    static let initializer = Initializer(Driveway.init)
}

/// Blindside's House: an initializer with a dependency, declared properties, and an awake hook.
class House: Injectable {
    let address: Address
    var color: Color?
    var garage: Garage?
    private(set) var awakenedWith: (color: Color?, garage: Garage?)?

    required init(address: Address) { self.address = address }

    class var initializer: Initializer<House> { Initializer(Self.init(address:)) }
    class var properties: Properties<House> {
        Properties<House>()
            .inject(\.color, named: "houseColor")
            .inject(\.garage)
    }

    func awakeFromInjection() {
        awakenedWith = (color, garage)
    }
}

/// Blindside's Mansion: inherits House's initializer and properties, re-binds one, adds one.
final class Mansion: House {
    var driveway: Driveway?

    override class var properties: Properties<House> {
        super.properties
            .inject(\.color, named: "mansionColor")
            .inject(\Mansion.driveway)
    }
}

/// Inherits everything from House, declares nothing.
final class Cottage: House {}

struct Point: Injectable {
    var x: Int
    var label: String?
    static let initializer = Initializer(Point.init(x:label:), .named("x"), .inject)
}

final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    func increment() { value.add(1, ordering: .relaxed) }
    var count: Int { value.load(ordering: .relaxed) }
}

