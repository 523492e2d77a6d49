import Sightless
import Testing

// Decorators and observers apply to a value built with `await` exactly as to one built
// synchronously: whatever the binding kind, on every path that reaches the value, a kept value
// decorated and reported once.

/// A value that records what wrapped it.
private final class Labelled: Sendable {
    let tags: [String]
    init(tags: [String] = []) { self.tags = tags }
    func adding(_ tag: String) -> Labelled { Labelled(tags: tags + [tag]) }
}

private struct LabelledProvider: AsyncProvider {
    func provide(_ resolver: Resolver) async throws -> Labelled {
        await Task.yield()
        return Labelled(tags: ["provided"])
    }
}

/// Opens with `await`.
private final class Opened: Injectable, Sendable {
    let tags: [String]
    init() async {
        await Task.yield()
        tags = []
    }
    init(tags: [String]) { self.tags = tags }
    static let initializer = Initializer(Opened.init as @Sendable () async -> Opened)
}

/// Opens with `await`, from a creation-time argument.
private final class Named: Injectable, Sendable {
    let name: String
    let tags: [String]
    init(name: String) async {
        await Task.yield()
        self.name = name
        tags = []
    }
    init(name: String, tags: [String]) {
        self.name = name
        self.tags = tags
    }
    static let initializer = Initializer(Named.init(name:) as @Sendable (String) async -> Named, .dynamic)
}

/// Isolated to the main actor, opened with `await`.
@MainActor
private final class MainOpened: MainActorInjectable {
    nonisolated let tags: [String]
    init() async {
        await Task.yield()
        tags = []
    }
    nonisolated init(tags: [String]) { self.tags = tags }
    static let initializer = Initializer(MainOpened.init as @MainActor () async -> MainOpened)
}

/// Isolated to the main actor, built synchronously there.
@MainActor
private final class MainBuilt: MainActorInjectable {
    nonisolated let tags: [String]
    init() { tags = [] }
    nonisolated init(tags: [String]) { self.tags = tags }
    static let initializer = Initializer(MainBuilt.init as @MainActor () -> MainBuilt)
}

/// Needs a value that needs `await`.
private final class Holder: Injectable, Sendable {
    let tagged: Labelled
    init(tagged: Labelled) { self.tagged = tagged }
    static let initializer = Initializer(Holder.init(tagged:))
}

/// Needs a value that needs `await` through one built at once.
private final class Outer: Injectable, Sendable {
    init(holder: Holder) {}
    static let initializer = Initializer(Outer.init(holder:))
}

/// Awaits its own build, and needs a value that needs `await` through one built at once.
private final class AsyncOuter: Injectable, Sendable {
    init(holder: Holder) async { await Task.yield() }
    static let initializer = Initializer(AsyncOuter.init(holder:) as @Sendable (Holder) async -> AsyncOuter)
}

/// A second value built with `await`.
private final class Other: Sendable {}

/// Needs two values built with `await`.
private final class Pair: Injectable, Sendable {
    init(labelled: Labelled, other: Other) {}
    static let initializer = Initializer(Pair.init(labelled:other:))
}

/// Lets each of two builds go on only once the other has started, or fails after 10 s of its
/// own running (`PatientDeadline`).
private final class Rendezvous: Sendable {
    private let arrived = Locked(0)

    func arrive() async throws {
        arrived.withLock { $0 += 1 }
        var deadline = PatientDeadline(after: .seconds(10))
        while arrived.withLock({ $0 }) < 2 {
            if deadline.hasPassed() { throw OpenError.refused("the other build never started") }
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}

@discardableResult
private func asyncLabelled(_ binder: Binder) -> ScopedBindingBuilder<Labelled> {
    binder.bind(Labelled.self).to { _ async in
        await Task.yield()
        return Labelled()
    }
}

@Suite("Decorators and observers of values built with await")
struct AwaitedCompositionTests {
    @Test("a decorator wraps the value of an async closure binding")
    func decoratesAsyncClosure() async throws {
        let injector = try Injector(Bindings { binder in
            asyncLabelled(binder)
            binder.decorate(Labelled.self) { $0.adding("logged") }
        })
        #expect(try await injector.instance(Labelled.self).tags == ["logged"])
    }

    @Test("a decorator wraps the value of an async provider binding")
    func decoratesAsyncProvider() async throws {
        let injector = try Injector(Bindings { binder in
            binder.bind(Labelled.self).to(provider: LabelledProvider())
            binder.decorate(Labelled.self) { $0.adding("logged") }
        })
        #expect(try await injector.instance(Labelled.self).tags == ["provided", "logged"])
    }

    @Test("a decorator wraps the value of a type whose initializer is async")
    func decoratesAsyncInitializer() async throws {
        let injector = try Injector(Bindings { binder in
            binder.decorate(Opened.self) { Opened(tags: $0.tags + ["logged"]) }
        })
        #expect(try await injector.instance(Opened.self).tags == ["logged"])
    }

    @Test("a decorator wraps the value of a main-actor type whose initializer is async")
    func decoratesMainActorAsyncInitializer() async throws {
        let injector = try Injector(Bindings { binder in
            binder.decorate(MainOpened.self) { MainOpened(tags: $0.tags + ["logged"]) }
        })
        #expect(try await injector.instance(MainOpened.self).tags == ["logged"])
    }

    @Test("a decorator wraps the value of a main-actor type awaited from off the main actor")
    func decoratesMainActorType() async throws {
        let injector = try Injector(Bindings { binder in
            binder.decorate(MainBuilt.self) { MainBuilt(tags: $0.tags + ["logged"]) }
        })
        let tags = try await Task.detached { try await injector.instance(MainBuilt.self).tags }.value
        #expect(tags == ["logged"])
    }

    @Test("a decorator with a resolver wraps the value of an async closure binding")
    func decoratesWithResolver() async throws {
        let injector = try Injector(Bindings { binder in
            asyncLabelled(binder)
            binder.bind(Key<String>(named: "tag")).to(instance: "resolved")
            binder.decorate(Labelled.self) { tagged, resolver in
                tagged.adding(try resolver.getInstance(Key<String>(named: "tag")))
            }
        })
        #expect(try await injector.instance(Labelled.self).tags == ["resolved"])
    }

    @Test("decorators of an async binding apply in declaration order, the first innermost")
    func decoratorOrder() async throws {
        let injector = try Injector(Bindings { binder in
            asyncLabelled(binder)
            binder.decorate(Labelled.self) { $0.adding("first") }
            binder.decorate(Labelled.self) { $0.adding("second") }
        })
        #expect(try await injector.instance(Labelled.self).tags == ["first", "second"])
    }

    @Test("an async singleton is decorated once however many tasks await it")
    func singletonDecoratedOnce() async throws {
        let decorations = Locked(0)
        let injector = try Injector(Bindings { binder in
            asyncLabelled(binder).in(.singleton)
            binder.decorate(Labelled.self) { tagged in
                decorations.withLock { $0 += 1 }
                return tagged.adding("logged")
            }
        })
        let values = try await withThrowingTaskGroup(of: Labelled.self) { group in
            for _ in 0..<20 { group.addTask { try await injector.instance(Labelled.self) } }
            var values: [Labelled] = []
            for try await value in group { values.append(value) }
            return values
        }
        #expect(Set(values.map(ObjectIdentifier.init)).count == 1)
        #expect(values.first?.tags == ["logged"])
        #expect(decorations.withLock { $0 } == 1)
        #expect(try injector.getInstance(Labelled.self) === values.first)
    }

    @Test("an unscoped async value is decorated on every request")
    func unscopedDecoratedEachTime() async throws {
        let decorations = Locked(0)
        let injector = try Injector(Bindings { binder in
            asyncLabelled(binder)
            binder.decorate(Labelled.self) { tagged in
                decorations.withLock { $0 += 1 }
                return tagged.adding("logged")
            }
        })
        _ = try await injector.instance(Labelled.self)
        _ = try await injector.instance(Labelled.self)
        #expect(decorations.withLock { $0 } == 2)
    }

    @Test("a value that needs an async dependency receives it decorated")
    func dependencyDecorated() async throws {
        let injector = try Injector(Bindings { binder in
            asyncLabelled(binder)
            binder.decorate(Labelled.self) { $0.adding("logged") }
        })
        #expect(try await injector.instance(Holder.self).tagged.tags == ["logged"])
    }

    @Test("Lazy.value gives the decorated value of an async binding")
    func lazyValueDecorated() async throws {
        let injector = try Injector(Bindings { binder in
            asyncLabelled(binder)
            binder.decorate(Labelled.self) { $0.adding("logged") }
        })
        let lazy = try injector.getInstance(Lazy<Labelled>.self)
        #expect(try await lazy.value.tags == ["logged"])
    }

    @Test("Factory.instance gives the decorated value of an async initializer")
    func factoryInstanceDecorated() async throws {
        let injector = try Injector(Bindings { binder in
            binder.decorate(Named.self) { Named(name: $0.name, tags: $0.tags + ["logged"]) }
        })
        let factory = try injector.getInstance(Factory<Named, String>.self)
        let named = try await factory.instance("ada")
        #expect(named.name == "ada")
        #expect(named.tags == ["logged"])
    }

    @Test("an eager async singleton is decorated when Injector.start builds it")
    func eagerDecorated() async throws {
        let injector = try await Injector.start(modules: [Bindings { binder in
            asyncLabelled(binder).in(.eagerSingleton)
            binder.decorate(Labelled.self) { $0.adding("logged") }
        }])
        #expect(try injector.getInstance(Labelled.self).tags == ["logged"])
    }

    @Test("an observer hears of the build of an async closure binding, with its key and scope")
    func observesAsyncClosure() async throws {
        let events = Locked<[InstanceEvent]>([])
        let injector = try Injector(Bindings { binder in
            asyncLabelled(binder)
            binder.observe { event in events.withLock { $0.append(event) } }
        })
        _ = try await injector.instance(Labelled.self)
        #expect(events.withLock { $0.map(\.key) } == [Key<Labelled>().erased])
        #expect(events.withLock { $0.map(\.scope) } == [.unscoped])
        #expect(events.withLock { $0.map(\.path) } == [[Key<Labelled>().erased]])
    }

    @Test("an observer hears of the build of a type whose initializer is async")
    func observesAsyncInitializer() async throws {
        let events = Locked<[InstanceEvent]>([])
        let injector = try Injector(Bindings { binder in
            binder.observe { event in events.withLock { $0.append(event) } }
        })
        _ = try await injector.instance(Opened.self)
        #expect(events.withLock { $0.map(\.key) } == [Key<Opened>().erased])
    }

    @Test("an observer hears of the build of a main-actor type whose initializer is async")
    func observesMainActorAsyncInitializer() async throws {
        let events = Locked<[InstanceEvent]>([])
        let injector = try Injector(Bindings { binder in
            binder.observe { event in events.withLock { $0.append(event) } }
        })
        _ = try await injector.instance(MainOpened.self)
        #expect(events.withLock { $0.map(\.key) } == [Key<MainOpened>().erased])
    }

    @Test("an observer hears of an async singleton once")
    func observesSingletonOnce() async throws {
        let events = Locked<[InstanceEvent]>([])
        let injector = try Injector(Bindings { binder in
            asyncLabelled(binder).in(.singleton)
            binder.observe { event in events.withLock { $0.append(event) } }
        })
        _ = try await injector.instance(Labelled.self)
        _ = try await injector.instance(Labelled.self)
        #expect(events.withLock { $0.map(\.scope) } == [.singleton])
    }

    @Test("an observer hears of an async value built as a dependency and of its consumer")
    func observesAsyncDependency() async throws {
        let events = Locked<[InstanceEvent]>([])
        let injector = try Injector(Bindings { binder in
            asyncLabelled(binder)
            binder.observe { event in events.withLock { $0.append(event) } }
        })
        _ = try await injector.instance(Holder.self)
        #expect(events.withLock { $0.map(\.key) } == [Key<Labelled>().erased, Key<Holder>().erased])
    }

    @Test("an observer hears of an async dependency with the path from the value requested, as of a synchronous one")
    func observedDependencyPath() async throws {
        let events = Locked<[InstanceEvent]>([])
        let injector = try Injector(Bindings { binder in
            asyncLabelled(binder)
            binder.observe { event in events.withLock { $0.append(event) } }
        })
        _ = try await injector.instance(Outer.self)
        #expect(events.withLock { $0.map { $0.path.map(\.typeName) } }
            == [["Outer", "Holder", "Labelled"], ["Outer", "Holder"], ["Outer"]])
    }

    @Test("an observer hears of what an async build needs with the path through that build")
    func observedPathThroughAsyncBuild() async throws {
        let events = Locked<[InstanceEvent]>([])
        let injector = try Injector(Bindings { binder in
            asyncLabelled(binder)
            binder.observe { event in events.withLock { $0.append(event) } }
        })
        _ = try await injector.instance(AsyncOuter.self)
        #expect(events.withLock { $0.map { $0.path.map(\.typeName) } }
            == [["AsyncOuter", "Holder", "Labelled"], ["AsyncOuter", "Holder"], ["AsyncOuter"]])
    }

    @Test("with an observer, the async dependencies of one initializer are still built at the same time")
    func observedDependenciesConcurrent() async throws {
        let rendezvous = Rendezvous()
        let events = Locked<[InstanceEvent]>([])
        let injector = try Injector(Bindings { binder in
            binder.bind(Labelled.self).to { _ async throws in
                try await rendezvous.arrive()
                return Labelled()
            }
            binder.bind(Other.self).to { _ async throws in
                try await rendezvous.arrive()
                return Other()
            }
            binder.observe { event in events.withLock { $0.append(event) } }
        })
        _ = try await injector.instance(Pair.self)
        #expect(Set(events.withLock { $0.map { $0.path.map(\.typeName) } })
            == [["Pair", "Labelled"], ["Pair", "Other"], ["Pair"]])
    }

    @Test("an observer hears of an async value after its decorators ran, as of a synchronous one")
    func observedAfterDecorators() async throws {
        let order = Locked<[String]>([])
        let injector = try Injector(Bindings { binder in
            asyncLabelled(binder)
            binder.decorate(Labelled.self) { tagged in
                order.withLock { $0.append("decorated") }
                return tagged
            }
            binder.observe { _ in order.withLock { $0.append("observed") } }
        })
        _ = try await injector.instance(Labelled.self)
        #expect(order.withLock { $0 } == ["decorated", "observed"])
    }

    @Test("an observer hears of an eager async singleton built by Injector.start")
    func observesEager() async throws {
        let events = Locked<[InstanceEvent]>([])
        _ = try await Injector.start(modules: [Bindings { binder in
            asyncLabelled(binder).in(.eagerSingleton)
            binder.observe { event in events.withLock { $0.append(event) } }
        }])
        #expect(events.withLock { $0.map(\.key) } == [Key<Labelled>().erased])
    }

    @Test("an observer hears of the build of an async value reached through Lazy.value")
    func observesLazyValue() async throws {
        let events = Locked<[InstanceEvent]>([])
        let injector = try Injector(Bindings { binder in
            asyncLabelled(binder)
            binder.observe { event in events.withLock { $0.append(event) } }
        })
        _ = try await injector.getInstance(Lazy<Labelled>.self).value
        #expect(events.withLock { $0.map(\.key) } == [Key<Labelled>().erased])
    }
}
