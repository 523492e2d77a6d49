/// Completes a binding begun by ``Binder/bind(_:fileID:line:)-(Value.Type,_,_)``: says what
/// the key is bound to.
///
/// ```swift
/// binder.bind(Key<String>(named: "endpoint")).to(instance: "https://example.com")
/// binder.bind(Api.self).to(HttpApi.self).in(.singleton)
/// binder.bind(Clock.self).to { _ in SystemClock() }
/// binder.bind(Database.self).to(provider: DatabaseProvider())
/// binder.bind(Cache.self).to(Initializer(MemoryCache.init(limit:), .named("cacheLimit")))
/// ```
public struct BindingBuilder<Value> {
    let binder: Binder
    let index: Int
    let key: Key<Value>
    let location: SourceLocation

    /// Binds the key to this instance; every request, on any thread, gets it.
    ///
    /// The value must be `Sendable`, since the injector hands it to every thread that asks.
    /// For a value that is not, but that you know to be safe to share (or that only one thread
    /// uses), bind it with ``to(uncheckedInstance:)``.
    ///
    /// ```swift
    /// binder.bind(Key<String>(named: "endpoint")).to(instance: "https://example.com")
    /// ```
    public func to(instance: Value) where Value: Sendable {
        binder.replace(at: index, with: .instance(key, instance, location: location))
    }

    /// Binds the key to an instance that is not `Sendable`; every request, on any thread, gets
    /// it. The escape hatch of ``to(instance:)``: by choosing it you promise that sharing the
    /// value across threads is safe, or that only one thread requests it.
    ///
    /// ```swift
    /// final class FakeApi: Api { var calls: [String] = [] }      // not Sendable
    /// binder.bind(Api.self).to(uncheckedInstance: FakeApi())     // a test that runs on one thread
    /// ```
    public func to(uncheckedInstance instance: Value) {
        binder.replace(at: index, with: .instance(key, instance, location: location))
    }

    /// Binds the key to a closure, called for every request (or once, in the singleton scope).
    /// The closure may resolve other keys through its ``Resolver``.
    ///
    /// ```swift
    /// binder.bind(Session.self).to { resolver in
    ///     Session(clock: try resolver.getInstance(Clock.self))
    /// }
    /// ```
    @discardableResult
    public func to(_ make: @escaping @Sendable (Resolver) throws -> Value) -> ScopedBindingBuilder<Value> {
        binder.replace(at: index, with: .closure(key, location: location, make: make))
        return scoped
    }

    /// Binds the key to a provider object, asked for every request (or once, in the singleton
    /// scope).
    ///
    /// ```swift
    /// binder.bind(Database.self).to(provider: DatabaseProvider()).in(.singleton)
    /// ```
    @discardableResult
    public func to<P: Provider>(provider: P) -> ScopedBindingBuilder<Value> where P.Value == Value {
        binder.replace(at: index, with: .provider(key, location: location, provider: provider))
        return scoped
    }

    /// Binds the key to another type's key: a request for this key gets what a request for the
    /// target gets. The target is typically an ``Injectable`` implementation of a protocol.
    ///
    /// The alias shares the target's scope (a singleton target gives the same instance through
    /// every alias); `.in(_:)` scopes the alias itself. Binding a type to itself builds it from
    /// its own initializer.
    ///
    /// ```swift
    /// binder.bind(Api.self).to(HttpApi.self)
    /// ```
    @discardableResult
    public func to<Target>(_ type: Target.Type) -> ScopedBindingBuilder<Value> {
        to(Key<Target>())
    }

    /// Binds the key to an ``Injectable`` type: a request for this key gets what a request for
    /// the type gets, as ``to(_:)-(Target.Type)`` binds any type. The type's conformance is
    /// known here, so the injector need not ask the runtime for it.
    ///
    /// ```swift
    /// binder.bind(Api.self).to(HttpApi.self)   // final class HttpApi: Api, Injectable
    /// ```
    @discardableResult
    public func to<Target: Injectable>(_ type: Target.Type) -> ScopedBindingBuilder<Value> {
        JustInTimeTypes.record(Target.self)
        return to(Key<Target>())
    }

    /// Binds the key to a ``MainActorInjectable`` type: a request for this key gets what a
    /// request for the type gets, as ``to(_:)-(Target.Type)`` binds any type. The type's
    /// conformance is known here, so the injector need not ask the runtime for it.
    ///
    /// ```swift
    /// binder.bind(FeedPresenting.self).to(FeedModel.self)   // @MainActor final class FeedModel
    /// ```
    @discardableResult
    public func to<Target: MainActorInjectable>(_ type: Target.Type) -> ScopedBindingBuilder<Value> {
        JustInTimeTypes.record(Target.self)
        return to(Key<Target>())
    }

    /// Binds the key to another key: a request for this key gets what a request for the target
    /// gets.
    ///
    /// ```swift
    /// binder.bind(Key<String>(named: "title")).to(Key<String>(named: "appName"))
    /// ```
    @discardableResult
    public func to<Target>(_ target: Key<Target>) -> ScopedBindingBuilder<Value> {
        if target.erased == key.erased {
            binder.replace(at: index, with: .untargeted(key, location: location))
        } else {
            binder.replace(at: index, with: .alias(key, to: target, location: location))
        }
        return scoped
    }

    /// Binds the key to an initializer: its arguments are injected like an ``Injectable``
    /// type's, and the graph validates them.
    ///
    /// ```swift
    /// binder.bind(Api.self).to(Initializer { (session: Session) in HttpApi(session: session) })
    /// ```
    @discardableResult
    public func to(_ initializer: Initializer<Value>) -> ScopedBindingBuilder<Value> {
        binder.replace(at: index, with: .initializer(key, initializer, location: location))
        return scoped
    }

    /// Scopes a binding left without a target, which builds an ``Injectable`` type from its own
    /// descriptors.
    ///
    /// ```swift
    /// binder.bind(Logger.self).in(.singleton)
    /// ```
    @discardableResult
    public func `in`(_ scope: Scope) -> ShutdownBindingBuilder<Value> {
        binder.setScope(scope, at: index)
        return ShutdownBindingBuilder(binder: binder, index: index)
    }

    var scoped: ScopedBindingBuilder<Value> {
        ScopedBindingBuilder(binder: binder, index: index)
    }
}

/// Sets the scope of a completed binding.
///
/// ```swift
/// binder.bind(Api.self).to(HttpApi.self).in(.singleton)
/// ```
public struct ScopedBindingBuilder<Value> {
    let binder: Binder
    let index: Int

    /// Keeps what the binding builds for as long as `scope` says: `.singleton` keeps one
    /// instance per injector.
    ///
    /// ```swift
    /// binder.bind(Api.self).to(HttpApi.self).in(.singleton)
    /// ```
    @discardableResult
    public func `in`(_ scope: Scope) -> ShutdownBindingBuilder<Value> {
        binder.setScope(scope, at: index)
        return ShutdownBindingBuilder(binder: binder, index: index)
    }
}

/// Says how the injector's shutdown closes the value a scoped binding kept: the way to close
/// another library's value (a client, a server, an event loop group) without making its type
/// ``Closable``.
///
/// ```swift
/// binder.bind(HTTPClient.self).to { _ in HTTPClient() }.in(.singleton).onShutdown { client in
///     try client.syncShutdown()
/// }
/// ```
///
/// The closer is called once per value the scope kept, with that value, when the injector that
/// keeps it shuts down: a singleton's when the injector does, a template's singleton's when
/// each child does. It takes the place of ``Closable``'s `close()`, in the same order: the
/// values an injector kept are closed newest first, whether a closer or their own `close()`
/// closes them, and a closer's error is reported like a `close()`'s, as
/// ``InjectionError/Kind/closeFailed``, without stopping the others.
///
/// Only a scope that keeps its value until shutdown (``Scope/singleton``,
/// ``Scope/eagerSingleton``, or a scope of your own that keeps one per injector) has a value to
/// close: a closer on a binding in another scope (``Scope/unscoped``, ``Scope/weak``,
/// ``Scope/perRequest``) is reported when the injector is built, as
/// ``InjectionError/Kind/scopeConflict``.
public struct ShutdownBindingBuilder<Value> {
    let binder: Binder
    let index: Int

    /// Closes the kept value with `close` when the injector that keeps it shuts down, in
    /// place of its own `close()`.
    ///
    /// ```swift
    /// binder.bind(HTTPClient.self).to { _ in HTTPClient() }.in(.singleton).onShutdown { client in
    ///     try client.syncShutdown()
    /// }
    /// ```
    ///
    /// Both ``Injector/shutDown()`` and ``Injector/awaitShutDown()`` call it.
    public func onShutdown(_ close: @escaping @Sendable (Value) throws -> Void) {
        binder.setCloser(ValueCloser(close), at: index)
    }

    /// Closes the kept value with `close`, which awaits, when the injector that keeps it shuts
    /// down with ``Injector/awaitShutDown()``, in place of its own `close()`.
    ///
    /// ```swift
    /// binder.bind(HTTPClient.self).to { _ in HTTPClient() }.in(.singleton).onShutdown { client async throws in
    ///     try await client.shutdown()
    /// }
    /// ```
    ///
    /// ``Injector/shutDown()``, which cannot await, leaves the value open, as it leaves an
    /// ``AsyncClosable`` value.
    public func onShutdown(_ close: @escaping @Sendable (Value) async throws -> Void) {
        binder.setCloser(ValueCloser(awaiting: close), at: index)
    }
}
