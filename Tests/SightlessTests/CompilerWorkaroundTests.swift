import Testing

// The Swift 6.3 compiler crashes (signal 11 in IRGen) on a parameter pack of generic structs
// whose stored property is an enum with a non-trivial payload, when the pack is walked:
//
//     struct Slot<Value> { enum Kind { case inject(name: String?), dynamic }; let kind: Kind }
//     init<each A>(_ slots: repeat Slot<each A>) { repeat collector.add(each slots) }   // crash
//
// `Slot` therefore stores plain fields. This is the shape that compiles; it stays here so a
// change back to the crashing shape is caught by this file rather than by a confused build.

private struct PlainSlot<Value> {
    let name: String?
    let isDynamic: Bool
}

private final class Collector {
    var names: [String] = []
    func add<Value>(_ slot: PlainSlot<Value>) {
        names.append("\(Value.self)\(slot.isDynamic ? "*" : "")\(slot.name.map { "(\($0))" } ?? "")")
    }
}

private func collect<each Value>(_ slots: repeat PlainSlot<each Value>) -> [String] {
    let collector = Collector()
    repeat collector.add(each slots)
    return collector.names
}

@Suite("Compiler workarounds")
struct CompilerWorkaroundTests {
    @Test("a pack of generic slot structs with plain stored fields can be walked")
    func packOfPlainSlots() {
        let names = collect(PlainSlot<Int>(name: nil, isDynamic: false), PlainSlot<String>(name: "title", isDynamic: true))
        #expect(names == ["Int", "String*(title)"])
    }
}
