import Sightless
import Testing

private final class RequestWidget: Injectable {
    static let initializer = Initializer(RequestWidget.init)
}

private final class RequestGadget: Injectable {
    static let initializer = Initializer(RequestGadget.init)
}

private struct RequestStamp: Injectable {
    nonisolated(unsafe) static var made = 0
    let number: Int
    init() {
        RequestStamp.made += 1
        number = RequestStamp.made
    }
    static let initializer = Initializer(RequestStamp.init)
}

private final class RequestUser: Sendable {
    let name: String
    init(name: String) { self.name = name }
}

private final class RequestPair: Injectable {
    let first: RequestWidget
    let second: RequestWidget
    let user: RequestUser
    init(first: RequestWidget, second: RequestWidget, user: RequestUser) {
        self.first = first
        self.second = second
        self.user = user
    }
    static let initializer = Initializer(RequestPair.init(first:second:user:))
}

private final class RequestMany: Injectable {
    let widget: RequestWidget
    let gadget: RequestGadget
    let stamp: RequestStamp
    let sameGadget: RequestGadget
    let sameStamp: RequestStamp
    let sameWidget: RequestWidget
    init(widget: RequestWidget, gadget: RequestGadget, stamp: RequestStamp, sameGadget: RequestGadget,
         sameStamp: RequestStamp, sameWidget: RequestWidget) {
        self.widget = widget
        self.gadget = gadget
        self.stamp = stamp
        self.sameGadget = sameGadget
        self.sameStamp = sameStamp
        self.sameWidget = sameWidget
    }
    static let initializer = Initializer(RequestMany.init(widget:gadget:stamp:sameGadget:sameStamp:sameWidget:))
}

/// Built by a closure binding, which hands out a way back into the injector.
private final class ThroughResolver {
    let widget: RequestWidget
    let stamp: RequestStamp
    init(widget: RequestWidget, stamp: RequestStamp) {
        self.widget = widget
        self.stamp = stamp
    }
}

private final class WidgetThenResolver: Injectable {
    let widget: RequestWidget
    let stamp: RequestStamp
    let through: ThroughResolver
    init(widget: RequestWidget, stamp: RequestStamp, through: ThroughResolver) {
        self.widget = widget
        self.stamp = stamp
        self.through = through
    }
    static let initializer = Initializer(WidgetThenResolver.init(widget:stamp:through:))
}

private final class ResolverThenWidget: Injectable {
    let through: ThroughResolver
    let widget: RequestWidget
    let stamp: RequestStamp
    init(through: ThroughResolver, widget: RequestWidget, stamp: RequestStamp) {
        self.through = through
        self.widget = widget
        self.stamp = stamp
    }
    static let initializer = Initializer(ResolverThenWidget.init(through:widget:stamp:))
}

private struct RequestBindings: Module {
    func configure(_ binder: Binder) {
        binder.bind(RequestWidget.self).in(.perRequest)
        binder.bind(RequestGadget.self).in(.perRequest)
        binder.bind(RequestStamp.self).in(.perRequest)
        binder.bind(ThroughResolver.self).to { resolver in
            ThroughResolver(widget: try resolver.getInstance(RequestWidget.self),
                            stamp: try resolver.getInstance(RequestStamp.self))
        }
    }
}

private protocol RequestStore: AnyObject {}
private protocol RequestClock { var serial: Int { get } }
private final class MemoryStore: RequestStore, Injectable {
    static let initializer = Initializer(MemoryStore.init)
}
private struct FixedClock: RequestClock, Injectable {
    nonisolated(unsafe) static var made = 0
    let serial: Int
    init() {
        FixedClock.made += 1
        serial = FixedClock.made
    }
    static let initializer = Initializer(FixedClock.init)
}

private final class ProtocolHolder: Injectable {
    let store: any RequestStore
    let clock: any RequestClock
    let sameStore: any RequestStore
    let sameClock: any RequestClock
    init(store: any RequestStore, clock: any RequestClock, sameStore: any RequestStore, sameClock: any RequestClock) {
        self.store = store
        self.clock = clock
        self.sameStore = sameStore
        self.sameClock = sameClock
    }
    static let initializer = Initializer(ProtocolHolder.init(store:clock:sameStore:sameClock:))
}

@Suite("Per-request values")
struct PerRequestValueTests {
    @Test("a template child's per-request value is one within a request, and each request gets its own")
    func templateChild() throws {
        let parent = try Injector(modules: [])
        let requests = try parent.childTemplate(providing: RequestUser.self) { binder in
            binder.bind(RequestWidget.self).in(.perRequest)
            binder.entryPoint(RequestPair.self)
        }
        let child = try requests.child(RequestUser(name: "ada"))
        let pair = try child.getInstance(RequestPair.self)
        #expect(pair.first === pair.second)
        let again = try child.getInstance(RequestPair.self)
        #expect(again.first === again.second)
        #expect(again.first !== pair.first)
        let other = try requests.child(RequestUser(name: "bob")).getInstance(RequestPair.self)
        #expect(other.first === other.second)
        #expect(other.first !== pair.first && other.first !== again.first)
    }

    @Test("several per-request values, classes and structs, are each one within a request")
    func several() throws {
        let injector = try Injector(modules: [RequestBindings()])
        let many = try injector.getInstance(RequestMany.self)
        #expect(many.widget === many.sameWidget)
        #expect(many.gadget === many.sameGadget)
        #expect(many.stamp.number == many.sameStamp.number)
        let next = try injector.getInstance(RequestMany.self)
        #expect(next.widget !== many.widget)
        #expect(next.gadget !== many.gadget)
        #expect(next.stamp.number != many.stamp.number)
    }

    @Test("a per-request value built before a closure runs is the one the closure's resolver gets")
    func builtBeforeWayBack() throws {
        let injector = try Injector(modules: [RequestBindings()])
        let made = try injector.getInstance(WidgetThenResolver.self)
        #expect(made.through.widget === made.widget)
        #expect(made.through.stamp.number == made.stamp.number)
        #expect(try injector.getInstance(WidgetThenResolver.self).widget !== made.widget)
    }

    @Test("a per-request value a closure's resolver built is the one the rest of the request gets")
    func builtThroughWayBack() throws {
        let injector = try Injector(modules: [RequestBindings()])
        let made = try injector.getInstance(ResolverThenWidget.self)
        #expect(made.widget === made.through.widget)
        #expect(made.stamp.number == made.through.stamp.number)
        #expect(try injector.getInstance(ResolverThenWidget.self).widget !== made.widget)
    }

    @Test("a per-request value bound to a protocol, class-bound or not, is one within a request")
    func protocolKeys() throws {
        let injector = try Injector(Bindings { binder in
            binder.bind((any RequestStore).self).to(MemoryStore.self).in(.perRequest)
            binder.bind((any RequestClock).self).to(FixedClock.self).in(.perRequest)
        })
        let holder = try injector.getInstance(ProtocolHolder.self)
        #expect(holder.store === holder.sameStore)
        #expect(holder.clock.serial == holder.sameClock.serial)
        let next = try injector.getInstance(ProtocolHolder.self)
        #expect(next.store !== holder.store)
        #expect(next.clock.serial != holder.clock.serial)
    }
}
