import Sightless
import Synchronization
import Testing

private final class Reporter: Injectable {
    let api: any Api
    init(api: any Api) { self.api = api }
    static let initializer = Initializer(Reporter.init(api:))
}

@Suite("Observers")
struct ObserverTests {
    @Test("an observer hears of every instance built, with its dependency path")
    func reportsEveryBuild() throws {
        let events = Locked<[InstanceEvent]>([])
        let injector = try Injector(Bindings { binder in
            binder.bind((any Api).self).to(HttpApi.self)
            binder.observe { event in events.withLock { $0.append(event) } }
        })
        _ = try injector.getInstance(Reporter.self)
        let paths = events.withLock { $0.map { $0.path.map(\.typeName) } }
        #expect(paths == [["Reporter", "HttpApi"], ["Reporter"]])
    }

    @Test("an observer hears of a singleton once")
    func singletonOnce() throws {
        let count = Atomic<Int>(0)
        let injector = try Injector(Bindings { binder in
            binder.bind(Garage.self).in(.singleton)
            binder.observe { _ in count.add(1, ordering: .relaxed) }
        })
        _ = try injector.getInstance(Garage.self)
        _ = try injector.getInstance(Garage.self)
        #expect(count.load(ordering: .relaxed) == 1)
    }

    @Test("an event carries the key's scope")
    func carriesScope() throws {
        let events = Locked<[InstanceEvent]>([])
        let injector = try Injector(Bindings { binder in
            binder.bind(Garage.self).in(.singleton)
            binder.observe { event in events.withLock { $0.append(event) } }
        })
        _ = try injector.getInstance(Garage.self)
        #expect(events.withLock { $0.map(\.scope) } == [.singleton])
    }

    @Test("an instance bound with to(instance:) is not reported, a closure's value is")
    func instancesNotReported() throws {
        let events = Locked<[InstanceEvent]>([])
        let injector = try Injector(Bindings { binder in
            binder.bind(Int.self).to(instance: 1)
            binder.bind(String.self).to { _ in "built" }
            binder.observe { event in events.withLock { $0.append(event) } }
        })
        _ = try injector.getInstance(Int.self)
        _ = try injector.getInstance(String.self)
        #expect(events.withLock { $0.map(\.key) } == [Key<String>().erased])
    }

    @Test("a child's builds are reported to its parent's observers")
    func childReportsToParent() throws {
        let count = Atomic<Int>(0)
        let parent = try Injector(Bindings { $0.observe { _ in count.add(1, ordering: .relaxed) } })
        let child = try parent.child { $0.bind(Garage.self) }
        _ = try child.getInstance(Garage.self)
        #expect(count.load(ordering: .relaxed) == 1)
    }

    @Test("builds requested from two threads are each reported with their own path")
    func twoThreads() throws {
        let events = Locked<[InstanceEvent]>([])
        let injector = try Injector(Bindings { binder in
            binder.bind((any Api).self).to(HttpApi.self)
            binder.observe { event in events.withLock { $0.append(event) } }
        })
        race(threads: 2) { _ in
            for _ in 0..<200 { _ = try? injector.getInstance(Reporter.self) }
        }
        let all = events.withLock { $0 }
        #expect(all.count == 800)
        #expect(all.allSatisfy { $0.path.first?.typeName == "Reporter" })
    }
}
