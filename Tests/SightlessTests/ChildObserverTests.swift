import Sightless
import Testing

private final class FamilyClock: Injectable, Sendable {
    init() {}
    static let initializer = Initializer(FamilyClock.init)
}

private final class ChildGreeting: Sendable {
    let text: String
    init(text: String) { self.text = text }
}

private final class ChildScreen: Injectable, Sendable {
    let greeting: ChildGreeting
    init(greeting: ChildGreeting) { self.greeting = greeting }
    static let initializer = Initializer(ChildScreen.init(greeting:))
}

/// The keys an observer heard of.
private final class Heard: Sendable {
    private let keys = Locked<[String]>([])
    func add(_ event: InstanceEvent) { keys.withLock { $0.append(event.key.typeName) } }
    var names: [String] { keys.withLock { $0 } }
}

@Suite("A child's observers")
struct ChildObserverTests {
    @Test("a child's own observers hear of what it builds from its own bindings, its parent's of that and of the family's types")
    func childObserversMissFamilyTypes() throws {
        let parentHeard = Heard(), childHeard = Heard()
        let parent = try Injector(modules: []) { $0.observe(parentHeard.add) }
        let child = try parent.child { binder in
            binder.observe(childHeard.add)
            binder.bind(ChildGreeting.self).to { _ in ChildGreeting(text: "hi") }
        }
        _ = try child.getInstance(ChildScreen.self)
        _ = try child.getInstance(FamilyClock.self)
        #expect(childHeard.names.contains("ChildScreen"))
        #expect(!childHeard.names.contains("FamilyClock"))
        #expect(parentHeard.names.contains("FamilyClock"))
        #expect(parentHeard.names.contains("ChildScreen"))
    }
}
