import Sightless
import Testing

private final class KindWidget: Injectable {
    static let initializer = Initializer(KindWidget.init)
}

private final class KindPair: Injectable {
    let first: KindWidget
    let second: KindWidget
    init(first: KindWidget, second: KindWidget) {
        self.first = first
        self.second = second
    }
    static let initializer = Initializer(KindPair.init(first:second:))
}

private final class KindHolder: Injectable {
    let widget: KindWidget
    init(widget: KindWidget) { self.widget = widget }
    static let initializer = Initializer(KindHolder.init(widget:))
}

private final class KindMaker: Injectable {
    let widgets: Factory<KindWidget>
    init(widgets: Factory<KindWidget>) { self.widgets = widgets }
    static let initializer = Initializer(KindMaker.init(widgets:))
}

private enum KindFailure: Error { case refused }

private final class KindEager: Injectable {
    nonisolated(unsafe) static var built = 0
    init() { KindEager.built += 1 }
    static let initializer = Initializer(KindEager.init)
}

/// What `EagerFirst` and `EagerSecond` were built in, for the one test that builds them.
private let eagerOrder = Locked<[String]>([])

private final class EagerFirst: Injectable {
    init() { eagerOrder.withLock { $0.append("first") } }
    static let initializer = Initializer(EagerFirst.init)
}

private final class EagerSecond: Injectable {
    init() { eagerOrder.withLock { $0.append("second") } }
    static let initializer = Initializer(EagerSecond.init)
}

private final class EagerUser: Injectable {
    init(second: EagerSecond) {}
    static let initializer = Initializer(EagerUser.init(second:))
}

@Suite("Scopes: weak, per request, eager")
struct ScopeKindsTests {
    @Test("a weak value is shared while someone holds it")
    func weakShared() throws {
        let injector = try Injector(Bindings { $0.bind(KindWidget.self).in(.weak) })
        let held = try injector.getInstance(KindWidget.self)
        #expect(try injector.getInstance(KindWidget.self) === held)
        #expect(try injector.getInstance(KindPair.self).first === held)
    }

    @Test("a weak value is built anew once nobody holds it")
    func weakRebuilt() throws {
        let injector = try Injector(Bindings { $0.bind(KindWidget.self).in(.weak) })
        weak var first: KindWidget?
        do { first = try injector.getInstance(KindWidget.self) }
        #expect(first == nil)
        let again = try injector.getInstance(KindWidget.self)
        #expect(try injector.getInstance(KindWidget.self) === again)
    }

    @Test("a per-request value is one instance within a request and a new one for the next")
    func perRequest() throws {
        let injector = try Injector(Bindings { $0.bind(KindWidget.self).in(.perRequest) })
        let pair = try injector.getInstance(KindPair.self)
        #expect(pair.first === pair.second)
        #expect(try injector.getInstance(KindPair.self).first !== pair.first)
    }

    @Test("an eager singleton is built when the injector is")
    func eagerBuiltAtCreation() throws {
        let before = KindEager.built
        let injector = try Injector(Bindings { $0.bind(KindEager.self).in(.eagerSingleton) })
        #expect(KindEager.built == before + 1)
        _ = try injector.getInstance(KindEager.self)
        #expect(KindEager.built == before + 1)
    }

    @Test("eager singletons are built in the order they are bound, whatever an earlier binding needs")
    func eagerBuiltInBoundOrder() throws {
        _ = try Injector(Bindings { binder in
            binder.bind(EagerUser.self)   // needs the second, and is bound before either
            binder.bind(EagerFirst.self).in(.eagerSingleton)
            binder.bind(EagerSecond.self).in(.eagerSingleton)
        })
        #expect(eagerOrder.withLock { $0 } == ["first", "second"])
    }

    @Test("an eager singleton that fails is reported when the injector is built")
    func eagerFailureAtCreation() {
        let error = #expect(throws: InjectionError.self) {
            _ = try Injector(Bindings { binder in
                binder.bind(Key<Int>(named: "port")).to { _ in throw KindFailure.refused }.in(.eagerSingleton)
            })
        }
        #expect(error?.kind == .initializerFailed)
        #expect(error?.underlying is KindFailure)
    }

    @Test("a singleton holding a per-request value is rejected with the path")
    func captivePerRequest() {
        let error = #expect(throws: InjectionError.self) {
            _ = try Injector(Bindings { binder in
                binder.bind(KindWidget.self).in(.perRequest)
                binder.bind(KindHolder.self).in(.singleton)
            })
        }
        guard case .captiveDependency(let key, _, let dependency, let dependencyScope)? = error?.problems.first?.detail else {
            Issue.record("expected captiveDependency, got \(String(describing: error))")
            return
        }
        #expect(key == Key<KindHolder>().erased)
        #expect(dependency == Key<KindWidget>().erased)
        #expect(dependencyScope == "per request")
        #expect(error?.path == [Key<KindHolder>().erased, Key<KindWidget>().erased])
    }

    @Test("a singleton holding a weak value is rejected")
    func captiveWeak() {
        let error = #expect(throws: InjectionError.self) {
            _ = try Injector(Bindings { binder in
                binder.bind(KindWidget.self).in(.weak)
                binder.bind(KindHolder.self).in(.singleton)
            })
        }
        #expect(error?.kind == .scopeConflict)
    }

    @Test("a singleton may make per-request values through a Factory")
    func factoryIsNotCaptive() throws {
        let injector = try Injector(Bindings { binder in
            binder.bind(KindWidget.self).in(.perRequest)
            binder.bind(KindMaker.self).in(.singleton)
        })
        let maker = try injector.getInstance(KindMaker.self)
        #expect(try maker.widgets.make() !== (try maker.widgets.make()))
    }
}
