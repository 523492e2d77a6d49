import Synchronization

// Awaited requests. They are named `instance` rather than `getInstance`: in async code, Swift
// prefers an `async` overload of a name, so an async `getInstance` would turn every existing
// synchronous `getInstance` call inside async code into a "needs await" compile error.

extension Injector {
    /// Builds an injector, awaiting the eager singletons that need `await`: those of different
    /// dependencies are built at the same time, so start-up takes as long as the longest chain
    /// of awaited builds, not their sum.
    ///
    /// ```swift
    /// let injector = try await Injector.start(modules: [ServerModule()])
    /// ```
    ///
    /// ``init(modules:overrides:)`` builds eager singletons synchronously, and reports one that
    /// needs `await` as an error of kind ``InjectionError/Kind/needsAwait`` instead.
    nonisolated(nonsending)
    public static func start(modules: [any Module], overrides: [any Module] = []) async throws(InjectionError) -> Injector {
        let (nodes, compilation) = try await compiledOnActor { () throws(InjectionError) in
            try GraphCompilation.build(modules: modules, overrides: overrides, awaitsEagerValues: true)
        }
        let injector = Injector(nodes: nodes, compilation: compilation)
        try await injector.awaitEagerValues()
        return injector
    }

    /// Builds an injector from modules, with the bindings `overrides` records replacing theirs,
    /// awaiting the eager singletons that need `await`: the one-line way to swap a dependency in
    /// a test of an app that starts asynchronously.
    ///
    /// ```swift
    /// let injector = try await Injector.start(modules: [ServerModule()]) {
    ///     $0.bind(NotesStore.self).to(instance: MemoryNotesStore())
    /// }
    /// ```
    nonisolated(nonsending)
    public static func start(modules: [any Module], overriding overrides: (Binder) -> Void) async throws(InjectionError) -> Injector {
        let (nodes, compilation) = try GraphCompilation.build(
            modules: modules, overrides: [], recordingOverrides: overrides, awaitsEagerValues: true)
        let injector = Injector(nodes: nodes, compilation: compilation)
        try await injector.awaitEagerValues()
        return injector
    }

    /// Builds the eager values: the synchronous ones in order, then those that need `await`,
    /// all at the same time.
    func awaitEagerValues() async throws(InjectionError) {
        guard let eager = graphCompilation?.eager, !eager.isEmpty else { return }
        var problems: [InjectionError.Problem] = []
        for node in eager where node.awaited == nil {
            do throws(InjectionError) {
                try node.prime(self)
            } catch {
                problems += error.problems
            }
        }
        let awaited = eager.filter { $0.awaited != nil }
        let request = AsyncRequest(injector: self, arguments: nil)
        let failures = await withTaskGroup(of: [InjectionError.Problem].self) { group in
            for node in awaited {
                group.addTask {
                    do {
                        _ = try await node.awaitedValue(request)
                        return []
                    } catch {
                        return InjectionError.request(error, key: node.key).problems
                    }
                }
            }
            var failures: [InjectionError.Problem] = []
            for await problems in group { failures += problems }
            return failures
        }
        if let error = InjectionError(problems: problems + failures) { throw error }
    }

    // MARK: - Requests

    /// Builds, or finds, the value of a type, awaiting what needs `await`.
    ///
    /// ```swift
    /// let pool = try await injector.instance(Pool.self)
    /// ```
    ///
    /// A type that needs no `await` is built synchronously, as by ``getInstance(_:)-(Value.Type)``.
    /// The dependencies of one initializer that await themselves (an `async` build, a kept
    /// value, a value built on an actor) are awaited at the same time, and the failures of all
    /// of them are reported together.
    @inlinable @inline(__always) nonisolated(nonsending)
    public func instance<Value>(_ type: Value.Type) async throws(InjectionError) -> sending Value {
        // Inlined where the type is known, as a synchronous request is: a value a scope has
        // stored is read with one probe of the root table, and a node that needs no `await` now
        // (built synchronously, or what it awaits is stored) runs its plan here.
        if !isShutDown.load(ordering: .relaxed), let found = compiledEntry(Value.self, name: nil) {
            if let value = found.existing, !parentIsShutDown { return value }
            // A kept value not stored yet goes the general way, which awaits a thread's build.
            if found.node.reading({ node in node.storage == nil && node.isReady(in: self) }) {
                // An awaited request may begin building a kept value after `isReady` was read:
                // the synchronous build then fails with `needsAwait`, and this request awaits.
                do throws(InjectionError) {
                    return try run(found.node, as: Value.self, name: nil)
                } catch {
                    return try await awaitedRequest(Value.self, name: nil, failedSynchronously: error)
                }
            }
        }
        return try await awaitedRequest(Value.self, name: nil)
    }

    /// Builds, or finds, the value of a key, awaiting what needs `await`.
    ///
    /// ```swift
    /// let primary = try await injector.instance(Key<Pool>(named: "primary"))
    /// ```
    @inlinable @inline(__always) nonisolated(nonsending)
    public func instance<Value>(_ key: Key<Value>) async throws(InjectionError) -> sending Value {
        if !isShutDown.load(ordering: .relaxed), let found = compiledEntry(Value.self, name: key.name) {
            if let value = found.existing, !parentIsShutDown { return value }
            // A kept value not stored yet goes the general way, which awaits a thread's build.
            if found.node.reading({ node in node.storage == nil && node.isReady(in: self) }) {
                // An awaited request may begin building a kept value after `isReady` was read:
                // the synchronous build then fails with `needsAwait`, and this request awaits.
                do throws(InjectionError) {
                    return try run(found.node, as: Value.self, name: key.name)
                } catch {
                    return try await awaitedRequest(Value.self, name: key.name, failedSynchronously: error)
                }
            }
        }
        return try await awaitedRequest(Value.self, name: key.name)
    }

    /// Builds a value of a type that takes dynamic arguments, awaiting what needs `await`.
    ///
    /// ```swift
    /// let session = try await injector.instance(Session.self, arguments: "ada")
    /// ```
    nonisolated(nonsending)
    public func instance<Value, each Argument>(
        _ type: Value.Type, arguments: repeat each Argument
    ) async throws(InjectionError) -> Value {
        try await awaitedRequest(Value.self, name: nil, arguments: repeat each arguments)
    }

    /// Builds a value of a key that takes dynamic arguments, awaiting what needs `await`.
    ///
    /// ```swift
    /// let session = try await injector.instance(Key<Session>(named: "admin"), arguments: "ada")
    /// ```
    nonisolated(nonsending)
    public func instance<Value, each Argument>(
        _ key: Key<Value>, arguments: repeat each Argument
    ) async throws(InjectionError) -> Value {
        try await awaitedRequest(Value.self, name: key.name, arguments: repeat each arguments)
    }

    /// An awaited request without dynamic arguments.
    @usableFromInline nonisolated(nonsending)
    func awaitedRequest<Value>(_ type: Value.Type, name: String?) async throws(InjectionError) -> Value {
        try await awaitedRequest(Value.self, name: name, failedSynchronously: nil)
    }

    /// An awaited request without dynamic arguments; `failedSynchronously` is the error of a
    /// synchronous build the caller ran first because the node was ready: unless it is a
    /// `needsAwait` of a node that can be awaited, it is thrown, and else the node is awaited
    /// with no second synchronous attempt.
    @usableFromInline nonisolated(nonsending)
    func awaitedRequest<Value>(
        _ type: Value.Type, name: String?, failedSynchronously: InjectionError?
    ) async throws(InjectionError) -> Value {
        // `instance(_:)`, inlined where the type is known, read a stored value already. Nothing
        // here holds an optional `Value`: unspecialized, its type would be looked up at run time.
        let key = AnyKey(type: Value.self, name: name)
        if isShutDownInFamily { throw shutDownError(key) }
        // Compiled already (nearly always): found with no async call.
        let node = if let found = compiled(Value.self, name: name) {
            try found.object.typed(as: Value.self)
        } else {
            try await awaitedNode(Value.self, name: name)
        }
        guard let plan = node.asyncPlan else {
            if let failedSynchronously { throw failedSynchronously }
            await node.storage?.awaitThreadBuild()
            return try run(node, plan: node.plan)
        }
        if let failedSynchronously {
            guard failedSynchronously.kind == .needsAwait else { throw failedSynchronously }
        } else if node.isReady(in: self) {
            // What it awaits is stored (an async singleton opened before): built as a synchronous
            // request builds it, with no task, section or await; a kept value is read by its
            // plan. When an awaited request began building a kept value it needs in between,
            // that build fails with `needsAwait`: this request awaits instead.
            await node.storage?.awaitThreadBuild()
            do throws(InjectionError) {
                return try run(node, plan: node.plan)
            } catch {
                guard error.kind == .needsAwait else { throw error }
            }
        }
        guard node.signature == nil else {
            throw argumentCountError(key, signature: node.signature, passed: [])
        }
        do {
            let request = AsyncRequest(injector: self, arguments: nil)
            return try await AwaitedReentry.request(key, plan, request)
        } catch {
            throw InjectionError.request(error, key: key)
        }
    }

    /// An awaited request with dynamic arguments: they are placed in memory that lives until
    /// the awaited plan returns.
    @usableFromInline nonisolated(nonsending)
    func awaitedRequest<Value, each Argument>(
        _ type: Value.Type, name: String?, arguments: repeat each Argument
    ) async throws(InjectionError) -> Value {
        let key = AnyKey(type: Value.self, name: name)
        if isShutDownInFamily { throw shutDownError(key) }
        // Compiled already (nearly always): found with no async call.
        let node: Node<Value>
        if let compiled = compiled(Value.self, name: name) {
            node = try compiled.object.typed(as: Value.self)
        } else {
            node = try await awaitedNode(Value.self, name: name)
        }
        guard let plan = node.asyncPlan else { return try run(node, key: key, arguments: repeat each arguments) }
        let count = packCount(repeat each arguments)
        guard let signature = node.signature else {
            guard count == 0 else {
                throw argumentCountError(key, signature: nil, passed: packTypes(repeat each arguments))
            }
            return try await awaitedRequest(Value.self, name: name)
        }
        guard signature.slots.count == count else {
            throw argumentCountError(key, signature: signature, passed: packTypes(repeat each arguments))
        }
        return try await AwaitedArguments.withPlacer(
            for: signature, key: key, place: { (placer) throws(InjectionError) in repeat try placer.place(each arguments) }
        ) { (arguments) async throws(InjectionError) -> Value in
            let request = AsyncRequest(injector: self, arguments: SharedArguments(buffer: arguments))
            do {
                return try await AwaitedReentry.request(key, plan, request)
            } catch {
                throw InjectionError.request(error, key: key)
            }
        }
    }

    /// An awaited request with dynamic arguments whose types are known where it is made
    /// (`instance(_:arguments:)` of one to three arguments, generated in
    /// Injector+AsyncArities.swift): a node that needs no `await` now runs `synchronously` (the
    /// synchronous request of the same arity); one that does gets its arguments placed by code
    /// specialized for their types, in memory that lives until its plan returns. `nil` when the
    /// key is not compiled yet, the injector is shut down, or the arguments are not exactly of
    /// the slots' types: the general path then serves, and reports what is wrong.
    @inlinable @inline(__always) nonisolated(nonsending)
    func awaitedRequestPlacing<Value>(
        _ type: Value.Type, name: String?, synchronously: () throws(InjectionError) -> Value,
        match: (inout SlotMatcher) -> Void, place: (inout SlotPlacer) -> Void, destroy: (inout SlotPlacer) -> Void
    ) async throws(InjectionError) -> Value? {
        try await awaitedRequestPlacing(
            Value.self, name: name, found: nil, synchronously: { (_) throws(InjectionError) in try synchronously() },
            matches: { signature in
                var matcher = SlotMatcher(signature.types)
                match(&matcher)
                return matcher.matches && matcher.index == signature.types.count
            },
            place: { placed, signature in placed.placeSlots(signature.offsets, place) },
            destroy: { placed, signature in placed.destroySlots(signature.offsets, destroy) })
    }

    /// An awaited request with a parameter pack of dynamic arguments (a `Factory`'s), their
    /// types known where it is made: as the fixed-arity form, its arguments placed as one tuple
    /// (see `runPlacing`). `known` is the key's node when the caller found it before.
    @inlinable @inline(__always) nonisolated(nonsending)
    func awaitedRequestPlacing<Value, each Argument>(
        _ type: Value.Type, name: String?, found known: FoundNode<Value>?, arguments: repeat each Argument
    ) async throws(InjectionError) -> Value? {
        typealias Arguments = (repeat each Argument)
        return try await awaitedRequestPlacing(
            Value.self, name: name, found: known,
            synchronously: { (found) throws(InjectionError) in
                try requestPlacing(Value.self, name: name, found: found, arguments: repeat each arguments)
            },
            matches: { signature in
                signature.places(Arguments.self, matching: { matcher in repeat matcher.match((each Argument).self) })
            },
            place: { placed, _ in placed.placeTuple((repeat each arguments)) },
            destroy: { placed, _ in placed.destroyTuple(Arguments.self) })
    }

    /// What both forms share: the node found (`known`, else probed), run `synchronously` when it
    /// needs no `await` now; else, when `matches` accepts its signature, the arguments placed by
    /// `place` in memory that lives until the awaited plan returns (`AwaitedArguments`), then
    /// destroyed by `destroy`.
    @inlinable @inline(__always) nonisolated(nonsending)
    func awaitedRequestPlacing<Value>(
        _ type: Value.Type, name: String?, found known: FoundNode<Value>?,
        synchronously: (FoundNode<Value>) throws(InjectionError) -> Value,
        matches: (DynamicSignature) -> Bool,
        place: (borrowing AwaitedArguments, DynamicSignature) -> Void,
        destroy: (borrowing AwaitedArguments, DynamicSignature) -> Void
    ) async throws(InjectionError) -> Value? {
        guard !isShutDown.load(ordering: .relaxed), let found = known ?? compiled(Value.self, name: name) else {
            return nil
        }
        // A `needsAwait` of a node that can be awaited: an awaited request began building a kept
        // value it needs after `isReady` was read; this request awaits it (`awaitPlaced`).
        var failedSynchronously: InjectionError?
        if found.reading({ node in node.isReady(in: self) }) {
            do throws(InjectionError) {
                return try synchronously(found)
            } catch {
                guard error.kind == .needsAwait else { throw error }
                failedSynchronously = error
            }
        }
        let node = try found.object.typed(as: Value.self)
        guard let signature = node.signature, matches(signature) else {
            if let failedSynchronously { throw failedSynchronously }
            return nil
        }
        let placed = AwaitedArguments(for: signature)
        place(placed, signature)
        defer { destroy(placed, signature) }
        return try await awaitPlaced(node, arguments: placed.arguments, key: AnyKey(type: Value.self, name: name),
                                     failedSynchronously: failedSynchronously)
    }

    /// Awaits the plan of a node that needs `await`, its arguments placed; `failedSynchronously`
    /// is thrown when the node has no awaited plan.
    @usableFromInline nonisolated(nonsending)
    func awaitPlaced<Value>(
        _ node: Node<Value>, arguments: ArgumentBuffer, key: AnyKey, failedSynchronously: InjectionError? = nil
    ) async throws(InjectionError) -> Value {
        guard let plan = node.asyncPlan else {
            throw failedSynchronously ?? InjectionError(.internalInconsistency(.notLinked(key: key)), path: [key])
        }
        let request = AsyncRequest(injector: self, arguments: SharedArguments(buffer: arguments))
        do {
            return try await AwaitedReentry.request(key, plan, request)
        } catch {
            throw InjectionError.request(error, key: key)
        }
    }
}
