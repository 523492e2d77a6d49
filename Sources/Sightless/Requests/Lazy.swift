/// A dependency built on first use rather than before its consumer, then kept.
///
/// Inject `Lazy<T>` where `T` is costly and not always needed, or where two types need each
/// other: a `Lazy` edge may close a dependency cycle, since nothing is built until ``get()``.
///
/// ```swift
/// final class ReportScreen: Injectable {
///     let exporter: Lazy<PdfExporter>
///     init(exporter: Lazy<PdfExporter>) { self.exporter = exporter }
///     static let initializer = Initializer(ReportScreen.init(exporter:))
///
///     func export() throws { try exporter.get().export() }   // built here, once
/// }
/// ```
///
/// The first ``get()`` resolves `T` (its binding, or just in time) and keeps the result, so
/// every later call returns the same value, also when several threads call at once. For a new
/// instance on every call, inject a ``Factory`` instead. A value a scope keeps (a singleton, a
/// child's singleton, a weak value) is the scope's to keep: each call asks the injector, which
/// returns the one its scope keeps, so the `Lazy` never keeps it alive longer than the scope.
///
/// A `Lazy` works for as long as it is reachable: it keeps its injector alive, so an object
/// built for one request may keep using it after every other reference to the injector is
/// gone. The one exception avoids a cycle: a `Lazy` given to a value its injector keeps for its
/// whole life (a singleton, an eager singleton) holds the injector weakly, since the injector
/// holds that value; once the injector is released, a first `get()` there throws
/// ``InjectionError/Kind/injectorReleased``, and after ``Injector/shutDown()``,
/// ``InjectionError/Kind/injectorShutDown``. So releasing every outside reference to an
/// injector and to what it built frees all of it.
///
/// A `Lazy` keeps what it built for as long as the `Lazy` lives. When that value holds the
/// `Lazy`'s owner strongly (`ReportScreen` gets a `PdfExporter` that holds the `ReportScreen`),
/// the two keep each other alive, like any two objects that hold each other: hold one side
/// weakly.
public final class Lazy<Value>: Sendable {
    /// The injector, held strongly unless the `Lazy` was given to a value the injector keeps
    /// for its whole life.
    let strong: Injector?
    weak let weak: Injector?
    let key: AnyKey
    let storage: InstanceStorage
    /// What makes the value of a `Lazy` made in code (``init(_:)``); `nil` for an injected one.
    let made: MadeValue<Value>?
    /// The injector, while it lives.
    var injector: Injector? { strong ?? weak }

    init(injector: Injector, key: AnyKey, weakly: Bool) {
        self.strong = weakly ? nil : injector
        self.weak = weakly ? injector : nil
        self.key = key
        self.storage = InstanceStorage(key)
        self.made = nil
    }

    /// A `Lazy` whose value `make` makes, on the first ``get()`` (or ``value``), and which then
    /// returns that one value on every call, as an injected `Lazy` does; no injector is
    /// involved. For a test, or a preview, that hands a type a fake of what it would be
    /// injected:
    ///
    /// ```swift
    /// let screen = ReportScreen(exporter: Lazy { FakeExporter() })
    /// ```
    ///
    /// `make` runs once; two threads calling ``get()`` at the same time before it has returned
    /// may both run it, and both receive the value made first. An error it throws is thrown
    /// by ``get()`` as an ``InjectionError`` of kind ``InjectionError/Kind/initializerFailed``
    /// (one it throws as an ``InjectionError`` keeps its kind, with the value's type first on
    /// its path), and the next call runs it again.
    public init(_ make: @escaping @Sendable () throws -> Value) {
        self.strong = nil
        self.weak = nil
        self.key = AnyKey(type: Value.self, name: nil)
        self.storage = InstanceStorage(key)
        self.made = MadeValue(make)
    }

    /// The value: built on the first call, then the same one on every call.
    ///
    /// ```swift
    /// let exporter = try lazyExporter.get()
    /// ```
    ///
    /// - Throws: an ``InjectionError`` when building the value fails (the next call tries
    ///   again), or when the injector has been released before the first call.
    public func get() throws(InjectionError) -> Value {
        if let value = storage.existing(as: Value.self) { return value }
        if let made { return try made.value(key) }
        guard let injector = strong ?? weak else {
            throw InjectionError(.injectorReleased(key: key, wrapper: "Lazy<\(key.typeName)>"), path: [key])
        }
        let node = try injector.compiledNode(Value.self, name: key.name)
        if let value = node.storage?.existing(as: Value.self), injector.isServing { return value }
        // A value a scope keeps is the scope's to keep: kept here too, a value holding a `Lazy`
        // of itself would keep itself alive, and a child's value would outlive the child.
        if node.meaning.owner != .none { return try injector.run(node) }
        let storage = storage
        let plan = node.plan
        guard strong == nil else {
            return try injector.run(node, plan: { resolution in try storage.instance(&resolution, build: plan) })
        }
        // What it builds is kept by a value the injector keeps: built for that injector, so it
        // holds the injector weakly in turn.
        return try injector.run(node, plan: { resolution in
            let enclosing = resolution.keeper
            resolution.keeper = Keeper(injector, weakly: true)
            defer { resolution.keeper = enclosing }
            return try storage.instance(&resolution, build: plan)
        })
    }
}

extension Lazy: DeferredDependency {
    static var targetType: Any.Type { Value.self }
    static var factoryArguments: [Any.Type]? { nil }

    static func deferredPlan(for dependency: Dependency) -> Any {
        let key = dependency.deferredKey ?? dependency.key
        let plan: Plan<Lazy<Value>> = { resolution in
            // Its get() may run while the consumer is built: it continues this request.
            _ = resolution.publishFrame()
            return Lazy(injector: resolution.handedInjector, key: key, weakly: resolution.keeper?.weakly ?? false)
        }
        return plan
    }
}

extension Lazy: RequestedWrapper {
    static func requestRecipe(name: String?) -> Recipe {
        .wrapper(Key<Lazy<Value>>(named: name))
    }
}

/// The value of a `Lazy` made in code: made by its closure on first use, then kept.
final class MadeValue<Value>: Sendable {
    private let make: @Sendable () throws -> Value
    /// The value once made; read and written only under its lock.
    private let made = Locked<Value?>(nil)

    init(_ make: @escaping @Sendable () throws -> Value) {
        self.make = make
    }

    /// The value: the one made first, made now if none was. `make` runs outside the lock, so
    /// that it may use the `Lazy` it belongs to without waiting for itself.
    func value(_ key: AnyKey) throws(InjectionError) -> Value {
        if let value = made.withLock({ $0 }) { return value }
        let value: Value
        do {
            value = try make()
        } catch {
            throw InjectionError.wrap(error, at: key)
        }
        return made.withLock { stored in
            if let first = stored { return first }
            stored = value
            return value
        }
    }
}
