// The compiled way to produce a value that needs `await`. A node is built with `await` when its
// own initializer, closure or provider is `async`, or when a dependency it builds at once (not
// through a `Lazy` or `Factory`) is. Such a node keeps two plans:
//
// - its async plan awaits the node's awaited dependencies, concurrently, then runs the node's
//   ordinary (synchronous) plan in a *section* where those dependencies' plans give the values
//   just awaited, and finally awaits the node's own `async` build, if it has one;
// - its synchronous plan gives the value awaited for it in the section of a consumer, and
//   otherwise throws `needsAwait`: a synchronous request cannot await.
//
// A synchronous node has no async plan; an async request of it runs its synchronous plan.

/// A compiled way to produce one value that needs `await`.
typealias AsyncPlan<Value> = nonisolated(nonsending) @Sendable (AsyncRequest) async throws -> Value

/// The state an async plan is run with: the injector, and the dynamic arguments of the
/// requested key (read only by the requested node's own section).
struct AsyncRequest: Sendable {
    let injector: Injector
    let arguments: SharedArguments?
    /// While a storing scope builds the value: the injector that keeps it, and whether for its
    /// whole life; what the value is given is that injector's (see `Keeper`).
    var keeper: Injector?
    var weakly = false

    init(injector: Injector, arguments: SharedArguments?) {
        self.injector = injector
        self.arguments = arguments
    }

    /// The request of a dependency: it brings no dynamic arguments, and builds for the same
    /// keeper.
    var withoutArguments: AsyncRequest {
        var request = AsyncRequest(injector: injector, arguments: nil)
        request.keeper = keeper
        request.weakly = weakly
        return request
    }

    /// This request, building a value `keeper` keeps (for its whole life when `weakly`).
    func kept(by keeper: Injector, weakly: Bool) -> AsyncRequest {
        var request = self
        request.keeper = keeper
        request.weakly = weakly
        return request
    }

    /// The injector to hand to the value being built: the one that keeps it, else the one
    /// resolving.
    var handedInjector: Injector { keeper ?? injector }
}

/// The values awaited for the dependencies of the node whose synchronous section runs, in the
/// order they were awaited; its plans take them by key, in the order they read them. Carried by
/// the section's `Resolution`, so that only the plans of that section see them.
@usableFromInline
final class Prefetched {
    /// The values, each with its key; a taken one is `nil`. Read and written by one section at
    /// a time: the section's plans run synchronously, and two sections of one node (its
    /// arguments, then its properties) run one after the other, ordered by the await between.
    private var entries: [(key: AnyKey, value: Transfer<Any>?)]

    init(_ entries: [(key: AnyKey, value: Transfer<Any>?)]) {
        self.entries = entries
    }

    /// Takes the next value awaited for `key`, if one is left and it is a `Value`.
    func take<Value>(_ key: AnyKey, as type: Value.Type) -> Value? {
        for index in entries.indices where entries[index].value != nil && entries[index].key == key {
            let value = entries[index].value
            entries[index].value = nil
            return value?.value as? Value
        }
        return nil
    }
}

/// Runs the synchronous part of an awaited node: `body` sees the dependencies awaited for it.
struct AsyncSection {
    let request: AsyncRequest
    let prefetched: Prefetched?

    /// Runs `body` as a synchronous request of the injector, in which the plans of the awaited
    /// dependencies give the values awaited for them.
    func run<Result>(_ body: (inout Resolution) throws -> Result) throws -> Result {
        var resolution = try Resolution(injector: request.injector, arguments: request.arguments?.buffer)
        if let keeper = request.keeper { resolution.keeper = Keeper(keeper, weakly: request.weakly) }
        defer { resolution.end() }
        guard let prefetched else { return try body(&resolution) }
        return try withExtendedLifetime(prefetched) {
            resolution.prefetchedReference = UnownedReference(prefetched)
            return try body(&resolution)
        }
    }
}

/// What an `async` initializer, closure or provider links to: a synchronous plan that gathers
/// the arguments, and returns the step that awaits the build.
typealias AsyncBuild<Value> = (AsyncSection) async throws -> Value

/// The plans of the awaited dependencies of one node, in the order its plans read them.
///
/// Concurrency is paid for only where it can happen. A dependency whose value a scope has stored
/// is read at once. A dependency that needs `await` only because of what it builds at once (a
/// synchronous build over an `async` one) is awaited in this task, its own awaited dependencies
/// then following this same rule. The dependencies that await in place, an `async` build, a
/// value a scope keeps or one built on an actor, are the ones that can suspend: when two or
/// more of them are not stored yet, the first is awaited in this task and each further one in a
/// child task of its own (an `async let` for two, a task group beyond), so that they run at the
/// same time.
struct AwaitedDependencies: Sendable {
    let nodes: [AnyNode]
    /// For each node: whether it awaits in place (`AnyNode.awaitsInPlace`).
    private let inPlace: [Bool]
    /// How many of the nodes await in place: at most one, and every dependency is awaited in
    /// this task, one after the other.
    private let inPlaceCount: Int

    init(nodes: [AnyNode]) {
        self.nodes = nodes
        inPlace = nodes.map(\.awaitsInPlace)
        inPlaceCount = inPlace.count(where: { $0 })
    }

    var isEmpty: Bool { nodes.isEmpty }

    /// Awaits every dependency; the failures of all of them are reported together, each with its
    /// path from `key`.
    nonisolated(nonsending)
    func values(_ request: AsyncRequest, for key: AnyKey, rethrow: @Sendable (any Error) -> InjectionError) async throws -> Prefetched? {
        guard !nodes.isEmpty else { return nil }
        let dependency = request.withoutArguments
        if nodes.count == 1 {
            do {
                return Prefetched([(nodes[0].key, try await nodes[0].awaitedValue(dependency))])
            } catch {
                throw rethrow(error)
            }
        }
        var results = [Result<Transfer<Any>, any Error>?](repeating: nil, count: nodes.count)
        if inPlaceCount < 2 {
            for index in nodes.indices { results[index] = await Self.outcome(of: nodes[index], dependency) }
            return try Self.prefetched(nodes, results, rethrow)
        }
        var pending: [Int] = []
        for index in nodes.indices {
            if inPlace[index], nodes[index].storage?.isFilled != true { pending.append(index) }
        }
        switch pending.count {
        case 0, 1:
            for index in nodes.indices { results[index] = await Self.outcome(of: nodes[index], dependency) }
        case 2:
            let second = nodes[pending[1]]
            async let other = Self.outcome(of: second, dependency)
            for index in nodes.indices where index != pending[1] {
                results[index] = await Self.outcome(of: nodes[index], dependency)
            }
            results[pending[1]] = await other
        default:
            // Each branch writes its outcome into its own slot: no result crosses the group.
            let outcomes = Outcomes(count: nodes.count)
            let rest = Set(pending.dropFirst())
            await withTaskGroup(of: Void.self) { group in
                for index in rest {
                    let node = nodes[index]
                    group.addTask { outcomes.set(index, await Self.outcome(of: node, dependency)) }
                }
                for index in nodes.indices where !rest.contains(index) {
                    outcomes.set(index, await Self.outcome(of: nodes[index], dependency))
                }
            }
            for (index, outcome) in outcomes.all.enumerated() where outcome != nil { results[index] = outcome }
        }
        return try Self.prefetched(nodes, results, rethrow)
    }

    /// The values awaited, in the nodes' order, or every failure among them.
    private static func prefetched(
        _ nodes: [AnyNode], _ results: [Result<Transfer<Any>, any Error>?], _ rethrow: @Sendable (any Error) -> InjectionError
    ) throws -> Prefetched {
        var values: [(key: AnyKey, value: Transfer<Any>?)] = []
        values.reserveCapacity(nodes.count)
        var problems: [InjectionError.Problem] = []
        for (node, result) in zip(nodes, results) {
            switch result {
            case .success(let value)?: values.append((node.key, value))
            case .failure(let error)?: problems += rethrow(error).problems
            case nil: break
            }
        }
        if let error = InjectionError(problems: problems) { throw error }
        return Prefetched(values)
    }

    /// Awaits one dependency's value, its failure kept as an outcome.
    nonisolated(nonsending)
    private static func outcome(of node: AnyNode, _ request: AsyncRequest) async -> Result<Transfer<Any>, any Error> {
        do {
            return .success(try await node.awaitedValue(request))
        } catch {
            return .failure(error)
        }
    }
}

extension Injector {
    /// Runs an async plan outside the caller's isolation, handing its value back.
    nonisolated func awaitPlan<Value>(_ plan: AsyncPlan<Value>, _ request: AsyncRequest) async throws -> Transfer<Value> {
        Transfer(try await plan(request))
    }
}

/// The outcomes of the branches of one `AwaitedDependencies.values`, one slot per branch.
final class Outcomes {
    /// Guarded by `lock`.
    private var slots: [Result<Transfer<Any>, any Error>?]
    private let lock = Lock()

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    func set(_ index: Int, _ outcome: Result<Transfer<Any>, any Error>) {
        lock.withLock { slots[index] = outcome }
    }

    var all: [Result<Transfer<Any>, any Error>?] { lock.withLock { slots } }
}
