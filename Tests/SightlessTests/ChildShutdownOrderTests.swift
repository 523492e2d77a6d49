import Sightless
import Testing

// The order in which a parent's shutdown closes its children's values (ChildInjectors.md, "A
// family's lifecycle"): the child registered with the parent last first. A plain child
// registers when it is made; a template's child when it first keeps a value or makes a child.

private final class OrderLog: Sendable {
    private let entries = Locked<[String]>([])
    func add(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

/// The name of the child a session belongs to.
private final class ChildName: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

/// A value each child keeps, which logs its child's name when it is closed.
private final class NamedSession: Injectable, Closable {
    let log: OrderLog
    let name: ChildName
    init(log: OrderLog, name: ChildName) {
        self.log = log
        self.name = name
    }
    static let initializer = Initializer(NamedSession.init(log:name:))
    func close() throws { log.add(name.name) }
}

@Suite("The order a parent's shutdown closes its children in")
struct ChildShutdownOrderTests {
    private func plainChild(of root: Injector, _ name: String) throws -> Injector {
        try root.child { binder in
            binder.bind(ChildName.self).to(instance: ChildName(name))
            binder.bind(NamedSession.self).in(.singleton)
        }
    }

    @Test("plain children are closed newest first, in the reverse of the order they were made, whatever order they kept values in")
    func plainChildrenNewestFirst() throws {
        let log = OrderLog()
        let root = try Injector(Bindings { $0.bind(OrderLog.self).to(instance: log) })
        let first = try plainChild(of: root, "first")
        let second = try plainChild(of: root, "second")
        let third = try plainChild(of: root, "third")
        _ = try third.getInstance(NamedSession.self)
        _ = try first.getInstance(NamedSession.self)
        _ = try second.getInstance(NamedSession.self)
        try root.shutDown()
        #expect(log.all == ["third", "second", "first"])
    }

    @Test("a template's child registers when it first keeps a value: closed before a plain child made earlier, and in the reverse of the order they began keeping values")
    func templateChildrenByFirstKeptValue() throws {
        let log = OrderLog()
        let root = try Injector(Bindings { $0.bind(OrderLog.self).to(instance: log) })
        let template = try root.childTemplate(providing: ChildName.self) { binder in
            binder.bind(NamedSession.self).in(.singleton)
        }
        let early = try template.child(ChildName("early template child"))
        let late = try template.child(ChildName("late template child"))
        let plain = try plainChild(of: root, "plain child")
        _ = try late.getInstance(NamedSession.self)
        _ = try plain.getInstance(NamedSession.self)
        _ = try early.getInstance(NamedSession.self)
        try root.shutDown()
        #expect(log.all == ["early template child", "late template child", "plain child"])
    }
}
