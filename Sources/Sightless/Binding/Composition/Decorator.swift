/// A function recorded by ``Binder/decorate(_:fileID:line:_:)-(Value.Type,String,Int,(Value,Resolver)->Value)`` that wraps
/// every value of a key: applied when the key's node is linked, in declaration order, around
/// whatever provides the key (an override too), and inside the key's scope, so that a singleton
/// is decorated once.
struct Decorator: Sendable {
    let key: AnyKey
    let location: SourceLocation
    /// The typed body: a `Body<Value>` of the key's value type, or a `PlainBody<Value>` for a
    /// decorator that takes no resolver.
    private let body: any Sendable

    private final class Body<Value>: Sendable {
        let wrap: @Sendable (Value, Resolver) throws -> Value
        init(_ wrap: @escaping @Sendable (Value, Resolver) throws -> Value) { self.wrap = wrap }
    }

    private final class PlainBody<Value>: Sendable {
        let wrap: @Sendable (Value) throws -> Value
        init(_ wrap: @escaping @Sendable (Value) throws -> Value) { self.wrap = wrap }
    }

    init<Value>(_ key: Key<Value>, location: SourceLocation, wrap: @escaping @Sendable (Value, Resolver) throws -> Value) {
        self.key = key.erased
        self.location = location
        self.body = Body(wrap)
    }

    init<Value>(_ key: Key<Value>, location: SourceLocation, wrap: @escaping @Sendable (Value) throws -> Value) {
        self.key = key.erased
        self.location = location
        self.body = PlainBody(wrap)
    }

    /// The build `build`, its value handed to the decorator: a synchronous plan's as the plan
    /// returns it, an `async` build's once it is awaited.
    func decorate<Value>(_ build: LinkedBuild<Value>) throws(InjectionError) -> LinkedBuild<Value> {
        switch build {
        case .synchronous(let plan): .synchronous(try decorate(plan))
        case .awaited(let plan): .awaited(try decorateAwaited(plan, as: Value.self))
        }
    }

    /// The `async` build that gathers its arguments with `plan`, awaits its own build, then hands
    /// the value to the decorator in a synchronous section of its own, as a synchronous plan's
    /// value is handed to it.
    private func decorateAwaited<Value>(
        _ plan: @escaping Plan<AsyncBuild>, as type: Value.Type
    ) throws(InjectionError) -> Plan<AsyncBuild> {
        let key = key
        let apply = try applying(as: Value.self)
        let step: AsyncStep = { section, arguments in
            let inner = try AsyncBuild.arguments(arguments, as: AsyncBuild.self)
            let value = try Prefetched.cast(try await inner.awaited(in: section), key, as: Value.self)
            return try section.run { resolution in try apply(value, &resolution) }
        }
        return { resolution in AsyncBuild(step, arguments: try plan(&resolution)) }
    }

    /// The decorator's call on a value already built, in the request `resolution`: what
    /// `decorate(_:)` runs after its plan, written once for a value built with `await`.
    private func applying<Value>(as type: Value.Type) throws(InjectionError) -> @Sendable (Value, inout Resolution) throws -> Value {
        let key = key, location = location
        if let plain = body as? PlainBody<Value> {
            let wrap = plain.wrap
            return { value, _ in
                do {
                    return try wrap(value)
                } catch {
                    throw InjectionError.wrap(error, at: key, location: location)
                }
            }
        }
        guard let body = body as? Body<Value> else {
            throw InjectionError(.internalInconsistency(.nodeType(key: key, expected: AnyKey.name(of: Value.self))),
                                 path: [key], location: location)
        }
        let wrap = body.wrap
        let reentry = ReentryGuard()
        let rethrow: @Sendable (any Error) -> InjectionError = { error in
            InjectionError.wrap(error, at: key, location: location)
        }
        return { value, resolution in
            try reentry.enter(&resolution, key: key, rethrow: rethrow) { injector in
                try wrap(value, Resolver(injector: injector))
            }
        }
    }

    /// The plan that builds a value with `plan` and hands it to the decorator. A decorator that
    /// asks, through its resolver, for the key it decorates is reported as a cycle.
    func decorate<Value>(_ plan: @escaping Plan<Value>) throws(InjectionError) -> Plan<Value> {
        let key = key, location = location
        // Without a resolver, nothing can lead back into the injector: the plan is the
        // decorator's own call and nothing more.
        if let plain = body as? PlainBody<Value> {
            let wrap = plain.wrap
            return { resolution in
                let value = try plan(&resolution)
                do {
                    return try wrap(value)
                } catch {
                    throw InjectionError.wrap(error, at: key, location: location)
                }
            }
        }
        guard let body = body as? Body<Value> else {
            throw InjectionError(.internalInconsistency(.nodeType(key: key, expected: AnyKey.name(of: Value.self))),
                                 path: [key], location: location)
        }
        let wrap = body.wrap
        let reentry = ReentryGuard()
        let rethrow: @Sendable (any Error) -> InjectionError = { error in
            InjectionError.wrap(error, at: key, location: location)
        }
        return { resolution in
            let value = try plan(&resolution)
            return try reentry.enter(&resolution, key: key, rethrow: rethrow) { injector in
                try wrap(value, Resolver(injector: injector))
            }
        }
    }
}

extension Binder {
    /// Wraps every value of a type's key in another value of the same type: a logging, caching
    /// or retrying wrapper, the way to intercept calls without method swizzling.
    ///
    /// ```swift
    /// binder.bind(Api.self).to(HttpApi.self).in(.singleton)
    /// binder.decorate(Api.self) { api, resolver in LoggingApi(wrapping: api) }
    /// ```
    ///
    /// Decorators of one key apply in declaration order, the first innermost, around whatever
    /// provides the key, an override included, a binding built with `await` too (its value once
    /// it is awaited). They run inside the key's scope: a singleton is decorated once, an
    /// unscoped key on every request. Decorating a key that nothing binds
    /// (and that is no ``Injectable`` type) is an ``InjectionError/Kind/unusedDeclaration``
    /// error when the injector is built. So is a child's decorator of a key its parent binds:
    /// that value is the parent's, for the whole family; decorate it in the parent, or override
    /// the key in the child and decorate the override.
    public func decorate<Value>(
        _ type: Value.Type, fileID: String = #fileID, line: Int = #line,
        _ wrap: @escaping @Sendable (Value, Resolver) throws -> Value
    ) {
        decorate(Key<Value>(), fileID: fileID, line: line, wrap)
    }

    /// Wraps every value of a type's key in another value of the same type, with nothing else
    /// from the injector: the cheapest decorator, whose cost per value is its own call.
    ///
    /// ```swift
    /// binder.decorate(Api.self) { api in LoggingApi(wrapping: api) }
    /// ```
    ///
    /// It applies like ``decorate(_:fileID:line:_:)-(Value.Type,String,Int,(Value,Resolver)->Value)``, in declaration order
    /// with the others of the key, inside the key's scope.
    public func decorate<Value>(
        _ type: Value.Type, fileID: String = #fileID, line: Int = #line,
        _ wrap: @escaping @Sendable (Value) throws -> Value
    ) {
        record(.decorator(Decorator(Key<Value>(), location: SourceLocation(fileID: fileID, line: line), wrap: wrap)))
    }

    /// Wraps every value of a key in another value of the same type, with nothing else from the
    /// injector; see ``decorate(_:fileID:line:_:)-(Value.Type,String,Int,(Value,Resolver)->Value)``.
    ///
    /// ```swift
    /// binder.decorate(Key<String>(named: "greeting")) { text in text + "!" }
    /// ```
    public func decorate<Value>(
        _ key: Key<Value>, fileID: String = #fileID, line: Int = #line,
        _ wrap: @escaping @Sendable (Value) throws -> Value
    ) {
        record(.decorator(Decorator(key, location: SourceLocation(fileID: fileID, line: line), wrap: wrap)))
    }

    /// Wraps every value of a key in another value of the same type; see
    /// ``decorate(_:fileID:line:_:)-(Value.Type,String,Int,(Value,Resolver)->Value)``.
    ///
    /// ```swift
    /// binder.decorate(Key<String>(named: "greeting")) { text, _ in text + "!" }
    /// ```
    public func decorate<Value>(
        _ key: Key<Value>, fileID: String = #fileID, line: Int = #line,
        _ wrap: @escaping @Sendable (Value, Resolver) throws -> Value
    ) {
        record(.decorator(Decorator(key, location: SourceLocation(fileID: fileID, line: line), wrap: wrap)))
    }
}
