/// Builds objects from a validated graph of bindings.
///
/// Creating an injector records the bindings of its modules, discovers every ``Injectable``
/// type they reach, links each key to the keys it needs, and validates the whole graph; every
/// problem is reported together in one ``InjectionError``. Requests then run the compiled plan.
///
/// ```swift
/// let injector = try Injector(modules: [AppModule()])
/// let house = try injector.getInstance(House.self)
/// let screen = try injector.getInstance(Screen.self, arguments: "Inbox")
/// ```
///
/// An injector is `Sendable`: share one across every thread of an app. There is no global
/// state; two injectors never see each other. A type may depend on `Injector` itself to create
/// further objects later.
public final class Injector: Sendable {
    private let bindings: [AnyKey: Recipe]
    private let nodes: NodeTable
    let graph: BindingGraph

    /// Builds an injector from modules, and from overrides that replace some of their bindings.
    ///
    /// ```swift
    /// // In a test: the real modules, with the network swapped for a fake.
    /// let injector = try Injector(modules: [AppModule()], overrides: [FakeNetworkModule()])
    /// ```
    ///
    /// - Throws: an ``InjectionError`` listing every problem of the graph: missing bindings,
    ///   cycles, duplicate bindings, types with creation-time arguments injected as
    ///   dependencies, and more.
    public init(modules: [any Module], overrides: [any Module] = []) throws(InjectionError) {
        let moduleBinder = Binder()
        for module in modules { module.configure(moduleBinder) }
        let overrideBinder = Binder()
        for module in overrides { module.configure(overrideBinder) }

        let merged = DuplicateBindingRule().merge(
            modules: moduleBinder.recipes, overrides: overrideBinder.recipes, builtIn: [.injector()])
        var compiler = GraphCompiler(bindings: merged.bindings)
        for key in merged.order { compiler.addRoot(key) }
        if let error = InjectionError(problems: merged.problems + compiler.validate()) {
            throw error
        }
        self.bindings = merged.bindings
        self.graph = compiler.graph
        let linked = try compiler.link()
        self.nodes = NodeTable(base: linked.nodes, linkOrder: linked.order)
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
    public func getInstance<Value>(_ type: Value.Type) throws(InjectionError) -> Value {
        try request(Value.self, name: nil)
    }

    /// The instance for a key.
    ///
    /// ```swift
    /// let endpoint = try injector.getInstance(Key<String>(named: "endpoint"))
    /// ```
    public func getInstance<Value>(_ key: Key<Value>) throws(InjectionError) -> Value {
        try request(Value.self, name: key.name)
    }

    /// A new instance of a type whose initializer has creation-time (`.dynamic`) arguments,
    /// filled in order from `arguments`.
    ///
    /// ```swift
    /// // static let initializer = Initializer(Screen.init(feed:title:), .inject, .dynamic)
    /// let screen = try injector.getInstance(Screen.self, arguments: "Inbox")
    /// ```
    ///
    /// Each argument must be of its slot's type (or convertible to it, as a `String` is to
    /// `String?`); pass `nil` for an optional slot as a typed value, e.g. `String?.none`.
    ///
    /// - Throws: ``InjectionError/Kind/argumentCount`` or ``InjectionError/Kind/argumentType``,
    ///   naming the slot, when the arguments do not match the slots.
    public func getInstance<Value, each Argument>(
        _ type: Value.Type, arguments: repeat each Argument
    ) throws(InjectionError) -> Value {
        try resolve(Key<Value>(), active: [], arguments: repeat each arguments)
    }

    /// A new instance for a key whose initializer has creation-time arguments, filled in order
    /// from `arguments`.
    ///
    /// ```swift
    /// let screen = try injector.getInstance(Key<Screen>(named: "compact"), arguments: "Inbox")
    /// ```
    public func getInstance<Value, each Argument>(
        _ key: Key<Value>, arguments: repeat each Argument
    ) throws(InjectionError) -> Value {
        try resolve(key, active: [], arguments: repeat each arguments)
    }

    /// Sets the ``Injectable/properties`` of a value made elsewhere, then calls its
    /// ``Injectable/awakeFromInjection()``.
    ///
    /// ```swift
    /// var settings = Settings(from: file)
    /// try injector.inject(into: &settings)
    /// ```
    public func inject<Value: Injectable>(into instance: inout Value) throws(InjectionError) {
        let key = Key<MemberInjector<Value>>()
        let members: MemberInjector<Value> = try resolve(key, active: [], recipe: { .members(of: Value.self) })
        var resolution = Resolution(injector: self, arguments: nil, active: [])
        do {
            try members.inject(&instance, &resolution)
        } catch {
            throw InjectionError.request(error, key: Key<Value>().erased)
        }
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

    // MARK: - Resolving

    /// A request without creation-time arguments. Its fast path finds the compiled node in one
    /// probe of the root table and, holding no reference to it, reads an existing singleton or
    /// runs the plan; anything else (a first request, a misuse) takes the general path.
    @inline(__always)
    private func request<Value>(_ type: Value.Type, name: String?) throws(InjectionError) -> Value {
        let found: Unmanaged<AnyNode>
        switch nodes.shortcut(type: Value.self, name: name) {
        case .singleton(let pointer): return pointer.assumingMemoryBound(to: Value.self).pointee
        case .run(let node): found = node
        case .none: return try resolve(Key<Value>(named: name), active: [])
        }
        var resolution = Resolution(injector: self, arguments: nil, active: [])
        do {
            return try found._withUnsafeGuaranteedRef { node in
                // The node of a key whose type is Value is always a Node<Value>.
                try unsafeDowncast(node, to: Node<Value>.self).plan(&resolution)
            }
        } catch {
            throw InjectionError.request(error, key: AnyKey(type: Value.self, name: name))
        }
    }

    func resolve<Value>(
        _ key: Key<Value>, active: [ObjectIdentifier], nesting: Nesting = Nesting()
    ) throws(InjectionError) -> Value {
        try resolve(key, active: active, recipe: nil, nesting: nesting)
    }

    private func resolve<Value>(
        _ key: Key<Value>, active: [ObjectIdentifier], recipe: (() -> Recipe)?, nesting: Nesting = Nesting()
    ) throws(InjectionError) -> Value {
        let node = try node(for: key, recipe: recipe)
        if let pointer = node.singleton?.instancePointer {
            return pointer.assumingMemoryBound(to: Value.self).pointee
        }
        if let signature = node.signature {
            throw argumentCountError(key.erased, signature: signature, passed: [])
        }
        return try run(node, active: active, nesting: nesting)
    }

    /// Runs the plan of a node that takes no creation-time arguments.
    func run<Value>(
        _ node: Node<Value>, active: [ObjectIdentifier] = [], nesting: Nesting = Nesting()
    ) throws(InjectionError) -> Value {
        try run(node, active: active, nesting: nesting) { resolution in try node.plan(&resolution) }
    }

    /// Runs `body` with a fresh resolution of this injector.
    func run<Value>(
        _ node: Node<Value>, active: [ObjectIdentifier], nesting: Nesting = Nesting(),
        _ body: (inout Resolution) throws -> Value
    ) throws(InjectionError) -> Value {
        var resolution = Resolution(injector: self, arguments: nil, active: active, nesting: nesting)
        do {
            return try body(&resolution)
        } catch {
            throw InjectionError.request(error, key: node.key)
        }
    }

    func resolve<Value, each Argument>(
        _ key: Key<Value>, active: [ObjectIdentifier], nesting: Nesting = Nesting(),
        arguments: repeat each Argument
    ) throws(InjectionError) -> Value {
        try run(try node(for: key, recipe: nil), key: key.erased, active: active, nesting: nesting,
                arguments: repeat each arguments)
    }

    /// Builds a node's value with creation-time arguments.
    func run<Value, each Argument>(
        _ node: Node<Value>, key: AnyKey, active: [ObjectIdentifier], nesting: Nesting = Nesting(),
        arguments: repeat each Argument
    ) throws(InjectionError) -> Value {
        let count = packCount(repeat each arguments)
        guard let signature = node.signature else {
            guard count == 0 else {
                throw argumentCountError(key, signature: nil, passed: packTypeNames(repeat each arguments))
            }
            return try run(node, active: active, nesting: nesting)
        }
        guard signature.slots.count == count else {
            throw argumentCountError(key, signature: signature, passed: packTypeNames(repeat each arguments))
        }
        // Arguments that fit go in a buffer on the stack; a request allocates nothing else.
        typealias Inline = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
        do {
            if signature.byteCount <= MemoryLayout<Inline>.size, signature.alignment <= MemoryLayout<Inline>.alignment {
                var storage: Inline = (0, 0, 0, 0, 0, 0, 0, 0)
                return try withUnsafeMutableBytes(of: &storage) { buffer in
                    // A buffer of 64 bytes always has a base address.
                    guard let base = buffer.baseAddress else {
                        throw InjectionError(.argumentCount, key: key, message: "No memory for the arguments of \(key).",
                                             fix: "Report this as a bug in Sightless.")
                    }
                    return try run(node, key: key, signature: signature, buffer: base, active: active,
                                   nesting: nesting, arguments: repeat each arguments)
                }
            }
            let base = UnsafeMutableRawPointer.allocate(byteCount: signature.byteCount, alignment: signature.alignment)
            defer { base.deallocate() }
            return try run(node, key: key, signature: signature, buffer: base, active: active,
                           nesting: nesting, arguments: repeat each arguments)
        } catch {
            throw InjectionError.request(error, key: key)
        }
    }

    /// Places the arguments into `buffer`, runs the plan, and destroys the arguments.
    @inline(__always)
    private func run<Value, each Argument>(
        _ node: Node<Value>, key: AnyKey, signature: DynamicSignature, buffer: UnsafeMutableRawPointer,
        active: [ObjectIdentifier], nesting: Nesting, arguments: repeat each Argument
    ) throws -> Value {
        var placer = ArgumentPlacer(signature: signature, buffer: buffer, key: key)
        defer { placer.destroyPlaced() }
        repeat try placer.place(each arguments)
        var resolution = Resolution(injector: self, arguments: UnsafeRawPointer(buffer), active: active,
                                    nesting: nesting)
        return try node.plan(&resolution)
    }

    /// The node of a key, compiled on its first request when the injector was built without it.
    @inline(__always)
    func node<Value>(for key: Key<Value>, recipe: (() -> Recipe)?) throws(InjectionError) -> Node<Value> {
        let node: AnyNode
        if let compiled = nodes.unmanagedNode(type: Value.self, name: key.name) {
            node = compiled.takeUnretainedValue()
        } else {
            node = try compileOnFirstRequest(key.erased, recipe: recipe)
        }
        // The node of a key whose type is Value is always a Node<Value>.
        return unsafeDowncast(node, to: Node<Value>.self)
    }

    @inline(never)
    private func compileOnFirstRequest(_ key: AnyKey, recipe: (() -> Recipe)?) throws(InjectionError) -> AnyNode {
        let bindings = bindings
        return try nodes.compileOnce { (lookup) throws(InjectionError) -> (AnyNode, [AnyKey: AnyNode]) in
            if let node = lookup(key) { return (node, [:]) }
            var compiler = GraphCompiler(bindings: bindings, existing: lookup)
            if let recipe {
                compiler.addRoot(recipe())
            } else if compiler.addRoot(key) == nil {
                throw InjectionError(MissingBindingRule.problem(
                    for: key, neededBy: nil, path: [key], location: nil, bindings: bindings))
            }
            if let error = InjectionError(problems: compiler.validate()) { throw error }
            let added = try compiler.link().nodes
            guard let node = added[key] ?? lookup(key) else {
                throw InjectionError(.missingBinding, key: key, message: "\(key) was compiled but not linked.",
                                     fix: "Report this as a bug in Sightless.")
            }
            return (node, added)
        }
    }

    func argumentCountError(_ key: AnyKey, signature: DynamicSignature?, passed: [String]) -> InjectionError {
        let expected = signature?.slots.count ?? 0
        let takes = signature.map { "takes \(expected) creation-time argument\(expected == 1 ? "" : "s") (\($0.slotList))" }
            ?? "takes no creation-time arguments"
        let got = passed.isEmpty ? "none were passed" : "\(passed.count) \(passed.count == 1 ? "was" : "were") passed (\(passed.joined(separator: ", ")))"
        let fix = signature == nil
            ? "Request it with getInstance(\(key.typeName).self), without arguments."
            : "Pass exactly \(expected): getInstance(\(key.typeName).self, arguments: …), one value per dynamic slot, in order."
        return InjectionError(.argumentCount, key: key, path: [key], message: "\(key) \(takes), but \(got).", fix: fix,
                              location: signature?.slots.first?.dependency.location)
    }
}
