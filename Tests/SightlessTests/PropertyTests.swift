import Sightless
import Testing

private var houseModule: Bindings { Bindings {
    $0.bind(Key<String>(named: "street")).to(instance: "Privet Drive")
    $0.bind(Key<Color>(named: "houseColor")).to(instance: Color("blue"))
    $0.bind(Key<Color>(named: "mansionColor")).to(instance: Color("gold"))
} }

private final class Notebook: Injectable {
    var logger: Logger?
    var pages: Int = 0
    private(set) var awakeSawLogger = false
    static let initializer = Initializer(Notebook.init)
    static let properties = Properties<Notebook>().inject(\.logger).inject(\.pages, named: "pages")
    func awakeFromInjection() { awakeSawLogger = logger != nil }
}

private final class Logger: Injectable {
    static let initializer = Initializer(Logger.init)
}

@Suite("Properties")
struct PropertyTests {
    @Test("a property bound by name is filled from that named key")
    func explicitNamedProperty() throws {
        let injector = try Injector(houseModule)
        #expect(try injector.getInstance(House.self).color?.name == "blue")
    }

    @Test("a property is filled from its type's binding")
    func propertyFromType() throws {
        let injector = try Injector(Bindings { $0.bind(Key<Int>(named: "pages")).to(instance: 12) })
        let notebook = try injector.getInstance(Notebook.self)
        #expect(notebook.logger != nil)
        #expect(notebook.pages == 12)
    }

    @Test("an optional property with nothing bound stays nil")
    func optionalPropertyNil() throws {
        let injector = try Injector(Bindings { $0.bind(Key<String>(named: "street")).to(instance: "x") })
        #expect(try injector.getInstance(House.self).color == nil)
    }

    @Test("awakeFromInjection runs after the properties are set")
    func awakeAfterProperties() throws {
        let injector = try Injector(houseModule)
        let house = try injector.getInstance(House.self)
        #expect(house.awakenedWith?.color?.name == "blue")
        #expect(house.awakenedWith?.garage != nil)
        let notebook = try Injector(Bindings { $0.bind(Key<Int>(named: "pages")).to(instance: 1) }).getInstance(Notebook.self)
        #expect(notebook.awakeSawLogger)
    }

    @Test("a subclass gets its superclass's properties injected")
    func superclassPropertiesInSubclass() throws {
        let injector = try Injector(houseModule)
        let cottage = try injector.getInstance(Cottage.self)
        #expect(cottage.color?.name == "blue")
        #expect(cottage.garage != nil)
        #expect(cottage.address.street == "Privet Drive")
    }

    @Test("a subclass re-binding an inherited property leaves the superclass alone")
    func subclassRebindingLeavesSuperclass() throws {
        let injector = try Injector(houseModule)
        let mansion = try injector.getInstance(Mansion.self)
        let house = try injector.getInstance(House.self)
        #expect(mansion.color?.name == "gold")
        #expect(mansion.driveway != nil)
        #expect(mansion.garage != nil)
        #expect(house.color?.name == "blue")
        #expect(House.properties.dependencies.count == 2)
        #expect(Mansion.properties.dependencies.count == 3)
    }

    @Test("inject(into:) fills the properties of an object made elsewhere, then awakes it")
    func injectIntoObject() throws {
        let injector = try Injector(houseModule)
        let house = House(address: Address(street: "elsewhere"))
        try injector.inject(into: house)
        #expect(house.color?.name == "blue")
        #expect(house.awakenedWith?.garage != nil)
    }

    @Test("inject(into:) fills the properties of a struct in place")
    func injectIntoStruct() throws {
        struct Settings: Injectable {
            var theme: String = "light"
            static let initializer = Initializer { Settings() }
            static let properties = Properties<Settings>().inject(\.theme, named: "theme")
        }
        let injector = try Injector(Bindings { $0.bind(Key<String>(named: "theme")).to(instance: "dark") })
        var settings = Settings()
        try injector.inject(into: &settings)
        #expect(settings.theme == "dark")
    }

    @Test("inject(into:) reports a property nothing provides")
    func injectIntoMissing() throws {
        let injector = try Injector(modules: [])
        let notebook = Notebook()
        let error = #expect(throws: InjectionError.self) { try injector.inject(into: notebook) }
        #expect(error?.kind == .missingBinding)
        #expect(error?.problems.first?.key == Key<Int>(named: "pages").erased)
    }
}
