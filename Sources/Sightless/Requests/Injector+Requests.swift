extension Injector {
    /// Builds an injector from modules, and from overrides that replace some of their bindings.
    ///
    /// ```swift
    /// // In a test: the real modules, with the network swapped for a fake.
    /// let injector = try Injector(modules: [AppModule()], overrides: [FakeNetworkModule()])
    /// ```
    ///
    /// - Throws: an ``InjectionError`` listing every problem of the graph: missing bindings,
    ///   cycles, duplicate bindings, types with dynamic arguments injected as dependencies, and
    ///   more.
    public convenience init(modules: [any Module], overrides: [any Module] = []) throws(InjectionError) {
        let (nodes, compilation) = try GraphCompilation.build(modules: modules, overrides: overrides)
        self.init(nodes: nodes, compilation: compilation)
        try buildEagerValues()
    }

    /// Builds the values of eager scopes, dependencies first, and reports every failure
    /// together.
    func buildEagerValues() throws(InjectionError) {
        guard let eager = graphCompilation?.eager, !eager.isEmpty else { return }
        var problems: [InjectionError.Problem] = []
        for node in eager {
            do throws(InjectionError) {
                try node.prime(self)
            } catch {
                problems += error.problems
            }
        }
        if let error = InjectionError(problems: problems) { throw error }
    }

    /// Builds an injector from modules, with the bindings `overrides` records replacing theirs:
    /// the one-line way to swap a dependency in a test. The overrides are validated like any
    /// module.
    ///
    /// ```swift
    /// let injector = try Injector(modules: [AppModule()]) { $0.bind(TaskStore.self).to(instance: InMemoryTaskStore()) }
    /// ```
    public convenience init(modules: [any Module], overriding overrides: (Binder) -> Void) throws(InjectionError) {
        let (nodes, compilation) = try GraphCompilation.build(modules: modules, overrides: [], recordingOverrides: overrides)
        self.init(nodes: nodes, compilation: compilation)
        try buildEagerValues()
    }

    /// Builds an injector from modules.
    ///
    /// ```swift
    /// let injector = try Injector(AppModule(), NetworkModule())
    /// ```
    public convenience init(_ modules: any Module...) throws(InjectionError) {
        try self.init(modules: modules)
    }

    // MARK: - Requests

    /// The instance for a type: its binding, or a new instance built from its ``Injectable``
    /// descriptors.
    ///
    /// ```swift
    /// let feed = try injector.getInstance(FeedService.self)
    /// ```
    ///
    /// `T?`, `Lazy<T>` and `Factory<T, …>` may be requested like any dependency: `nil` when
    /// nothing can build `T`, and a `Lazy` or `Factory` of `T` otherwise. Nested optionals
    /// unwrap one level at a time: with `Int` bound to 7, `getInstance(Int??.self)` is
    /// `.some(.some(7))`; with nothing bound, `Int?` is built as `nil`, so `Int??` is `.some(nil)`.
    @inlinable @inline(__always)
    public func getInstance<Value: SendableMetatype>(_ type: Value.Type) throws(InjectionError) -> Value {
        try request(Value.self, name: nil)
    }

    /// The instance for a type whose metatype is not `Sendable` (a protocol of a target isolated
    /// to the main actor by default, say), in the caller's isolation.
    ///
    /// ```swift
    /// @MainActor func signIn(_ injector: Injector) throws {
    ///     let session = try injector.getInstance((any Session).self)
    ///     Task { @MainActor in session.refresh() }
    /// }
    /// ```
    ///
    /// Swift keeps such a value where its type's conformances may be used: this form runs in
    /// the caller's isolation (`isolation`, which the caller never writes), so the value is
    /// the caller's as any value it made is. A main-actor caller may capture it in a main-actor
    /// closure; sending it to another actor or task is refused unless its type is `Sendable`,
    /// since a kept value is shared with every other request. Otherwise the same as
    /// ``getInstance(_:)-(Value.Type)``.
    @inlinable @inline(__always)
    public func getInstance<Value>(
        _ type: Value.Type, isolation: isolated (any Actor)? = #isolation
    ) throws(InjectionError) -> Value {
        try request(Value.self, name: nil)
    }

    /// The instance for a key.
    ///
    /// ```swift
    /// let endpoint = try injector.getInstance(Key<String>(named: "endpoint"))
    /// ```
    @inlinable @inline(__always)
    public func getInstance<Value>(_ key: Key<Value>) throws(InjectionError) -> Value {
        try request(Value.self, name: key.name)
    }

    /// A new instance of a type whose initializer has dynamic (`.dynamic`) arguments, filled in
    /// order from `arguments`.
    ///
    /// ```swift
    /// // static let initializer = Initializer(Screen.init(feed:title:), .inject, .dynamic)
    /// let screen = try injector.getInstance(Screen.self, arguments: "Inbox")
    /// ```
    ///
    /// Each argument must be of its slot's type (or convertible to it, as a `String` is to
    /// `String?`); pass `nil` for an optional slot as a typed value, e.g. `String?.none`.
    ///
    /// The value is the caller's, in its isolation (`isolation`, which the caller never writes),
    /// as with `getInstance(_:isolation:)`.
    ///
    /// - Throws: ``InjectionError/Kind/argumentCount`` or ``InjectionError/Kind/argumentType``,
    ///   naming the slot, when the arguments do not match the slots.
    @inlinable
    public func getInstance<Value, each Argument>(
        _ type: Value.Type, arguments: repeat each Argument, isolation: isolated (any Actor)? = #isolation
    ) throws(InjectionError) -> Value {
        try requestPlacing(Value.self, name: nil, arguments: repeat each arguments)
    }

    /// A new instance for a key whose initializer has dynamic arguments, filled in order from
    /// `arguments`.
    ///
    /// ```swift
    /// let screen = try injector.getInstance(Key<Screen>(named: "compact"), arguments: "Inbox")
    /// ```
    @inlinable
    public func getInstance<Value, each Argument>(
        _ key: Key<Value>, arguments: repeat each Argument
    ) throws(InjectionError) -> Value {
        try requestPlacing(Value.self, name: key.name, arguments: repeat each arguments)
    }

    /// Sets the ``Injectable/properties`` of a value made elsewhere, then calls its
    /// ``Injectable/awakeFromInjection()``.
    ///
    /// ```swift
    /// var settings = Settings(from: file)
    /// try injector.inject(into: &settings)
    /// ```
    public func inject<Value: Injectable>(into instance: inout Value) throws(InjectionError) {
        let members = try getInstance(MemberInjector<Value>.self)
        try perform(for: Key<Value>().erased) { resolution in try members.inject(&instance, &resolution) }
    }

    /// Sets the ``Injectable/properties`` of an object made elsewhere, then calls its
    /// ``Injectable/awakeFromInjection()``.
    ///
    /// ```swift
    /// let controller = DetailController(nibName: nil)
    /// try injector.inject(into: controller)
    /// ```
    public func inject<Value: Injectable & AnyObject>(into instance: Value) throws(InjectionError) {
        var reference = instance
        try inject(into: &reference)
    }
}
