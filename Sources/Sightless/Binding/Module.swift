/// A unit of configuration: it records where things come from, and builds nothing.
///
/// ```swift
/// struct NetworkModule: Module {
///     func configure(_ binder: Binder) {
///         binder.bind(Api.self).to(HttpApi.self).in(.singleton)
///         binder.bind(Key<String>(named: "endpoint")).to(instance: "https://example.com")
///     }
/// }
///
/// let injector = try Injector(modules: [NetworkModule()])
/// ```
///
/// Several modules combine; binding the same key in two of them is an error unless the second
/// is passed as an override (`Injector(modules:overrides:)`), which is how a test swaps a real
/// service for a fake. For bindings written in place, ``AnyModule`` takes a closure.
///
/// A module is `Sendable`, as the ``Injector`` it configures is, so a list of modules can be a
/// global constant shared by an app and its tests:
///
/// ```swift
/// let appModules: [any Module] = [NetworkModule(), StorageModule()]
/// ```
///
/// What a module holds is then `Sendable` too. A value that is not is created where the module
/// binds it, and a mutable fake that a test keeps to inspect replaces a binding in the closure of
/// ``Injector/init(modules:overriding:)`` or ``Injector/start(modules:overriding:)``, with
/// ``BindingBuilder/to(uncheckedInstance:)``.
public protocol Module: Sendable {
    /// Records this module's bindings.
    func configure(_ binder: Binder)
}

/// A module made of a closure that records its bindings: a module written in place, wherever a
/// list of modules or overrides is taken.
///
/// ```swift
/// let injector = try Injector(
///     modules: [AppModule()],
///     overrides: [AnyModule { $0.bind(TaskStore.self).to(instance: InMemoryTaskStore()) }])
/// ```
///
/// It serves every entry point that takes modules: ``Injector/init(modules:overrides:)``,
/// ``Injector/start(modules:overrides:)``, ``Injector/child(modules:overrides:)``
/// and `childTemplate(providing:modules:overrides:)`.
/// The closure is `@Sendable`, as a module is, and runs once, when the injector records its
/// modules.
public struct AnyModule: Module {
    let record: @Sendable (Binder) -> Void

    /// A module whose bindings `configure` records.
    ///
    /// ```swift
    /// let endpoints = AnyModule { binder in
    ///     binder.bind(Key<String>(named: "endpoint")).to(instance: "https://example.com")
    /// }
    /// ```
    public init(_ configure: @escaping @Sendable (Binder) -> Void) {
        record = configure
    }

    /// Records the bindings of the closure this module was made with.
    ///
    /// ```swift
    /// binder.install(AnyModule { $0.bind(Clock.self).to(instance: FixedClock()) })
    /// ```
    public func configure(_ binder: Binder) {
        record(binder)
    }
}
