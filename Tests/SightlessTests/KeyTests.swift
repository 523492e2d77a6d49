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
