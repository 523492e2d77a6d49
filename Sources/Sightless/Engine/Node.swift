/// A key of the compiled graph, linked to the nodes of its dependencies.
@usableFromInline
class AnyNode {
    @usableFromInline let key: AnyKey
    /// The identity of the type of the values the node produces: a `Node<Value>` has
    /// `ObjectIdentifier(Value.self)`. Checked before the node is used as one.
    @usableFromInline let valueType: ObjectIdentifier
    /// The dynamic arguments a request for this key must bring, or `nil`.
    @usableFromInline let signature: DynamicSignature?
    /// Where a storing scope keeps the instance, read directly once it exists: the fast path of
    /// requests, handles and initializer arguments, with no closure call. Its `valueType` is
    /// always the node's (`init` keeps no storage of another type).
    @usableFromInline let storage: InstanceStorage?
    /// The actor the node's value is built on, or `nil` for a nonisolated one: the graph's
    /// decision (see `IsolatedRecipe.swift`).
    var isolation: ActorIsolation? { meaning.isolation }
    /// What the graph decided for the node (`Meaning`); set when the node is linked, before
    /// anything reads it.
    var meaning = Meaning.plain

    /// Builds the node's value once and drops it: what an eager scope asks when the injector is
    /// built, its value then kept by the scope.
    func prime(_ injector: Injector) throws(InjectionError) {}

    /// The key whose `async` build makes this node need `await` (the node's own, or one it
    /// depends on), or `nil` when the node is built synchronously.
    var awaited: AnyKey? { nil }

    /// The actor whose values alone make the node need `await`, so that off that actor a
    /// synchronous request is told it is off the actor, not that something is `async`: the
    /// node's own, for a value built on an actor that awaits nothing else, or the one its
    /// awaited dependencies all come down to. `nil` when anything else needs `await`.
    var awaitedActor: ActorIsolation? {
        guard let isolation, awaited == key else { return nil }
        return isolation
    }

    /// Whether awaiting the node's value can suspend where it is awaited: its own build is
    /// `async`, a scope keeps its value (another task may be building it), or it is built on an
    /// actor. A node that needs `await` only because of what it builds at once awaits nothing
    /// itself: a consumer's section awaits its leaves instead and builds it synchronously (see
    /// `AwaitedLeaf`). Read from the graph's decision (`Meaning`).
    var awaitsInPlace: Bool {
        guard let awaited else { return false }
        return awaited == key || meaning.owner != .none || meaning.isolation != nil || awaitedLeaves.isEmpty
    }

    /// Whether the node's value can be built synchronously now for a request of `injector`:
    /// always for a node that needs no `await`; for one that does, once its value is stored, or
    /// once everything it awaits is. A value kept per child of a template is stored in the child
    /// running the request (such a node has no storage of its own).
    ///
    /// A kept value built synchronously is ready so once what it awaits is stored, though an
    /// awaited request may be building it then (it claimed the build before): a synchronous
    /// build that reaches it fails with `needsAwait`, which a synchronous request reports.
    func canBuildSynchronously(in injector: Injector) -> Bool { true }

    /// Whether an awaited request may build the node's value synchronously now, with no
    /// `await`: as `canBuildSynchronously`, except that a kept value built synchronously counts
    /// only once it is stored. An awaited request that built synchronously and then met such a
    /// value under an awaited build would have to await after all, and build again what it had
    /// built before meeting it (an unscoped consumer, say); it awaits from the start instead.
    @usableFromInline func isReady(in injector: Injector) -> Bool { true }

    /// How `canBuildSynchronously` is decided, for a section that asks on every synchronous
    /// request.
    var readiness: Readiness { .always }

    /// How `isReady` is decided, for an awaited request's section.
    var settledReadiness: Readiness { readiness }

    /// Whether `isReady` is decided otherwise than `canBuildSynchronously`.
    var settlesApart: Bool { false }

    /// How a node that needs `await` answers `isReady`, where it differs from
    /// `canBuildSynchronously`.
    enum Settled: Sendable {
        /// As `canBuildSynchronously`.
        case asReady
        /// Only once its value is stored (in the child running the request, for a value kept
        /// per child of a template): a kept value built synchronously.
        case whenStored
        /// By asking: a node whose dependencies include a kept value built synchronously.
        case asked(@Sendable (Injector) -> Bool)
    }

    /// How a node's `canBuildSynchronously` or `isReady` is decided, known when it is linked.
    enum Readiness {
        /// It needs no `await`.
        case always
        /// Once its storage holds its value, and not before.
        case stored(InstanceStorage)
        /// Only by asking the node.
        case asked
    }

    /// For a node that needs `await` only because of what it builds at once: the leaves its
    /// dependencies await (`AwaitedLeaf`), which a consumer's section awaits in its place.
    var awaitedLeaves: [AwaitedLeaf] { [] }

    /// Puts the node's key on the path of a failure of one of its `awaitedLeaves`.
    var rethrowingLeaves: @Sendable (any Error) -> InjectionError {
        let key = key
        return { error in InjectionError.wrap(error, at: key) }
    }

    /// For a node kept by no scope whose own build is `async`: that build, which a consumer's
    /// section awaits with no frame of the node's own (`leafValue`).
    let leafBuild: LeafBuild?

    /// The value a scope has stored for the node, if any: read with no `await`.
    func storedValue() -> Any? { nil }

    /// Awaits the node's value (see `AsyncPlan`), for a consumer that awaits it.
    nonisolated(nonsending)
    func awaitedValue(_ request: AsyncRequest) async throws -> Transfer<Any> {
        throw InjectionError(.internalInconsistency(.notLinked(key: key)), path: [key])
    }

    init(
        key: AnyKey, valueType: ObjectIdentifier, signature: DynamicSignature?, storage: InstanceStorage?,
        leafBuild: LeafBuild? = nil
    ) {
        self.leafBuild = leafBuild
        self.key = key
        self.valueType = valueType
        self.signature = signature
        self.storage = storage?.valueType == valueType ? storage : nil
    }
}

/// A node that produces values of one type. Its plan is immutable once linked, so any thread
/// may run it.
@usableFromInline
final class Node<Value>: AnyNode {
    @usableFromInline let plan: Plan<Value>
    /// For an unscoped node isolated to the main actor, built by a main-actor initializer and
    /// nothing around it: the plan a main-actor consumer's region runs in place of `plan`, with
    /// no check of the main actor and no `MainActor.assumeIsolated` of its own (its consumer's
    /// region is on the main actor, as the compiler knows); `nil` for every other node. Set
    /// once, while the node is linked, before any consumer links it.
    var mainActorPlan: MainActorPlan<Value>?
    /// How the value is awaited, when the node needs `await`; see `AsyncPlan`.
    let asyncPlan: AsyncPlan<Value>?
    private let awaitedKey: AnyKey?
    /// See `awaitedActor`: the actor the node's awaited dependencies all come down to.
    private let dependenciesActor: ActorIsolation?
    /// For a node that needs `await`: whether what it awaits is stored, so that its own
    /// synchronous plan can run.
    private let awaitedReady: (@Sendable (Injector) -> Bool)?
    /// How consumers decide `isReady` when the node says so itself: a kept value built
    /// synchronously once the one storage it awaits is filled is ready with that storage.
    private let decidedReadiness: Readiness?
    /// How `isReady` differs from `canBuildSynchronously`, if it does.
    private let settled: Settled
    /// For a value kept per child of a template: whether the child running a request holds it.
    private let childHolds: (@Sendable (Injector) -> Bool)?
    private let leaves: [AwaitedLeaf]
    private let leavesRethrow: (@Sendable (any Error) -> InjectionError)?
    /// For a node built in its consumer's section from leaves it awaits for it (`AwaitedLeaf`):
    /// its plan without the check that those leaves are stored or awaited. A consumer that makes
    /// that check for them, before its own plan runs, runs this one (`Linking.guardsAwaited`).
    let coveredPlan: Plan<Value>?

    override func prime(_ injector: Injector) throws(InjectionError) {
        _ = try injector.run(self)
    }

    override var awaited: AnyKey? { awaitedKey }

    override var awaitedActor: ActorIsolation? { dependenciesActor ?? super.awaitedActor }

    override var awaitedLeaves: [AwaitedLeaf] { leaves }

    override var rethrowingLeaves: @Sendable (any Error) -> InjectionError { leavesRethrow ?? super.rethrowingLeaves }

    override func storedValue() -> Any? {
        guard let storage, let value = storage.existing(as: Value.self) else { return nil }
        return value
    }

    override func canBuildSynchronously(in injector: Injector) -> Bool {
        guard asyncPlan != nil else { return true }
        if let storage, storage.isFilled { return true }
        if awaitedReady?(injector) == true { return true }
        return childHolds?(injector) ?? false
    }

    @usableFromInline override func isReady(in injector: Injector) -> Bool {
        guard asyncPlan != nil else { return true }
        if let storage, storage.isFilled { return true }
        switch settled {
        case .asReady: if awaitedReady?(injector) == true { return true }
        case .whenStored: break
        case .asked(let isSettled): if isSettled(injector) { return true }
        }
        return childHolds?(injector) ?? false
    }

    override var readiness: Readiness {
        guard asyncPlan != nil else { return .always }
        if let decidedReadiness { return decidedReadiness }
        if awaitedReady == nil, let storage { return .stored(storage) }
        return .asked
    }

    override var settlesApart: Bool {
        if case .asReady = settled { return false }
        return true
    }

    override var settledReadiness: Readiness {
        guard asyncPlan != nil else { return .always }
        switch settled {
        case .asReady: return readiness
        case .whenStored: return storage.map { .stored($0) } ?? .asked
        case .asked: return .asked
        }
    }

    nonisolated(nonsending)
    override func awaitedValue(_ request: AsyncRequest) async throws -> Transfer<Any> {
        if let value = storage?.existing(as: Value.self) { return unsafe Transfer(value) }
        guard let asyncPlan else {
            return unsafe Transfer(try AsyncSection(request: request, prefetched: nil).run { resolution in try plan(&resolution) })
        }
        return unsafe Transfer(try await asyncPlan(request))
    }

    init(_ provision: Provision<Value>, signature: DynamicSignature?) {
        self.plan = provision.plan
        self.asyncPlan = nil
        self.awaitedKey = nil
        self.dependenciesActor = nil
        self.awaitedReady = nil
        self.decidedReadiness = nil
        self.settled = .asReady
        self.childHolds = nil
        self.leaves = []
        self.leavesRethrow = nil
        self.coveredPlan = nil
        super.init(key: provision.key, valueType: ObjectIdentifier(Value.self), signature: signature,
                   storage: provision.storage)
    }

    // Not optional parameters of the one above: an async plan always comes with its reason.
    /// A node that needs `await` because of `awaited`; `actor` when its awaited dependencies all
    /// come down to values of that actor.
    init(
        _ provision: Provision<Value>, signature: DynamicSignature?, asyncPlan: @escaping AsyncPlan<Value>,
        leafBuild: LeafBuild? = nil, awaited: AnyKey, actor: ActorIsolation? = nil,
        ready: (@Sendable (Injector) -> Bool)?, readiness: Readiness? = nil, settled: Settled = .asReady, childHolds: (@Sendable (Injector) -> Bool)? = nil,
        leaves: [AwaitedLeaf] = [], rethrow: (@Sendable (any Error) -> InjectionError)? = nil, coveredPlan: Plan<Value>? = nil
    ) {
        self.plan = provision.plan
        self.asyncPlan = asyncPlan
        self.awaitedKey = awaited
        self.dependenciesActor = actor
        self.awaitedReady = ready
        self.decidedReadiness = readiness
        self.settled = settled
        self.childHolds = childHolds
        self.leaves = leaves
        self.leavesRethrow = rethrow
        self.coveredPlan = leaves.isEmpty ? nil : coveredPlan
        super.init(key: provision.key, valueType: ObjectIdentifier(Value.self), signature: signature,
                   storage: provision.storage, leafBuild: leafBuild)
    }
}
