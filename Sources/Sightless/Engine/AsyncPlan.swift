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

/// What a recipe's link step returns: a synchronous plan, or the plan of an `async` build. Both
/// go through the same stages (`Recipe.linkedNode`).
enum LinkedBuild<Value>: Sendable {
    case synchronous(Plan<Value>)
    /// Gathers the arguments synchronously, then returns the step that awaits the build.
    case awaited(Plan<AsyncBuild>)
}

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

/// Runs the synchronous part of an awaited node: `body` sees the dependencies awaited for it.
@usableFromInline
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
        return try resolution.withPrefetched(prefetched, body)
    }
}

extension AsyncSection {
    /// Runs `body` as `run(_:)` does, and tells whether it handed out a way back into the
    /// injector (a resolver, a `Lazy`, a `Factory`, the injector itself: each publishes the
    /// request's frame, `Resolution.publishFrame()`), through which what it built can ask again.
    func runNotingWayBack<Result>(_ wayBack: inout Bool, _ body: (inout Resolution) throws -> Result) throws -> Result {
        try run { resolution in
            let result = try body(&resolution)
            wayBack = resolution.frameReference != nil
            return result
        }
    }
}

/// What an `async` initializer, closure or provider links to: a synchronous plan that gathers
/// the arguments, and returns the step that awaits the build with them.
///
/// The step is made once, when the node is linked, and takes the arguments a plan gathered as
/// `arguments`: a closure made per build to capture them would be allocated per build. Up to
/// three words of arguments (three references, say) lie in the existential itself; the step
/// reads them back with `AsyncBuild.arguments(_:as:)`, a comparison for their exact type.
///
/// A struct around the step, not the bare closure: a closure returned through the generic
/// `Plan` would be called through a reabstraction thunk, one more async frame (and its executor
/// checks) per build. Not generic either, its value untyped: the metadata of a generic struct
/// is looked up at run time by the unspecialized code that holds it, about 900 instructions a
/// build, where a section takes its values untyped anyway (`Prefetched`) and a typed consumer
/// reads one back with `Prefetched.cast`, which for an exact type is a comparison.
@usableFromInline
struct AsyncBuild {
    @usableFromInline let step: AsyncStep
    @usableFromInline let arguments: Any

    @inlinable
    init(_ step: @escaping AsyncStep, arguments: Any = ()) {
        self.step = step
        self.arguments = arguments
    }

    /// The arguments a plan gathered, as the step that awaits them expects them, sent on to
    /// what it awaits (`sent(_:)`).
    @inlinable @inline(__always)
    static func arguments<Arguments>(_ arguments: Any, as type: Arguments.Type) throws(InjectionError) -> sending Arguments {
        sent(try Prefetched.cast(arguments, as: Arguments.self) { mismatch(Arguments.self) })
    }

    /// Awaits the step with the arguments its plan gathered.
    @inline(__always) nonisolated(nonsending)
    func awaited(in section: AsyncSection) async throws -> Any {
        try await step(section, arguments)
    }

    /// The arguments of a build were not those its step expects.
    @usableFromInline
    static func mismatch<Arguments>(_ type: Arguments.Type) -> InjectionError {
        InjectionError(.internalInconsistency(.argumentPlanType(expected: "\(Arguments.self)")))
    }
}

/// The step of an `async` build: it awaits the initializer, closure or provider with the
/// arguments its plan gathered, and runs where its caller runs (on the generic executor, or a
/// task's preferred one: every plan runs under `Injector.awaitPlan`). A step on the generic
/// executor of its own switches to it on entry, then back after the call it makes; this one only
/// switches back after that call: one executor switch less per build, which is about 250
/// instructions under a task executor preference (`async-graph` 20,061 → 19,315 for three).
/// Its parameter is not `sending`: a closure literal takes its parameters borrowed, and a
/// `sending` one owned, so every step would be called through a thunk, one async frame more.
@usableFromInline
typealias AsyncStep = nonisolated(nonsending) @Sendable (AsyncSection, Any) async throws -> Any

/// The `async` build of a node that awaits nothing before its own: its arguments gathered in a
/// section, then its step awaited. Run in place by the section that awaits the node as a leaf
/// (`AnyNode.leafBuild`), one async frame less per leaf than through the node's plan.
final class AwaitedStep: Sendable {
    let plan: Plan<AsyncBuild>
    let handsOutResolver: Bool
    /// Awaits `body`, the step, with the build recorded in the task's chain of builds
    /// (`AwaitedReentry.enter`, made where the node is linked).
    let recorded: @Sendable (_ body: () async throws -> Any) async throws -> Any

    init(plan: @escaping Plan<AsyncBuild>, handsOutResolver: Bool,
         recorded: @escaping @Sendable (_ body: () async throws -> Any) async throws -> Any) {
        self.plan = plan
        self.handsOutResolver = handsOutResolver
        self.recorded = recorded
    }

    /// The key is being built in this task and the tasks it starts: asking for it again there
    /// with nothing new to build from could only await itself; with creation-time arguments it
    /// recurses. Only what the build was handed can ask while it awaits: a resolver, or a
    /// `Lazy`, `Factory` or injector among its arguments, each of which marks its section
    /// (`AsyncSection.runNotingWayBack`). A build handed none of them is not recorded: nothing
    /// it holds can reach the injector.
    @inline(__always) nonisolated(nonsending)
    func value(in section: AsyncSection) async throws -> Any {
        var wayBack = false
        let step = try section.runNotingWayBack(&wayBack) { resolution in try plan(&resolution) }
        guard wayBack || handsOutResolver else { return try await step.awaited(in: section) }
        return try await recorded { try await step.awaited(in: section) }
    }
}

/// How a consumer's section awaits a node kept by no scope whose own build is `async`, with no
/// async frame of the node's own: the build run in place when it awaits nothing before its own,
/// else the build's plan, its value untyped (`AnyNode.leafValue`).
enum LeafBuild: Sendable {
    case inPlace(AwaitedStep)
    case plan(AsyncPlan<Any>)
}

extension AnyNode {
    /// The node's value, awaited as a leaf of a consumer's section: by its own build
    /// (`leafBuild`), else a value a scope stored, else through `awaitedValue`.
    @inline(__always) nonisolated(nonsending)
    func leafValue(_ request: AsyncRequest) async throws -> Any {
        switch leafBuild {
        case .inPlace(let own)?:
            return try await own.value(in: AsyncSection(request: request, prefetched: nil))
        case .plan(let build)?:
            return try await build(request)
        case nil:
            if let value = storedValue() { return value }
            return try await awaitedValue(request).value
        }
    }
}

/// What follows an `async` initializer in its own step, once it returns: setting the properties
/// and awaking, run synchronously in the section; one async frame less per build than a step
/// wrapped around the initializer's.
@usableFromInline
typealias AsyncFinish<Value> = @Sendable (inout Value, AsyncSection) throws -> Void

/// A dependency that awaits in place (`AnyNode.awaitsInPlace`), which a section's plans read:
/// one of the section's node's own dependencies, or one reached through dependencies that need
/// `await` only because of what they build at once. Those build in the section itself, as a
/// synchronous request builds them: only the values that can suspend are awaited before it.
struct AwaitedLeaf: Sendable {
    let node: AnyNode
    /// Which node's own dependencies the leaf is one of, numbered within one section: two or
    /// more of one node's are awaited at the same time.
    let group: Int
    /// The first node between the section's node and the leaf (one of the section's node's own
    /// dependencies), and which of its leaves this one is; `nil` for a leaf that is one of them.
    /// The nodes between put their keys on the path of the leaf's failure, as each would had
    /// it awaited the leaf itself, and on the path an observer is told of the leaf's build.
    ///
    /// One step, not the whole way: the nodes of a long chain (of aliases, say) each have the
    /// leaf at its end, and a way copied into each would grow with the chain, for every node of
    /// it. The way is walked only when a failure or an observer needs it.
    let via: (node: AnyNode, leaf: Int)?

    /// The nodes between the section's node and the leaf, outermost first.
    private var between: [AnyNode] {
        var nodes: [AnyNode] = []
        var step = via
        while let (node, leaf) = step {
            nodes.append(node)
            step = node.awaitedLeaves[leaf].via
        }
        return nodes
    }

    /// The keys of the nodes between the section's node and the leaf, outermost first.
    var keys: [AnyKey] { between.map(\.key) }

    /// The leaves a section of a node with these dependencies that need `await` awaits, in the
    /// order its plans read them.
    static func leaves(of dependencies: [AnyNode]) -> [AwaitedLeaf] {
        var leaves: [AwaitedLeaf] = []
        var nextGroup = 1
        for dependency in dependencies {
            guard !dependency.awaitsInPlace else {
                leaves.append(AwaitedLeaf(node: dependency, group: 0, via: nil))
                continue
            }
            var groups = 0
            for (index, leaf) in dependency.awaitedLeaves.enumerated() {
                leaves.append(AwaitedLeaf(node: leaf.node, group: nextGroup + leaf.group, via: (dependency, index)))
                groups = max(groups, leaf.group + 1)
            }
            nextGroup += groups
        }
        return leaves
    }

    /// The leaf's failure, as the section's node reports it.
    func failure(_ error: any Error, _ rethrow: @Sendable (any Error) -> InjectionError) -> InjectionError {
        var error = error
        for node in between.reversed() { error = node.rethrowingLeaves(error) }
        return rethrow(error)
    }
}

/// What one section awaits before it runs: the leaves of its node's dependencies that need
/// `await` (`AwaitedLeaf`), in the order its plans read them.
///
/// Concurrency is paid for only where it can happen. A leaf whose value a scope has stored is
/// read at once. The others are the values that can suspend (an `async` build, a value a scope
/// keeps, one built on an actor): when two or more of one node's own dependencies are not
/// stored yet, the first is awaited in this task and each further one in a child task of its
/// own (an `async let` for two, a task group beyond), so that they run at the same time. A graph
/// where no node has two such dependencies awaits its leaves one after the other, in this task.
struct AwaitedDependencies: Sendable {
    /// The node's own dependencies that need `await`, read when the node is linked.
    let nodes: [AnyNode]
    let leaves: [AwaitedLeaf]
    /// Whether some node has two or more leaves of its own: only then can any two be awaited at
    /// the same time.
    private let mayOverlap: Bool
    /// How `areReady` is decided, from the leaves' readiness when the node is linked.
    private let readiness: Readiness
    /// How `areSettled` is decided, from the leaves' `settledReadiness`; `nil` when it is
    /// decided as `areReady` is (no leaf is a kept value built synchronously).
    private let settled: Readiness?
    /// The section's node while the injector has observers: the path they are told of a leaf's
    /// build goes through it (`RequestFrame.awaitedPath`). A reference, `nil` without observers:
    /// a plan that copies these dependencies copies one word more, not a key.
    private let observing: ObservedSection?

    /// The key of a section's node whose leaves' builds are observed.
    final class ObservedSection: Sendable {
        let key: AnyKey
        init(_ key: AnyKey) { self.key = key }
    }

    /// Whether every leaf is ready: always; once the storage of the one leaf that is not
    /// (the common case: a singleton that needs `await`) holds its value; once every such
    /// storage does; or only by asking each leaf.
    private enum Readiness {
        case always
        case stored(InstanceStorage)
        case allStored(ContiguousArray<InstanceStorage>)
        case asked
    }

    init(nodes: [AnyNode], observing: AnyKey? = nil) {
        self.nodes = nodes
        self.observing = observing.map(ObservedSection.init)
        leaves = AwaitedLeaf.leaves(of: nodes)
        var counts: [Int: Int] = [:]
        for leaf in leaves { counts[leaf.group, default: 0] += 1 }
        mayOverlap = counts.values.contains { $0 > 1 }
        readiness = Self.readiness(leaves.map(\.node.readiness))
        let differs = leaves.contains { $0.node.settlesApart }
        settled = differs ? Self.readiness(leaves.map(\.node.settledReadiness)) : nil
    }

    /// How every one of the leaves is decided, from how each is.
    private static func readiness(_ each: [AnyNode.Readiness]) -> Readiness {
        var storages: ContiguousArray<InstanceStorage>? = []
        for readiness in each {
            switch readiness {
            case .always: continue
            case .stored(let storage): storages?.append(storage)
            case .asked: storages = nil
            }
        }
        return switch storages {
        case nil: .asked
        case let storages? where storages.isEmpty: .always
        case let storages? where storages.count == 1: .stored(storages[0])
        case let storages?: .allStored(storages)
        }
    }

    var isEmpty: Bool { leaves.isEmpty }

    /// The storage whose value makes every leaf ready, when there is exactly one: a plan checks
    /// it in place of `areReady`, capturing it alone (measured: a plan capturing these
    /// dependencies, or only their `Readiness`, and switching over it pays 14–23 instructions
    /// more on `server`).
    var onlyStorage: InstanceStorage? {
        if case .stored(let storage) = readiness { return storage }
        return nil
    }

    /// Whether every leaf's value can be had synchronously now for a request of `injector` (a
    /// leaf kept per child of a template is ready once that child holds it).
    func areReady(in injector: Injector) -> Bool {
        switch readiness {
        case .always: true
        case .stored(let storage): storage.isFilled
        case .allStored(let storages): storages.allSatisfy { $0.isFilled }
        case .asked: leaves.indices.allSatisfy { leaves[$0].node.canBuildSynchronously(in: injector) }   // no copy of each leaf
        }
    }

    /// Whether some leaf is a kept value built synchronously, which `areSettled` counts only once
    /// stored.
    var settlesApart: Bool { settled != nil }

    /// Whether an awaited request may build the section's node synchronously now, with no
    /// `await` (`AnyNode.isReady`): as `areReady`, with a kept value built synchronously counted
    /// only once it is stored.
    func areSettled(in injector: Injector) -> Bool {
        switch settled {
        case nil: areReady(in: injector)
        case .always?: true
        case .stored(let storage)?: storage.isFilled
        case .allStored(let storages)?: storages.allSatisfy { $0.isFilled }
        case .asked?: leaves.indices.allSatisfy { leaves[$0].node.isReady(in: injector) }
        }
    }

    /// Awaits every leaf; the failures of all of them are reported together, each with its
    /// path from the section's node (`rethrow` puts its key on the path).
    nonisolated(nonsending)
    func values(_ request: AsyncRequest, rethrow: @Sendable (any Error) -> InjectionError) async throws -> Prefetched? {
        if leaves.isEmpty { return nil }
        let dependency = request.withoutArguments
        if let observing { return try await observedValues(dependency, observing.key, rethrow: rethrow) }
        let apart = mayOverlap ? pending() : nil
        if apart == nil {
            let values = Prefetched.make(capacity: leaves.count)
            var problems: [InjectionError.Problem] = []
            // By index: a copy of each leaf would retain and release what it holds.
            for index in leaves.indices {
                let node = leaves[index].node
                do {
                    values.append(Prefetched.Entry(node.key, try await node.leafValue(dependency)))
                } catch {
                    problems += leaves[index].failure(error, rethrow).problems
                }
            }
            if let error = InjectionError(problems: problems) { throw error }
            return values
        }
        return try await overlapping(apart ?? [], dependency, rethrow: rethrow)
    }

    /// The leaves to await in child tasks: for each node with two or more leaves not stored,
    /// all of those but its first; `nil` when there are none.
    private func pending() -> Set<Int>? {
        var firstOfGroup: Set<Int> = []
        var others: Set<Int> = []
        for (index, leaf) in leaves.enumerated() where leaf.node.storage?.isFilled != true {
            if firstOfGroup.insert(leaf.group).inserted { continue }
            others.insert(index)
        }
        return others.isEmpty ? nil : others
    }

    /// Awaits the leaves, those `pending()` names in child tasks.
    nonisolated(nonsending)
    private func overlapping(
        _ apart: Set<Int>, _ dependency: AsyncRequest, rethrow: @Sendable (any Error) -> InjectionError
    ) async throws -> Prefetched {
        var results = [Result<Transfer<Any>, any Error>?](repeating: nil, count: leaves.count)
        if apart.count == 1, let other = apart.first {
            let node = leaves[other].node
            async let awaited = Self.outcome(of: node, dependency)
            for index in leaves.indices where index != other {
                results[index] = await Self.outcome(of: leaves[index].node, dependency)
            }
            results[other] = await awaited
        } else {
            // Each branch writes its outcome into its own slot: no result crosses the group.
            let outcomes = Outcomes(count: leaves.count)
            let leaves = leaves
            await withTaskGroup(of: Void.self) { group in
                for index in apart {
                    let node = leaves[index].node
                    group.addTask { outcomes.set(index, await Self.outcome(of: node, dependency)) }
                }
                for index in leaves.indices where !apart.contains(index) {
                    outcomes.set(index, await Self.outcome(of: leaves[index].node, dependency))
                }
            }
            for (index, outcome) in outcomes.all.enumerated() where outcome != nil { results[index] = outcome }
        }
        return try Self.prefetched(leaves, results, rethrow: rethrow)
    }

    /// The values awaited for `leaves`, in order, or every failure among them together.
    @inline(__always)
    private static func prefetched(
        _ leaves: [AwaitedLeaf], _ results: [Result<Transfer<Any>, any Error>?], rethrow: @Sendable (any Error) -> InjectionError
    ) throws -> Prefetched {
        let values = Prefetched.make(capacity: leaves.count)
        var problems: [InjectionError.Problem] = []
        for (leaf, result) in zip(leaves, results) {
            switch result {
            case .success(let value)?: values.append(Prefetched.Entry(leaf.node.key, value.value))
            case .failure(let error)?: problems += leaf.failure(error, rethrow).problems
            case nil: break
            }
        }
        if let error = InjectionError(problems: problems) { throw error }
        return values
    }

    /// Awaits one leaf's value, its failure kept as an outcome.
    nonisolated(nonsending)
    private static func outcome(of node: AnyNode, _ request: AsyncRequest) async -> Result<Transfer<Any>, any Error> {
        do {
            return unsafe .success(Transfer(try await node.leafValue(request)))
        } catch {
            return .failure(error)
        }
    }

    /// `values` while the injector has observers: each leaf awaited as there (those `pending()`
    /// names in child tasks), with the path of its build, as observers are told it, running
    /// from the section's node `observing` through the nodes between them
    /// (`RequestFrame.awaitedPath`). Apart from `values`, which pays nothing for it.
    nonisolated(nonsending)
    private func observedValues(
        _ dependency: AsyncRequest, _ observing: AnyKey, rethrow: @Sendable (any Error) -> InjectionError
    ) async throws -> Prefetched {
        let path = RequestFrame.awaitedPath + [observing]
        let apart = mayOverlap ? pending() ?? [] : []
        let outcomes = Outcomes(count: leaves.count)
        let leaves = leaves
        await withTaskGroup(of: Void.self) { group in
            for index in apart {
                let leaf = leaves[index]
                group.addTask { outcomes.set(index, await Self.observedOutcome(of: leaf, dependency, path: path)) }
            }
            for index in leaves.indices where !apart.contains(index) {
                outcomes.set(index, await Self.observedOutcome(of: leaves[index], dependency, path: path))
            }
        }
        return try Self.prefetched(leaves, outcomes.all, rethrow: rethrow)
    }

    /// Awaits one leaf's value with `path` and the keys between the section's node and it as the
    /// path of the builds it runs inside, its failure kept as an outcome.
    nonisolated(nonsending)
    private static func observedOutcome(
        of leaf: AwaitedLeaf, _ request: AsyncRequest, path: [AnyKey]
    ) async -> Result<Transfer<Any>, any Error> {
        await RequestFrame.$awaitedPath.withValue(path + leaf.keys) {
            do {
                return unsafe .success(Transfer(try await leaf.node.leafValue(request)))
            } catch {
                return .failure(error)
            }
        }
    }
}

extension Injector {
    /// Runs an async plan outside the caller's isolation, handing its value back: nothing else
    /// holds it (the plan and the request are `Sendable`), so it is sent, with no box whose
    /// generic type the runtime would look up on every request. Inlined where the request is
    /// made: the switch to the generic executor stays, the async frame of its own goes.
    @inline(__always) nonisolated func awaitPlan<Value>(_ plan: AsyncPlan<Value>, _ request: AsyncRequest) async throws -> sending Value {
        try await plan(request)
    }
}

/// The outcomes of the branches of one `AwaitedDependencies.values`, one slot per branch.
final class Outcomes: Sendable {
    private let slots: Locked<[Result<Transfer<Any>, any Error>?]>

    init(count: Int) {
        slots = Locked(Array(repeating: nil, count: count))
    }

    func set(_ index: Int, _ outcome: Result<Transfer<Any>, any Error>) {
        slots.withLock { $0[index] = outcome }
    }

    var all: [Result<Transfer<Any>, any Error>?] { slots.withLock { $0 } }
}
