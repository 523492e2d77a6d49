import Sightless
import Testing

// An `async` initializer handed no way back into the injector (no resolver, `Lazy`, `Factory`
// or injector among its arguments) can still reach it out of band, through a global. Its
// recursion must end in an `InjectionError`, as every recursion through a way the library
// handed out does, never grow until memory runs out: `tooDeep`, as a synchronous request
// asking a global injector for its own type ends, or `cyclicDependency` where a build that
// is recorded is asked for again.

private enum AwaitedRecursing {
    static let selfAskingInjector = RecursionHolder<Injector>()

    /// Asks a global injector, with `await`, for its own type.
    final class SelfAsking: Injectable, Sendable {
        init() async throws {
            _ = try await AwaitedRecursing.selfAskingInjector.value?.instance(SelfAsking.self)
        }
        static let initializer = Initializer(SelfAsking.init)
    }

    static let leafInjector = RecursionHolder<Injector>()

    /// Built under `Root`; asks a global injector, with `await`, for itself.
    final class AskingLeaf: Injectable, Sendable {
        init(config: Config) async throws {
            _ = try await AwaitedRecursing.leafInjector.value?.instance(AskingLeaf.self)
        }
        static let initializer = Initializer(AskingLeaf.init(config:))
    }

    final class Config: Injectable, Sendable {
        init() {}
        static let initializer = Initializer(Config.init)
    }

    /// Needs `await` only because of the leaf it builds at once.
    final class Root: Injectable, Sendable {
        let leaf: AskingLeaf
        init(leaf: AskingLeaf) { self.leaf = leaf }
        static let initializer = Initializer(Root.init(leaf:))
    }

    static let rootAskingInjector = RecursionHolder<Injector>()

    /// Built under `AskedRoot`; asks a global injector, with `await`, for the root.
    final class RootAskingLeaf: Injectable, Sendable {
        init() async throws {
            _ = try await AwaitedRecursing.rootAskingInjector.value?.instance(AskedRoot.self)
        }
        static let initializer = Initializer(RootAskingLeaf.init)
    }

    final class AskedRoot: Injectable, Sendable {
        let leaf: RootAskingLeaf
        init(leaf: RootAskingLeaf) { self.leaf = leaf }
        static let initializer = Initializer(AskedRoot.init(leaf:))
    }
}

/// The kind of error an awaited request of `type` ends in, with `holder` holding its injector.
private func awaitedFailure<Value>(of type: Value.Type, through holder: RecursionHolder<Injector>) async throws -> InjectionError.Kind? {
    let injector = try Injector(modules: [])
    holder.value = injector
    defer { holder.value = nil }
    let error = await #expect(throws: InjectionError.self) { _ = try await injector.instance(Value.self) }
    return error?.kind
}

@Suite("Recursion of builds that await, through a global injector")
struct AwaitedGlobalRecursionTests {
    @Test("an async initializer asking a global injector for its own type ends in tooDeep")
    func selfAsking() async throws {
        #expect(try await awaitedFailure(of: AwaitedRecursing.SelfAsking.self, through: AwaitedRecursing.selfAskingInjector) == .tooDeep)
    }

    @Test("an async leaf asking a global injector for its own type ends in tooDeep")
    func leafAsking() async throws {
        #expect(try await awaitedFailure(of: AwaitedRecursing.Root.self, through: AwaitedRecursing.leafInjector) == .tooDeep)
    }

    @Test("an async leaf asking a global injector for the type that builds it ends in tooDeep")
    func rootAsking() async throws {
        #expect(try await awaitedFailure(of: AwaitedRecursing.AskedRoot.self, through: AwaitedRecursing.rootAskingInjector) == .tooDeep)
    }

    @Test("an async singleton awaited by a request that builds is built, not taken for its own cycle")
    func singletonAwaitedAtTheTop() async throws {
        let injector = try Injector(Bindings { binder in
            binder.bind(Key<Int>(named: "opened")).to { _ async throws in 7 }.in(.singleton)
        })
        #expect(try await injector.instance(Key<Int>(named: "opened")) == 7)
        #expect(try await injector.instance(Key<Int>(named: "opened")) == 7)
    }
}
