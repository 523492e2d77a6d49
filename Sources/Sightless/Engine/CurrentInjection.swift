import Synchronization

/// The injector that a dependency read where it stands (an `Injected` property, an
/// `Injection`) resolves from, current for a task: bound while an injector awaits a value whose
/// type reads dependencies where they stand, and for the bodies of `withChild`, `withOverrides`
/// and `withCurrent`. A synchronous build is current for its thread instead (`ThreadBuild`), and
/// comes first. Outside all of them, a read finds the injector the app chose for the process
/// (`ProcessInjector`), or none.
struct CurrentInjection: Sendable {
    /// The injector reads resolve from.
    let injector: Injector
    /// While an injector builds a value: what the reads made during that build found, so that
    /// the build throws when one of them failed. `nil` for a scope that builds nothing.
    let build: BuildReads?
    /// While a scope collects what reads with a default value could not resolve: those
    /// failures, thrown when the scope ends (`withOverrides`).
    let reported: ReportedReads?

    init(injector: Injector, build: BuildReads? = nil, reported: ReportedReads? = nil) {
        self.injector = injector
        self.build = build
        self.reported = reported
    }

    /// The scope current for this task (or, outside a task, this thread), if any. A value, so
    /// that binding one allocates nothing beyond the task-local binding itself.
    @TaskLocal static var current: CurrentInjection?

    /// Runs `body` with this scope current, where the caller runs.
    @inline(__always) nonisolated(nonsending)
    func bound<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        try await Self.$current.withValue(self, operation: body, isolation: #isolation)
    }

    /// Runs `body` with this scope current, and no synchronous build current on the thread:
    /// bound inside one (a `withCurrent` body an initializer runs), it is the innermost.
    @inline(__always)
    func bound<Result>(_ body: () throws -> Result) rethrows -> Result {
        try ThreadBuild.outside { try Self.$current.withValue(self, operation: body) }
    }

    /// The scope a read finds: the synchronous build running on this thread, the innermost bound
    /// one, or the one made of the process's injector; `nil` when none exists.
    static var found: CurrentInjection? {
        if let build = ThreadBuild.current { return CurrentInjection(injector: build.injector, build: build) }
        if let current { return current }
        return ProcessInjector.chosen.map { CurrentInjection(injector: $0) }
    }
}

/// What the dependencies read where they stand found while one value was built: the first
/// failure, which the build throws once the value's own build returned.
final class BuildReads: Sendable {
    /// The injector the value is built for, which its reads resolve from.
    let injector: Injector
    /// Made on the first failure: most builds fail none, and a first build of every node makes
    /// one of these (a chain of 50,000 closures asking for new keys makes 50,000).
    private let failures = AtomicLazyReference<ReportedReads>()
    private let reads = Atomic<Bool>(false)

    init(injector: Injector) {
        self.injector = injector
    }

    /// Records that a read was made during the build.
    func noteRead() { reads.store(true, ordering: .relaxed) }

    /// Whether any read was made during the build.
    var sawReads: Bool { reads.load(ordering: .relaxed) }

    /// Records a read's failure, thrown by the build.
    func fail(_ error: InjectionError) {
        (failures.load() ?? failures.storeIfNil(ReportedReads())).report(error)
    }

    /// The failures recorded, in the order the reads were made, as one error.
    var thrownFailures: InjectionError? { failures.load()?.thrown }
}

/// Failures of reads where they stand, kept to be thrown together: by a build, of its reads;
/// by a scope that reports them (`withOverrides`), of the reads that fell back to their default.
final class ReportedReads: Sendable {
    private let failures = Locked<[InjectionError]>([])

    init() {}

    func report(_ error: InjectionError) { failures.withLock { $0.append(error) } }

    var recorded: [InjectionError] { failures.withLock { $0 } }

    /// The failures as one error, or `nil` when there were none.
    var thrown: InjectionError? { InjectionError(problems: recorded.flatMap(\.problems)) }
}

/// Whether the values of one node read dependencies where they stand: not known before its
/// first build, which finds out; remembered so that a node whose values read none is built with
/// nothing bound from then on.
@usableFromInline
final class StandingReadsPresence: Sendable {
    private static let unknown = 0, present = 1, absent = 2
    /// 0: not known yet; 1: its values read; 2: they read nothing. An `Atomic<Int>`, as the
    /// injector's own counters are: the runtime has made its metadata before any node is linked,
    /// where an `Atomic<UInt8>` made it then, checking its conformance on the stack of the
    /// thread compiling (more than a 64 KiB thread holds under AddressSanitizer).
    @usableFromInline let state = Atomic<Int>(StandingReadsPresence.unknown)

    @usableFromInline
    init() {}

    /// Whether a build must bind a scope for the reads of the value it builds: read by the plan
    /// of every build of an initializer of fixed arity, where it is specialized, so that a type
    /// that reads nothing pays one load for it (`graph` 7,761 instructions → 8,225 through a
    /// plan wrapped around the build, 16 builds).
    @inlinable @inline(__always) var mayRead: Bool { state.load(ordering: .relaxed) != 2 }

    /// Runs `body`, a synchronous build, current for this thread (`ThreadBuild`) so that the
    /// reads of the value it builds resolve from the injector it is built for, inside this
    /// request; a failure among them is thrown through `rethrow`, on the path of the node being
    /// built. Nothing is published for the reads: a read is a request of its own, as an
    /// initializer's request of an injector is, so that a build means the same whether or not
    /// its type was found to read (a value reading itself ends as such a request does).
    @usableFromInline @inline(never)
    func reading<Value>(
        _ resolution: inout Resolution, rethrow: (any Error) -> InjectionError,
        _ body: (inout Resolution) throws -> Value
    ) throws -> Value {
        let reads = BuildReads(injector: resolution.handedInjector)
        let hidden = ThreadBuild.enter(reads)
        let value: Value
        do {
            defer { ThreadBuild.leave(restoring: hidden) }
            value = try body(&resolution)
        }
        record(sawReads: reads.sawReads)
        if let error = reads.thrownFailures { throw rethrow(error) }
        return value
    }

    /// Records what one build found. A node once seen reading stays so: a factory that
    /// returns values of several types binds a scope for each of them.
    func record(sawReads: Bool) {
        if sawReads {
            state.store(Self.present, ordering: .relaxed)
        } else {
            _ = state.compareExchange(expected: Self.unknown, desired: Self.absent, ordering: .relaxed)
        }
    }
}

/// The injector the app chose, explicitly and once, for the code of the process that no
/// injector builds and no scope reaches (a view the UI framework makes, say).
enum ProcessInjector {
    private static let slot = Locked<(injector: Injector, location: SourceLocation)?>(nil)

    /// The injector chosen, if one was.
    static var chosen: Injector? { slot.withLock { $0?.injector } }

    /// Chooses `injector`, once: a second choice throws, naming where the first was made.
    static func choose(_ injector: Injector, at location: SourceLocation) throws(InjectionError) {
        let earlier: SourceLocation? = slot.withLock { chosen in
            if let chosen { return chosen.location }
            chosen = (injector, location)
            return nil
        }
        if let earlier {
            throw InjectionError(.processInjectorChosen(earlier: earlier), path: [], location: location)
        }
    }

    /// Forgets the chosen injector, so that a process's tests may choose one each; returns it.
    static func clear() -> Injector? {
        slot.withLock { chosen in
            defer { chosen = nil }
            return chosen?.injector
        }
    }
}

extension StandingReadsPresence {
    /// `build`, binding a scope for the dependencies its values read where they stand, for as
    /// long as its values may read any: the first stage of every binding kind that builds
    /// values, before decorators and observers see the value.
    static func collecting<Value>(
        _ build: LinkedBuild<Value>, key: AnyKey, presence: StandingReadsPresence = StandingReadsPresence()
    ) -> LinkedBuild<Value> {
        switch build {
        case .synchronous(let plan):
            return .synchronous { resolution in
                guard presence.mayRead else { return try plan(&resolution) }
                return try presence.reading(&resolution, rethrow: { InjectionError.wrap($0, at: key) }, plan)
            }
        case .awaited(let plan):
            return .awaited { resolution in
                let gathered = try plan(&resolution)
                guard presence.mayRead else { return gathered }
                let injector = resolution.handedInjector
                let step: AsyncStep = { section, arguments in
                    let inner = try AsyncBuild.arguments(arguments, as: AsyncBuild.self)
                    let reads = BuildReads(injector: injector)
                    let value = try await CurrentInjection(injector: injector, build: reads).bound {
                        try await inner.awaited(in: section)
                    }
                    return try presence.finish(reads, value, key: key)
                }
                return AsyncBuild(step, arguments: gathered)
            }
        }
    }

    /// Remembers whether the build read anything, and throws what its reads failed with, on
    /// the path through `key`.
    private func finish<Value>(_ reads: BuildReads, _ value: Value, key: AnyKey) throws -> Value {
        record(sawReads: reads.sawReads)
        if let error = reads.thrownFailures { throw error.prepending(key) }
        return value
    }
}
