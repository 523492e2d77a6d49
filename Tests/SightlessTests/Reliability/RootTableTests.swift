import Sightless
import Synchronization
import Testing

// The root table finds a key's node by the identity of its type (and its name's hash): many
// named keys of one type share a type identity, and keys compiled after the injector was built
// are added to an index filled in place while other threads read the table.

private enum Table {
    final class Root: Injectable, Sendable {
        init() {}
        static let initializer = Initializer(Root.init)
        static let scope = Scope.singleton
    }

    /// A distinct type for every nesting depth, each unbound, so each is compiled on its first
    /// request; a singleton, so racing first requests must share one instance.
    final class Nest<Inner: AnyObject & Sendable>: Injectable, Sendable {
        let inner: Inner
        init(inner: Inner) { self.inner = inner }
        static var initializer: Initializer<Nest> { Initializer(Nest.init(inner:)) }
        static var scope: Scope { .singleton }
    }

    /// Requests `Nest` `depth` levels deep around `Root`, and returns how deep the instance it
    /// got is (following `inner`), or `nil` when the request failed.
    static func nest(depth: Int, in injector: Injector) -> Int? {
        func request<Inner: AnyObject & Sendable>(_ type: Inner.Type, left: Int) -> Int? {
            if left == 0 {
                guard let value = try? injector.getInstance(Inner.self) else { return nil }
                return measure(value)
            }
            return request(Nest<Inner>.self, left: left - 1)
        }
        return request(Root.self, left: depth)
    }

    /// How many `Nest` levels wrap the object.
    static func measure(_ object: AnyObject) -> Int {
        var levels = 0
        var current: AnyObject = object
        while let nested = current as? any Nesting {
            levels += 1
            current = nested.innerObject
        }
        return levels
    }
}

private protocol Nesting { var innerObject: AnyObject { get } }
extension Table.Nest: Nesting { var innerObject: AnyObject { inner } }

@Suite("The root table")
struct RootTableTests {
    @Test("5,000 named keys of one type each find their own binding, and an unbound name none")
    func manyNamesOfOneType() throws {
        let count = 5_000
        let injector = try Injector(Bindings { binder in
            for index in 0..<count { binder.bind(Key<Int>(named: "key \(index)")).to(instance: index) }
            binder.bind(Int.self).to(instance: -1)
            binder.bind(Key<Int>(named: "")).to(instance: -2)
        })
        for index in 0..<count { #expect(try injector.getInstance(Key<Int>(named: "key \(index)")) == index) }
        #expect(try injector.getInstance(Int.self) == -1)
        #expect(try injector.getInstance(Key<Int>(named: "")) == -2)
        let error = #expect(throws: InjectionError.self) { try injector.getInstance(Key<Int>(named: "key \(count)")) }
        #expect(error?.kind == .missingBinding)
    }

    @Test("named keys compiled later (optionals of 5,000 named keys of one type) each find their own binding")
    func manyNamesCompiledLater() throws {
        let count = 5_000
        let injector = try Injector(Bindings { binder in
            for index in 0..<count { binder.bind(Key<Int>(named: "key \(index)")).to(instance: index) }
        })
        for index in 0..<count { #expect(try injector.getInstance(Key<Int?>(named: "key \(index)")) == index) }
        // Read again, now from the grown index, and the unbound one as nil.
        for index in stride(from: 0, to: count, by: 7) { #expect(try injector.getInstance(Key<Int?>(named: "key \(index)")) == index) }
        #expect(try injector.getInstance(Key<Int?>(named: "key \(count)")) == nil)
    }

    @Test("threads making the first request of the same unbound types at once each get the one singleton")
    func racingFirstRequests() throws {
        let threads = 8, depth = 24
        for _ in 0..<20 {
            let injector = try Injector(modules: [])
            let depths = race(threads: threads) { _ in Table.nest(depth: depth, in: injector) ?? -1 }
            #expect(depths == Array(repeating: depth, count: threads))
            // Every thread got the same singletons: the outermost one is built once.
            let outer = race(threads: threads) { _ -> ObjectIdentifier? in
                func request<Inner: AnyObject & Sendable>(_ type: Inner.Type, left: Int) -> ObjectIdentifier? {
                    if left == 0 { return (try? injector.getInstance(Inner.self)).map(ObjectIdentifier.init) }
                    return request(Table.Nest<Inner>.self, left: left - 1)
                }
                return request(Table.Root.self, left: depth)
            }
            #expect(Set(outer).count == 1 && outer.count == threads && !outer.contains(nil))
        }
    }

    @Test("threads reading compiled keys while another compiles new ones always find the right nodes")
    func readersWhileCompiling() throws {
        let count = 2_000
        let injector = try Injector(Bindings { binder in
            for index in 0..<count { binder.bind(Key<Int>(named: "key \(index)")).to(instance: index) }
        })
        let compiled = Atomic<Int>(0)
        let wrong = Atomic<Int>(0)
        race(threads: 4) { thread in
            if thread == 0 {
                // The writer: one new key in the index per request, and a new index now and then.
                for index in 0..<count {
                    if (try? injector.getInstance(Key<Int?>(named: "key \(index)"))) != index { wrong.add(1, ordering: .relaxed) }
                    compiled.store(index + 1, ordering: .releasing)
                }
                return
            }
            var round = 0
            while compiled.load(ordering: .acquiring) < count {
                let known = compiled.load(ordering: .acquiring)
                let index = known == 0 ? 0 : (round * 7919 + thread) % known
                if known > 0, (try? injector.getInstance(Key<Int?>(named: "key \(index)"))) != index {
                    wrong.add(1, ordering: .relaxed)
                }
                if (try? injector.getInstance(Key<Int>(named: "key \(round % count)"))) != round % count {
                    wrong.add(1, ordering: .relaxed)
                }
                // New types compiled by readers too, racing the writer's additions.
                if round % 64 == 0, Table.nest(depth: round / 64 % 12, in: injector) != round / 64 % 12 {
                    wrong.add(1, ordering: .relaxed)
                }
                round += 1
            }
        }
        #expect(wrong.load(ordering: .relaxed) == 0)
    }
}
