#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

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
    /// What this injector runs, with its parent: shared by every child of one template.
    @usableFromInline let graph: InjectorGraph
    /// `graph.nodes`, held here too, without reference counting: read by every request, which
    /// would otherwise retain the graph around a probe of its later keys.
    @usableFromInline let graphNodes: GraphNodes
    /// `graph.nodes.latest`, the word that publishes the table's newest index of keys compiled
    /// later: read by a request that misses the base index, without touching the table.
    @usableFromInline let later: PublishedLaterIndex
    /// The compiled nodes, by key.
    @inlinable var nodes: NodeTable { graphNodes.table }
    /// How many requests of this injector, on any thread, have published a `RequestFrame`: while
    /// none has, a request looks for no enclosing one.
    @usableFromInline let publishedFrames = Atomic<Int>(0)
    /// Set once by `shutDown()`: requests then throw.
    @usableFromInline let isShutDown = Atomic<Bool>(false)
    /// What the injectors of this injector's family share (`graph.family`), held here too: a
    /// request that hands out a stored value reads its count of parents' shutdowns, with one
    /// load less.
    @usableFromInline let family: InjectorFamily
    /// For a child made from a template, the values it was made with; none for another injector.
    @usableFromInline let provided: ChildValues
    /// `ThreadNesting.slot`, read without the check that the global is initialized.
    @usableFromInline let threadSlot: pthread_key_t
    /// What a shutdown of the injector or of a parent reaches (`InjectorLifecycle`): made when
    /// a root or a plain child is made, and for a template's child on the first request of a
    /// scoped node or its first child; most children of a request template keep nothing, and
    /// pay for no lock.
    let scoped = LazyLifecycle()

    @inline(__always)
    init(graph: InjectorGraph, provided: consuming ChildValues = ChildValues()) {
        self.graph = graph
        graphNodes = GraphNodes(graph)
        later = graph.nodes.latest
        family = graph.family
        self.provided = provided
        threadSlot = graph.parent?.threadSlot ?? ThreadNesting.slot
    }

    convenience init(nodes: NodeTable, compilation: any Compilation, parent: Injector? = nil) {
        self.init(graph: InjectorGraph(nodes: nodes, compilation: compilation, parent: parent))
    }

    /// Compiles keys on their first request.
    var compilation: any Compilation { graph.compilation }
    /// The identity of the compiled graph this injector runs (`compilation.owner`).
    @inlinable var owner: CompilationOwner { graph.owner }
    /// The injector a child was made from, kept alive by it.
    @inlinable var parent: Injector? { graph.parent }

    /// `true` once a parent of this injector (not the injector itself) is shut down; its parents
    /// are asked only once an injector of the family that has children was shut down.
    @inlinable var parentIsShutDown: Bool {
        family.parentShutdowns.load(ordering: .relaxed) != 0 && (graph.parent?.isShutDownInFamily ?? false)
    }

    /// `true` while neither this injector nor a parent is shut down: a value found stored is then
    /// handed out. A value an injector above a shut-down one keeps stays stored, so an injector
    /// below must ask before handing it out.
    @inlinable var isServing: Bool {
        !isShutDown.load(ordering: .relaxed) && !parentIsShutDown
    }
}

// MARK: - Running requests

extension Injector {
    /// A request without dynamic arguments, from `getInstance`: inlined where the type is
    /// known, it reads an existing instance of a storing scope with one probe of the root table;
    /// anything else runs the plan, out of line.
    @inlinable @inline(__always)
    func request<Value>(_ type: Value.Type, name: String?) throws(InjectionError) -> Value {
        if !isShutDown.load(ordering: .relaxed), let found = compiledEntry(Value.self, name: name) {
            // A kept instance is read from its cell, with nothing retained or borrowed; one of an
            // injector above a shut-down parent is not handed out.
            if let value = found.existing, !parentIsShutDown { return value }
            return try run(found.node, as: Value.self, name: name)
        }
        return try requestCompiling(Value.self, name: name)
    }

    /// Runs the plan of a node found in the root table for `Value`, specialized where the
    /// request is made.
    @inlinable @inline(__always)
    func run<Value>(_ found: FoundNode<Value>, as type: Value.Type, name: String?) throws(InjectionError) -> Value {
        do {
            return try found.withNode { node in
                // The common case: no dynamic arguments and no enclosing request; the
                // injector is not shut down (checked by the caller). Anything else runs the
                // general path.
                guard node.signature == nil, RequestFrame.current(of: self) == nil, !parentIsShutDown else {
                    return try run(node)
                }
                var resolution = try Resolution(injector: self)
                defer { resolution.end() }
                return try node.plan(&resolution)
            }
        } catch {
            throw InjectionError.request(error, key: AnyKey(type: Value.self, name: name))
        }
    }

    /// A request of a shut-down injector, or of a key not compiled yet.
    @usableFromInline @inline(never)
    func requestCompiling<Value>(_ type: Value.Type, name: String?) throws(InjectionError) -> Value {
        if isShutDownInFamily { throw shutDownError(AnyKey(type: Value.self, name: name)) }
        guard let found = compiled(Value.self, name: name) else {
            return try run(try compiledNode(Value.self, name: name))
        }
        if let value = found.existing { return value }
        return try run(found, as: Value.self, name: name)
    }

    /// The node of a key, compiled on its first request when the injector was built without it.
    @usableFromInline
    func compiledNode<Value>(_ type: Value.Type, name: String?) throws(InjectionError) -> Node<Value> {
        if let compiled = compiled(Value.self, name: name) {
            return try compiled.object.typed(as: Value.self)
        }
        let key = AnyKey(type: Value.self, name: name)
        if nodes.compilesOnThisThread {
            throw InjectionError(.reentered(key: key, through: .descriptor), path: [key])
        }
        try checkStackForCompiling(key)
        return try compilation.compile(key, into: nodes).typed(as: Value.self)
    }

    /// Runs the plan of a node that takes no dynamic arguments.
    @inlinable @inline(__always)
    func run<Value>(_ node: Node<Value>) throws(InjectionError) -> Value {
        if let value = node.storage?.existing(as: Value.self), isServing { return value }
        return try run(node, plan: node.plan)
    }

    /// Runs `plan` for a node that takes no dynamic arguments: its own plan, or one that
    /// wraps it (a `Lazy` keeps what it builds).
    @inlinable @inline(__always)
    func run<Value>(_ node: AnyNode, plan: Plan<Value>) throws(InjectionError) -> Value {
        if isShutDownInFamily { throw shutDownError(node.key) }
        guard node.signature == nil else {
            throw argumentCountError(node.key, signature: node.signature, passed: [])
        }
        if let frame = RequestFrame.current(of: self) {
            return try runNested(node, plan: plan, in: frame, arguments: nil)
        }
        var resolution = try Resolution(injector: self)
        defer { resolution.end() }
        do {
            return try plan(&resolution)
        } catch {
            throw InjectionError.request(error, key: node.key)
        }
    }

    /// Runs a node's plan inside an enclosing request of this injector on this thread.
    @usableFromInline @inline(never)
    func runNested<Value>(
        _ node: AnyNode, plan: Plan<Value>, in frame: RequestFrame, arguments: ArgumentBuffer?
    ) throws(InjectionError) -> Value {
        var resolution = Resolution(injector: self, arguments: arguments, nestedIn: frame)
        let id = ObjectIdentifier(node)
        // Asking again, with nothing new to build from, for a key being built can only recur
        // (the graph's decision, `Meaning.Reentry`, read on every path).
        if node.meaning.reentry == .cycle, node.storage == nil, frame.active.contains(id) {
            throw InjectionError(.reentered(key: node.key, through: .request), path: [node.key])
        }
        frame.active.append(id)
        defer { frame.active.removeLast() }
        do {
            try resolution.enterLevel()
            let enclosing = (frame.nesting, frame.keeper)
            frame.nesting = resolution.nesting
            frame.keeper = resolution.keeper
            defer { (frame.nesting, frame.keeper) = enclosing }
            return try plan(&resolution)
        } catch {
            throw InjectionError.request(error, key: node.key)
        }
    }

    /// A request with dynamic arguments, from `getInstance(_:arguments:)` or a resolver.
    @usableFromInline
    func request<Value, each Argument>(
        _ type: Value.Type, name: String?, arguments: repeat each Argument
    ) throws(InjectionError) -> Value {
        try run(try compiledNode(Value.self, name: name), key: AnyKey(type: Value.self, name: name),
                arguments: repeat each arguments)
    }

    /// Builds a node's value with dynamic arguments.
    func run<Value, each Argument>(
        _ node: Node<Value>, key: AnyKey, arguments: repeat each Argument
    ) throws(InjectionError) -> Value {
        if isShutDownInFamily { throw shutDownError(key) }
        let count = packCount(repeat each arguments)
        guard let signature = node.signature else {
            guard count == 0 else {
                throw argumentCountError(key, signature: nil, passed: packTypes(repeat each arguments))
            }
            return try run(node)
        }
        guard signature.slots.count == count else {
            throw argumentCountError(key, signature: signature, passed: packTypes(repeat each arguments))
        }
        // Arguments that fit go in a buffer on the stack; a request allocates nothing else.
        return try ArgumentPlacer.withBuffer(for: signature, key: key) { (placer) throws(InjectionError) -> Value in
            repeat try placer.place(each arguments)
            return try runPlaced(node, key: key, arguments: placer.arguments)
        }
    }

    /// Runs the plan with the arguments placed.
    @inline(__always)
    private func runPlaced<Value>(_ node: Node<Value>, key: AnyKey, arguments: ArgumentBuffer) throws(InjectionError) -> Value {
        if let frame = RequestFrame.current(of: self) {
            return try runNested(node, plan: node.plan, in: frame, arguments: arguments)
        }
        var resolution = try Resolution(injector: self, arguments: arguments)
        defer { resolution.end() }
        do {
            return try node.plan(&resolution)
        } catch {
            throw InjectionError.request(error, key: key)
        }
    }

    /// Runs `body` as a request of this injector for `key`, nested in an enclosing request on
    /// this thread if there is one.
    func perform<Result>(for key: AnyKey, _ body: (inout Resolution) throws -> Result) throws(InjectionError) -> Result {
        var resolution = if let frame = RequestFrame.current(of: self) {
            Resolution(injector: self, nestedIn: frame)
        } else {
            try Resolution(injector: self)
        }
        defer { resolution.end() }
        do {
            return try body(&resolution)
        } catch {
            throw InjectionError.request(error, key: key)
        }
    }

    @usableFromInline @inline(never)
    func shutDownError(_ key: AnyKey) -> InjectionError {
        InjectionError(.injectorShutDown(key: key), path: [key])
    }

    @usableFromInline
    func argumentCountError(_ key: AnyKey, signature: DynamicSignature?, passed: [AnyKey]) -> InjectionError {
        InjectionError(.argumentCount(key: key, slots: signature?.described ?? [], passed: passed),
                       path: [key], location: signature?.slots.first?.location)
    }
}

extension Injector {
    /// What this injector's shutdown, and its parents', reach: made on first use, registered
    /// with the parent's.
    var lifecycle: InjectorLifecycle { lifecycle(closingLate: true) }

    /// The lifecycle, made now if there is none; `closingLate` for any caller but the shutdown.
    func lifecycle(closingLate: Bool) -> InjectorLifecycle {
        if let existing = scoped.existing { return existing }
        let lifecycle = scoped.get { InjectorLifecycle(table: provided.isTemplateChild ? nil : nodes, parent: parent?.lifecycle) }
        // Made by a request racing a shutdown of the injector, which found none to close: closed
        // here, so that what a scope keeps from now on is sealed, and closed by its builder.
        if closingLate, isShutDown.load(ordering: .sequentiallyConsistent) {
            for closing in ClosingValue.once(lifecycle.close()) { try? closing.closeSynchronously() }
        }
        return lifecycle
    }

    /// `true` once this injector or one of its parents is shut down: it then makes no children,
    /// and its requests throw ``InjectionError/Kind/injectorShutDown``.
    @usableFromInline
    var isShutDownInFamily: Bool {
        // Recursive rather than a loop over a variable, which would retain each parent it held.
        if isShutDown.load(ordering: .acquiring) { return true }
        return graph.parent?.isShutDownInFamily ?? false
    }
}
