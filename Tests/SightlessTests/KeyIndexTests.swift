@testable import Sightless
import Testing

// A graph's keys are found by the identity of their type, and their names when they have one.

@Suite("Key index")
struct KeyIndexTests {
    @Test("keys of one type are told apart by their names, and from the unnamed key")
    func namesTellKeysApart() {
        var index = KeyIndex()
        index.set(0, for: AnyKey(Key<String>()))
        index.set(1, for: AnyKey(Key<String>(named: "a")))
        index.set(2, for: AnyKey(Key<String>(named: "b")))
        #expect(index[AnyKey(Key<String>())] == 0)
        #expect(index[AnyKey(Key<String>(named: "a"))] == 1)
        #expect(index[AnyKey(Key<String>(named: "b"))] == 2)
        #expect(index[AnyKey(Key<String>(named: "c"))] == nil)
        #expect(index[AnyKey(Key<Int>())] == nil)
    }

    @Test("a key stored again keeps only its newest value")
    func storingAgainReplaces() {
        var index = KeyIndex()
        index.set(0, for: AnyKey(Key<Int>()))
        index.set(7, for: AnyKey(Key<Int>()))
        #expect(index[AnyKey(Key<Int>())] == 7)
        #expect(index.count == 1)
    }

    @Test("a name written another way but equal as a string finds the same key")
    func canonicallyEqualNames() {
        var index = KeyIndex()
        index.set(3, for: AnyKey(Key<Int>(named: "caf\u{E9}")))
        #expect(index[AnyKey(Key<Int>(named: "cafe\u{301}"))] == 3)
    }

    @Test("10,000 keys stored one by one, past every growth, are each found again")
    func growsKeepingEveryKey() {
        var index = KeyIndex()
        for position in 0..<10_000 { index.set(position, for: AnyKey(Key<Int>(named: "k\(position)"))) }
        #expect(index.count == 10_000)
        let found = (0..<10_000).filter { (position: Int) in index[AnyKey(Key<Int>(named: "k\(position)"))] == position }
        #expect(found.count == 10_000)
    }
}
