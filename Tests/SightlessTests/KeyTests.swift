import Sightless
import Testing

@Suite("Keys")
struct KeyTests {
    @Test("keys of the same type and name are equal, and differ by name")
    func equality() {
        #expect(Key<String>() == Key(String.self))
        #expect(Key<String>(named: "a") == Key<String>(named: "a"))
        #expect(Key<String>(named: "a") != Key<String>(named: "b"))
        #expect(Key<String>(named: "a").erased != Key<Int>(named: "a").erased)
        #expect(Set([Key<Int>().erased, Key<Int>().erased, Key<Int>(named: "x").erased]).count == 2)
    }

    @Test("a key reads as its type, and its name when it has one")
    func description() {
        #expect(Key<Address>().description == "Address")
        #expect(Key<String>(named: "endpoint").description == #"String(named: "endpoint")"#)
    }
}

@Suite("Key names")
struct KeyNameTests {
    @Test("a Factory key reads as source writes it, without the runtime's Pack wrapper")
    func factoryName() {
        #expect(Key<Factory<Address, String, Int>>().description == "Factory<Address, String, Int>")
        #expect(Key<Factory<Address>>().description == "Factory<Address>")
        #expect(Key<[Factory<Address, Int>]>().description == "Array<Factory<Address, Int>>")
    }
}
