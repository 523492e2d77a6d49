/// A compiled way to produce one value. Plans call each other directly: no lookup, no cast.
/// `@Sendable`, so the compiler checks that what a plan captures may be shared by every thread
/// that runs it.
@usableFromInline
typealias Plan<Value> = @Sendable (inout Resolution) throws -> Value

/// A plan isolated to the main actor: what a main-actor object's plan runs in its main-actor
/// region, called directly from the region of a main-actor consumer, which needs no other
/// check or entry (see `Node.mainActorPlan`).
@usableFromInline
typealias MainActorPlan<Value> = @MainActor @Sendable (inout Resolution) throws -> Value

/// The state of one request (one `getInstance`, `Lazy.get()`, `Factory.make(…)` or handle call),
/// handed down through every plan it runs.
///
/// A custom scope receives it in ``Provision/get(_:)`` and passes it on; it has nothing to read.
///
/// ```swift
/// Provision(unscoped.key) { resolution in try unscoped.get(&resolution) }
/// ```
public struct Resolution {
    /// The injector resolving; the caller keeps it alive for the whole call.
    @usableFromInline let borrowed: BorrowedInjector
    /// The dynamic arguments of the requested key, or `nil` when the request has none.
    @usableFromInline var arguments: ArgumentBuffer?
    /// What the requests of this injector on this thread are building, once one of them has
    /// handed out a way back in; see `RequestFrame`. Held without reference counting, so that a
    /// request that never publishes one has nothing to release: the request that published the
    /// frame keeps it alive until it ends.
    @usableFromInline var frameReference: UnownedReference<RequestFrame>?
    /// The values of the per-request bindings this request built, from the first one until it
    /// publishes a frame, which keeps them from then on (`requestValues()`). Held without
    /// reference counting, so that a request that builds none has nothing to release: retained
    /// once when made, released when the request ends or hands them to its frame.
    @usableFromInline var valuesReference: UnownedReference<RequestValues>?
    /// The first per-request value this request built, when it is a class instance and no frame
    /// was published: kept here, with no allocation (`RequestObject`), until the request ends
    /// or publishes a frame, which then keeps it.
    @usableFromInline var requestObject: RequestObject?
    /// `true` when this request published `frame` or made `valuesReference`, and so unpublishes
    /// or releases them when it ends.
    @usableFromInline var ownsState = false
    /// `true` while the plan of a node isolated to the main actor runs, once its guard found the
    /// request on the main actor (`Recipe.isolatedNode`): what it builds synchronously below runs
    /// there too, so a main-actor node or initializer below it does not look again. Set and
    /// cleared by that guard alone, around its synchronous plan; a request starts without it.
    @usableFromInline var provenOnMainActor = false
    /// How deep the plans running in this request (and in the requests enclosing it) are
    /// nested; see `StackGuard`.
    @usableFromInline var nesting = Nesting()
    /// While a storing scope builds a value: the injector that keeps it (see `Keeper`).
    @usableFromInline var keeper: Keeper?
    /// For a request with no frame to go on from, the count of such requests on this thread,
    /// which it is one of until it ends; see `ThreadNesting`.
    @usableFromInline var thread: ThreadNestingCell?
    /// In the section of a node that awaited its dependencies, the values awaited for them,
    /// which their synchronous plans take (see `AsyncSection`, which keeps them alive while the
    /// section runs); `nil` elsewhere. Held without reference counting, so that a synchronous
    /// request has nothing more to release.
    @usableFromInline var prefetchedReference: UnownedReference<Prefetched>?

    /// The values awaited for the section this request runs, if any.
    var prefetched: Prefetched? { prefetchedReference?.object }

    /// A request started on this thread with no enclosing request of its injector to go on
    /// from. One started while others run below it on the thread (by an initializer, on an
    /// injector it reached by itself) checks the stack at once: its plans may count no level
    /// before they call that initializer again.
    @inlinable @inline(__always)
    init(injector: Injector, arguments: ArgumentBuffer? = nil) throws(InjectionError) {
        self.borrowed = BorrowedInjector(injector)
        self.arguments = arguments
        let thread = ThreadNestingCell.current(in: injector.threadSlot)
        let record = thread.record
        nesting = Nesting(running: record.running, floor: record.floor, span: record.span)
        if record.running != 0 { try checkFrame() }
        thread.enter()
        self.thread = thread
    }

    var frame: RequestFrame? { frameReference?.object }

    /// The injector resolving.
    @usableFromInline var injector: Injector { borrowed.injector }

    /// The injector to hand to the value being built, as an `Injector`, a ``Resolver``'s, a
    /// `Lazy`'s or a `Factory`'s: the one that keeps it, while a storing scope builds it, else
    /// the one resolving.
    var handedInjector: Injector { keeper?.injector ?? borrowed.injector }

    /// Keeps `value`, a class instance built for `slot`, in this request itself, when it has no
    /// frame and keeps none yet: `false` otherwise, and the caller keeps it in `requestValues()`.
    @inline(__always)
    mutating func keepRequestObject<Value>(_ value: Value, for slot: ObjectIdentifier) -> Bool {
        guard frameReference == nil, requestObject == nil else { return false }
        requestObject = .keeping(value, for: slot)
        ownsState = true
        return true
    }

    /// Unpublishes the frame this request published, if any; called when the request ends.
    @inlinable @inline(__always)
    mutating func end() {
        thread?.leave()
        if ownsState { endState() }
    }
}
