import Sightless
import Synchronization

// The lifecycle of values, in the model suite: how a kept value is closed (its `Closable` or
// `AsyncClosable` `close()`, or a closer its binding gives with `onShutdown`, that awaits or
// not), a close that throws (`closeFailed`), of a decorated value too (the value its scope kept,
// the decorated one, is the one closed), builds that throw their first times and succeed
// later, `withChild` (a child current for a body and shut down after it), and synchronous
// requests over what `Injector.start` built. The generator draws them with a random stream of
// their own, so that the rest of a seed's scenario is drawn as before; the model predicts them
// from the documentation; the runner declares and runs them through the public API.

// MARK: - Declarations

/// How a kept binding's values are closed when their injector shuts down.
enum MClose: String, CaseIterable, Sendable {
    /// `Closable`'s `close()`: both shutdowns close it.
    case closable
    /// `AsyncClosable`'s `close()`: `awaitShutDown()` closes it, `shutDown()` leaves it open.
    case asyncClosable
    /// A closer given with `onShutdown` that does not await, in place of the value's own
    /// `close()`: both shutdowns run it.
    case closer
    /// A closer that awaits, in place of the value's own `close()`: `awaitShutDown()` runs it,
    /// `shutDown()` leaves the value open.
    case asyncCloser

    /// Whether only the awaited shutdown closes it.
    var awaits: Bool { self == .asyncClosable || self == .asyncCloser }
}

/// A scenario's lifecycle declarations, by the label of a binding of `MSpec.bindings` (a label
/// no other binding of the family carries).
struct MLifecycle: Sendable, Equatable {
    /// How each kept binding's values close; `closable` when not named.
    var closing: [String: MClose] = [:]
    /// The bindings whose values' close throws (a `close()` or a closer).
    var failingCloses: Set<String> = []
    /// How many of a binding's first builds throw (counted across the family: a template's
    /// binding, for all its children).
    var failures: [String: Int] = [:]

    func close(of label: String) -> MClose { closing[label] ?? .closable }
}

/// A request a `withChild` body makes of the child.
struct MBodyRequest: Sendable, Equatable {
    var key: String
    var path: MPath
}

/// The lifecycle steps.
enum MLifecycleOp: Sendable, Equatable {
    /// `withChild` makes member `id` of spec `spec` (a template's `withChild(value)`, or
    /// `parent.withChild(modules:overrides:)`), makes the body's requests of it, and shuts it
    /// down: the synchronous form as `shutDown()` does, the `async` form (`isAsync`) as
    /// `awaitShutDown()` does. A body that throws (`bodyThrows`) has its error rethrown, never a
    /// failure to close. The member stays: a request of it is then `injectorShutDown`.
    case withChild(parent: Int, spec: Int, id: Int, requests: [MBodyRequest], isAsync: Bool, bodyThrows: Bool)

    var parent: Int {
        switch self {
        case .withChild(let parent, _, _, _, _, _): parent
        }
    }
}

extension MLifecycleOp: CustomStringConvertible {
    var description: String {
        switch self {
        case .withChild(let parent, let spec, let id, let requests, let isAsync, let bodyThrows):
            let body = requests.map { "request \($0.key) via \($0.path.rawValue)" }.joined(separator: ", ")
            return "m\(id) = \(isAsync ? "try await " : "")withChild of m\(parent) by spec #\(spec) { \(body)\(bodyThrows ? ", then throw" : "") }"
        }
    }
}

/// The error a body throws.
struct MBodyError: Error {}

/// The error a failing build throws.
struct MBuildFailure: Error {
    let label: String
}

/// The error a failing close throws.
struct MCloseFailure: Error {
    let label: String
}

// MARK: - The generator

extension MScenario {
    /// Draws the lifecycle declarations and steps, from a random stream of the seed's own.
    mutating func addLifecycle(seed: UInt64) {
        var random = SplitMix(seed: seed ^ 0x4C49_4645_4359_434C)
        addClosing(random: &random)
        addFailures(random: &random)
        addWithChild(random: &random)
        addStartedRequests(random: &random)
    }

    /// The bindings whose label names them alone, with what the lifecycle may declare of them:
    /// any but an instance, a binding with properties (an `Injectable` type of its own) or the
    /// ring's.
    private var lifecycleCandidates: [(spec: Int, binding: MBinding)] {
        specs.indices.flatMap { index in
            specs[index].bindings.filter { $0.kind != .instance && $0.props.isEmpty && !$0.key.hasPrefix("y") }.map { (index, $0) }
        }
    }

    /// How kept values close, decorated or not: the closer is the binding's, and closes the
    /// value its scope kept, the decorated one; a decorator's value closes as its binding's
    /// values are declared to (`MNode.make(_:_:_:closingAs:)`).
    private mutating func addClosing(random: inout SplitMix) {
        for (_, binding) in lifecycleCandidates where binding.scope.keeps {
            if random.chance(45) { lifecycle.closing[binding.key] = random.pick([MClose.asyncClosable, .closer, .asyncCloser, .closable]) }
            if random.chance(25) { lifecycle.failingCloses.insert(binding.key) }
        }
    }

    /// Builds that fail their first times: of a binding that no eager singleton reaches (an
    /// eager build that fails fails its injector's build, beyond this suite's steps), nor a
    /// request racing another (which task's build fails depends on timing), nor any value that
    /// needs await, but an `async` build nothing else needs (an awaited request awaits what
    /// needs await first, in an order the documentation leaves open, then builds the rest:
    /// which of the other dependencies are built before the failure is not promised).
    private mutating func addFailures(random: inout SplitMix) {
        let excluded = failureExclusions
        for (_, binding) in lifecycleCandidates where !excluded.contains(binding.label) && random.chance(22) {
            lifecycle.failures[binding.key] = 1 + random.below(2)
        }
    }

    /// The scenario without the failing builds it no longer admits (a smaller scenario, whose
    /// override of an eager singleton was dropped, say).
    func keepingEligibleFailures() -> MScenario {
        var scenario = self
        let excluded = failureExclusions
        let candidates = Set(lifecycleCandidates.map(\.binding.label))
        scenario.lifecycle.failures = lifecycle.failures.filter { candidates.contains($0.key) && !excluded.contains($0.key) }
        return scenario
    }

    /// The labels of the bindings whose builds may not fail (see `addFailures`).
    private var failureExclusions: Set<String> {
        var excluded: Set<String> = []
        for index in specs.indices {
            for binding in specs[index].bindings + specs[index].overrides where binding.scope == .eager {
                excluded.formUnion(reach(binding.key, from: index).map(\.binding.label))
            }
        }
        var raced: [String] = []
        for op in ops {
            switch op {
            case .concurrent(_, let keys, _): raced += keys
            case .shutDownDuring(_, let key, _, _): raced.append(key)
            default: break
            }
        }
        // What a raced key reaches from any member: a closure's or a provider's dependencies are
        // found from the member whose resolver it is handed (the requesting child's, which may
        // bind what the closure's own spec does not), so each is followed from every spec.
        var racedKeys = Set(raced)
        var frontier = Array(racedKeys)
        while let key = frontier.popLast() {
            for index in specs.indices {
                for found in reach(key, from: index) {
                    excluded.insert(found.binding.label)
                    for dep in found.binding.depKeys where racedKeys.insert(dep).inserted { frontier.append(dep) }
                }
            }
        }
        // An `async` build that nothing else needs is awaited alone: what it needs is asked for
        // in order inside it, as the model does; its own failure may be drawn.
        var needed: Set<String> = ["a0"]
        for spec in specs {
            var declared: [MBinding] = spec.bindings + spec.overrides + spec.contributions
            if let contextual = spec.contextual { declared.append(contextual) }
            for binding in declared { needed.formUnion(binding.depKeys) }
            needed.formUnion(spec.decorators.compactMap(\.needs))
        }
        for index in specs.indices {
            for key in visibleKeys(from: index) {
                let reached = reach(key, from: index)
                guard reached.contains(where: { $0.binding.kind.isAsync }) else { continue }
                let alone = { (found: (spec: Int, binding: MBinding)) in
                    found.binding.key == key && found.binding.kind.isAsync && !needed.contains(key)
                }
                excluded.formUnion(reached.filter { !alone($0) }.map(\.binding.label))
            }
        }
        return excluded
    }

    /// `withChild` steps, at random places among the others.
    private mutating func addWithChild(random: inout SplitMix) {
        guard specs.count > 1, random.chance(45) else { return }
        var nextID = ops.reduce(1) { next, op in
            switch op {
            case .makeChild(_, _, let id): max(next, id + 1)
            case .lifecycle(.withChild(_, _, let id, _, _, _)): max(next, id + 1)
            default: next
            }
        }
        for _ in 0..<(1 + random.below(2)) {
            let position = random.below(ops.count + 1)
            let spec = random.pick(Array(specs.indices.dropFirst()))
            let parentSpec = specs[spec].parent!
            // A member of the parent's spec made before, or the root.
            var parents: [Int] = parentSpec == 0 ? [0] : []
            for op in ops[..<position] {
                if case .makeChild(_, parentSpec, let id) = op { parents.append(id) }
            }
            guard !parents.isEmpty else { continue }
            let isAsync = random.chance(60)
            let keys = visibleKeys(from: spec)
            let paths: [MPath] = isAsync ? MPath.allCases : [.sync, .lazyGet, .factoryMake]
            let requests = (0..<(1 + random.below(3))).map { _ in
                MBodyRequest(key: random.chance(8) ? MScenario.consumer : random.pick(keys), path: random.pick(paths))
            }
            ops.insert(.lifecycle(.withChild(parent: random.pick(parents), spec: spec, id: nextID, requests: requests, isAsync: isAsync,
                                             bodyThrows: random.chance(25))), at: position)
            nextID += 1
        }
    }

    /// The root's keys over an eager singleton that needs await, built by `Injector.start`, and
    /// over nothing else that needs await: a synchronous request builds them.
    func overStarted() -> [String] {
        guard startRoot else { return [] }
        return visibleKeys(from: 0).filter { key in
            let reached = reach(key, from: 0)
            let awaited = reached.filter { $0.binding.kind.isAsync }
            return !awaited.isEmpty && awaited.allSatisfy { $0.spec == 0 && $0.binding.scope == .eager }
        }
    }

    /// Synchronous requests of values over what `Injector.start` built.
    private mutating func addStartedRequests(random: inout SplitMix) {
        let keys = overStarted()
        guard !keys.isEmpty, random.chance(80) else { return }
        for _ in 0..<(1 + random.below(3)) {
            ops.insert(.request(member: 0, key: random.pick(keys), path: random.pick([.sync, .lazyGet, .factoryMake, .mainActor]), hold: false),
                       at: random.below(ops.count + 1))
        }
    }

    /// The features the lifecycle declarations and steps draw.
    var lifecycleFeatures: Set<String> {
        var features: Set<String> = []
        for close in lifecycle.closing.values where close != .closable { features.insert("close by \(close.rawValue)") }
        if !lifecycle.failingCloses.isEmpty { features.insert("close that throws") }
        // A kept value both decorated and closed: what its scope kept is the decorated value.
        if lifecycle.closing.contains(where: { $0.value != .closable && isDecorated($0.key) }) {
            features.insert("decorated value closed by a closer or as AsyncClosable")
        }
        if lifecycle.failingCloses.contains(where: isDecorated) { features.insert("decorated value whose close throws") }
        if !lifecycle.failures.isEmpty { features.insert("build that fails, then succeeds") }
        if lifecycle.failures.keys.contains(where: { key in specs.contains { $0.binding(key)?.kind.isAsync == true } }) {
            features.insert("async build that fails, then succeeds")
        }
        if lifecycle.failures.keys.contains(where: { key in specs.contains { $0.isTemplate && $0.binding(key) != nil } }) {
            features.insert("build that fails in a template")
        }
        for op in ops {
            switch op {
            case .lifecycle(.withChild(_, let spec, _, _, let isAsync, let bodyThrows)):
                features.insert(specs[spec].isTemplate ? "withChild of a template" : "withChild of a plain child")
                features.insert(isAsync ? "withChild awaited" : "withChild synchronous")
                if bodyThrows { features.insert("withChild whose body throws") }
            case .request(0, let key, let path, _) where path.isSync && startRoot && overStarted().contains(key):
                features.insert("synchronous over a started value")
            default:
                break
            }
        }
        return features
    }

    /// Whether a decorator wraps the values of the binding labelled `label` (in the spec that
    /// binds it, where its decorators are declared).
    func isDecorated(_ label: String) -> Bool {
        specs.contains { spec in
            spec.bindings.contains { $0.label == label } && spec.decorators.contains { $0.key == label }
                && !spec.overrides.contains { $0.key == label }
        }
    }

    /// Smaller scenarios: one lifecycle declaration dropped.
    var lifecycleShrinkCandidates: [MScenario] {
        var result: [MScenario] = []
        for key in lifecycle.closing.keys.sorted() {
            var c = self
            c.lifecycle.closing[key] = nil
            result.append(c)
        }
        for key in lifecycle.failingCloses.sorted() {
            var c = self
            c.lifecycle.failingCloses.remove(key)
            result.append(c)
        }
        for key in lifecycle.failures.keys.sorted() {
            var c = self
            c.lifecycle.failures[key] = nil
            result.append(c)
            if lifecycle.failures[key]! > 1 {
                var d = self
                d.lifecycle.failures[key] = 1
                result.append(d)
            }
        }
        for index in ops.indices {
            guard case .lifecycle(.withChild(let parent, let spec, let id, let requests, let isAsync, let bodyThrows)) = ops[index] else { continue }
            for request in requests.indices {
                var c = self
                var fewer = requests
                fewer.remove(at: request)
                c.ops[index] = .lifecycle(.withChild(parent: parent, spec: spec, id: id, requests: fewer, isAsync: isAsync, bodyThrows: bodyThrows))
                result.append(c)
            }
            if bodyThrows {
                var c = self
                c.ops[index] = .lifecycle(.withChild(parent: parent, spec: spec, id: id, requests: requests, isAsync: isAsync, bodyThrows: false))
                result.append(c)
            }
        }
        return result
    }

    /// Records what the lifecycle of one step showed.
    static func recordLifecycle(_ step: MRawStep, in coverage: Coverage) {
        for record in step.lifecycle { coverage.add("lifecycle \(record.split(separator: " ")[0])") }
    }

    /// Records what the lifecycle of one scenario exercised, by the model's count.
    static func recordLifecycle(_ model: ReferenceModel, in coverage: Coverage) {
        if model.leftOpen > 0 { coverage.add("values shutDown() left open", model.leftOpen) }
        if model.builtAfterFailing > 0 { coverage.add("builds after failing ones", model.builtAfterFailing) }
    }

    /// How the path of a failed build names a key: a contribution (`e…`, and a set's or a map's,
    /// `s…_…` and `m…_…`) and a contextual binding (`x…`) by what they are, `Consumer` and
    /// `JitShared` by their types.
    static func pathName(_ key: String) -> String {
        if key.hasPrefix("e") || ((key.hasPrefix("s") || key.hasPrefix("m")) && key.contains("_")) { return "contribution" }
        if key.hasPrefix("x") { return "contextual" }
        if key == consumer { return "Consumer" }
        if key == jit.key { return "JitShared" }
        return key
    }

    /// The lifecycle declarations, as the scenario prints them.
    var lifecycleDescription: [String] {
        var lines: [String] = []
        for (key, close) in lifecycle.closing.sorted(by: { $0.key < $1.key }) { lines.append("  \(key) closes by \(close.rawValue)") }
        for key in lifecycle.failingCloses.sorted() { lines.append("  closing \(key) throws") }
        for (key, count) in lifecycle.failures.sorted(by: { $0.key < $1.key }) {
            lines.append("  the first \(count) build(s) of \(key) throw")
        }
        return lines
    }
}

// MARK: - The model

extension ReferenceModel {
    /// Whether this build of the binding throws: it is one of its first failing builds.
    mutating func buildFails(_ binding: MBinding) -> Bool {
        guard !binding.isOverride, let left = remainingFailures[binding.label] else { return false }
        guard left > 0 else {
            builtAfterFailing += 1
            return false
        }
        remainingFailures[binding.label] = left - 1
        return true
    }

    /// Closes what the member's shutdown closes (its live children's first), as `awaitShutDown()`
    /// does (`awaiting`) or as `shutDown()` does, which leaves the values that close with
    /// `await` open; the failures are reported together, in the order of the closes.
    mutating func shutDown(_ member: Int, awaiting: Bool, closes: inout [(id: Int, label: String)], failures: inout [String]) {
        var all: [(id: Int, label: String)] = []
        shutDown(member, closes: &all)
        for close in all {
            // A decorated value is closed as its binding's values are: by the binding's closer,
            // which the storage binds to the value it keeps, the decorated one (`Recipe`:
            // "Decorators and observers work on the unscoped build, so that a scope keeps the
            // decorated value"; `ValueCloser`: "bound to the value when it is stored"); a
            // failure is reported under the binding's key.
            let binding = instances[close.id]?.closedAs ?? close.label
            if !awaiting && scenario.lifecycle.close(of: binding).awaits {
                leftOpen += 1
                continue
            }
            closes.append(close)
            if scenario.lifecycle.failingCloses.contains(binding) { failures.append(binding) }
        }
    }

    /// A `withChild` step: the child made (as `makeChild`), the body's requests, then its
    /// shutdown; the outcome is the body's requests', then what `withChild` ended with.
    mutating func performWithChild(_ op: MLifecycleOp, step: inout MRawStep) {
        guard case .withChild(let parent, let spec, let id, let requests, let isAsync, let bodyThrows) = op else { return }
        guard members[parent].map({ !$0.dropped }) == true else { return }
        let made = perform(.makeChild(parent: parent, spec: spec, id: id))
        if !made.outcomes.isEmpty {
            step.outcomes += made.outcomes
            return
        }
        for request in requests {
            orderedStep = request.path.isSync
            step.outcomes.append(self.request(request.key, from: id, sync: request.path.isSync))
        }
        step.lifecycle += takeFailedRequests()
        // The child is current for the body.
        step.lifecycle.append("current")
        orderedStep = true
        var failures: [String] = []
        shutDown(id, awaiting: isAsync, closes: &step.closes, failures: &failures)
        step.closesOrdered = step.closes.allSatisfy { instances[$0.id]?.orderedKeep ?? true }
        if bodyThrows {
            step.lifecycle.append("body's error rethrown")
        } else if !failures.isEmpty {
            step.lifecycle.append("closeFailed \(failures.joined(separator: ","))")
        } else {
            step.lifecycle.append("returned")
        }
    }

    /// The keys of the builds that failed in the requests of the step so far, one per request
    /// that ended in `initializerFailed`, taken.
    mutating func takeFailedRequests() -> [String] {
        defer { failedRequests = [] }
        return failedRequests.map { "initializerFailed \($0)" }
    }
}

// MARK: - The runner

/// What the runner's values read of the lifecycle declarations, and the builds that failed.
final class MLifecycleLog: Sendable {
    private let state = Locked<(declared: MLifecycle, failed: [String: Int])>((MLifecycle(), [:]))

    func declare(_ lifecycle: MLifecycle) { state.withLock { $0.declared = lifecycle } }

    func close(of label: String) -> MClose { state.withLock { $0.declared.close(of: label) } }

    /// Records a close of `node`, and throws when its binding's close throws.
    func close(_ node: MNode) throws {
        node.log.closed(node)
        if state.withLock({ $0.declared.failingCloses.contains(node.closing) }) { throw MCloseFailure(label: node.closing) }
    }

    /// Throws when this build of the binding labelled `label` is one of its first failing ones.
    func attempt(_ label: String) throws {
        let fails = state.withLock { state in
            guard let count = state.declared.failures[label], state.failed[label, default: 0] < count else { return false }
            state.failed[label, default: 0] += 1
            return true
        }
        if fails { throw MBuildFailure(label: label) }
    }
}

/// A node that is `AsyncClosable` (and not `Closable`).
final class AsyncClosingNode: MNode, AsyncClosable, @unchecked Sendable {
    func close() async throws {
        await Task.yield()
        try log.lifecycle.close(self)
    }
}

extension MNode {
    /// A node of a binding's build: thrown instead when the build is one of the binding's first
    /// failing ones.
    static func build(_ label: String, _ deps: [MNode], _ log: MLog) throws -> MNode {
        try log.lifecycle.attempt(label)
        return make(label, deps, log)
    }
}

extension MModule {
    /// Gives the kept binding's closer, when it is closed by one.
    func addCloser(_ binding: MBinding, _ builder: ShutdownBindingBuilder<MNode>) {
        let log = log
        switch log.lifecycle.close(of: binding.label) {
        case .closer:
            builder.onShutdown { (node: MNode) throws in try log.lifecycle.close(node) }
        case .asyncCloser:
            builder.onShutdown { (node: MNode) async throws in
                await Task.yield()
                try log.lifecycle.close(node)
            }
        case .closable, .asyncClosable:
            break
        }
    }
}

/// A step's lifecycle records as compared: when the order of the step's closes is not
/// determined (values kept by builds `Injector.start` ran at once), the keys a `closeFailed`
/// lists are compared as a set; the runner checks their order against its closes.
func lifecycleRecords(_ records: [String], ordered: Bool) -> [String] {
    guard !ordered else { return records }
    return records.map { record in
        guard record.hasPrefix("closeFailed ") else { return record }
        return "closeFailed " + record.dropFirst("closeFailed ".count).split(separator: ",").sorted().joined(separator: ",")
    }
}

/// A violation when a `closeFailed` record does not list its keys in the order of the closes;
/// `closedAs` names the binding each close followed (a decorated value's, the decorated key).
func closeFailedOrderViolations(_ step: MRawStep, closedAs: (Int) -> String?) -> [String] {
    step.lifecycle.filter { $0.hasPrefix("closeFailed ") }.compactMap { record in
        let listed = record.dropFirst("closeFailed ".count).split(separator: ",").map(String.init)
        let closed = step.closes.map { closedAs($0.id) ?? $0.label }.filter { listed.contains($0) }
        return closed == listed ? nil : "\(record): the failures are not listed in the order of the closes \(closed)"
    }
}

/// What a failed request shows beyond its kind: the key of the build that threw.
func lifecycleRecord(of error: InjectionError) -> String? {
    guard error.kind == .initializerFailed else { return nil }
    if case .initializerFailed(let key, _) = error.problems[0].detail {
        // The unnamed key of `MNode` is the scenario's `P`, and so is a candidate's type, which
        // the path names where the candidate was wired to `P`.
        func named(_ key: AnyKey) -> String {
            key.name ?? (key.type == MNode.self || key.type is any MCandidateNode.Type ? MScenario.port : key.typeName)
        }
        let path = error.path.map { key in
            // A contribution's and a contextual binding's keys are the library's own: named by what they are.
            guard let name = key.name else { return named(key) }
            // A binding with properties is an alias of its type, which the runner names `key@spec`.
            return name.hasPrefix("\u{1F}") ? "contribution" : name.contains("when injected into") ? "contextual"
                : String(name.prefix { $0 != "@" })
        }.joined(separator: ">")
        return "initializerFailed \(named(key)) path \(path)"
    }
    return "initializerFailed ?"
}

/// What a shutdown that threw shows: the keys whose close failed, in the order reported, or the
/// unexpected error.
func shutdownRecord(of error: InjectionError) -> String {
    guard error.problems.allSatisfy({ $0.kind == .closeFailed }) else { return "shutdown threw \(error.kind)" }
    let keys = error.problems.map { problem -> String in
        // The unnamed key (`P`, bound or wired to a candidate) as the scenario names it.
        if case .closeFailed(let key, _) = problem.detail {
            return key.name ?? (key.type == MNode.self || key.type is any MCandidateNode.Type ? MScenario.port : key.typeName)
        }
        return "?"
    }
    return "closeFailed \(keys.joined(separator: ","))"
}

/// Numbers each collection a synchronous body's request returns.
private let syncCollections = Atomic(0)

/// One request made synchronously through `path` (a synchronous path: `getInstance`,
/// `Lazy.get()`, `Factory.make()`).
func syncFetch(_ injector: Injector, _ name: String, _ path: MPath) -> Result<Fetched, InjectionError> {
    func fetch<Value>(_ key: Key<Value>) -> Result<Value, InjectionError> {
        do throws(InjectionError) {
            switch path {
            case .lazyGet: return .success(try injector.getInstance(Key<Lazy<Value>>(named: key.name)).get())
            case .factoryMake: return .success(try injector.getInstance(Key<Factory<Value>>(named: key.name)).make())
            default: return .success(try injector.getInstance(key))
            }
        } catch {
            return .failure(error)
        }
    }
    if name == MScenario.collection {
        return fetch(Key<[MNode]>()).map { nodes in
            // Numbered apart from the collections the awaited requests number.
            Fetched(tree: MTree(label: MScenario.collection, id: -1_000_000 - syncCollections.add(1, ordering: .relaxed).newValue,
                                children: nodes.map(\.tree)), nodes: nodes)
        }
    }
    if name == MScenario.jit.key { return fetch(Key<JitShared>()).map { Fetched(node: $0.node) } }
    if name == MScenario.consumer { return fetch(Key<Consumer>()).map { Fetched(node: $0.node) } }
    if name == MScenario.set { return fetch(Key<Set<MNode>>()).map(Fetched.init(set:)) }
    if name == MScenario.map { return fetch(Key<[String: MNode]>()).map(Fetched.init(map:)) }
    return fetch(nodeKey(name)).map(Fetched.init(node:))
}

extension LibraryRunner {
    /// A `withChild` step through the public API: the synchronous form from synchronous code,
    /// the `async` form with `await`.
    mutating func performWithChild(_ op: MLifecycleOp, step: inout MRawStep) async {
        guard case .withChild(let parent, let spec, let id, let requests, let isAsync, let bodyThrows) = op else { return }
        guard let parentInjector = members[parent] else { return }
        let isTemplate = scenario.specs[spec].isTemplate
        guard !isTemplate || templates[spec] != nil else { return }
        let template = templates[spec]
        let (childModules, childOverrides) = isTemplate ? ([], []) : modules(spec)
        let value = isTemplate ? MNode.make("p", [], log) : nil
        _ = log.takeCloses()
        let body = Locked<(child: Injector?, results: [Result<Fetched, InjectionError>], current: Bool)>((nil, [], false))
        let throwing = bodyThrows
        let log = log
        let violations = Locked<[String]>([])
        do {
            if isAsync && requests.allSatisfy({ $0.path.isSync && $0.path != .mainActor }) {
                // A body that does not await: the `async` form of a synchronous body.
                let run = { (child: Injector) throws -> Void in
                    let results = requests.map { LibraryRunner.unheld(syncFetch(child, $0.key, $0.path), log, violations) }
                    let current = Injector.current === child
                    body.withLock { $0 = (child, results, current) }
                    if throwing { throw MBodyError() }
                }
                if let template, let value {
                    try await template.withChild(value) { child in try run(child) }
                } else {
                    try await parentInjector.withChild(modules: childModules, overrides: childOverrides) { child in try run(child) }
                }
            } else if isAsync {
                let run = { (child: Injector) async throws -> Void in
                    var results: [Result<Fetched, InjectionError>] = []
                    for request in requests {
                        results.append(LibraryRunner.unheld(await LibraryRunner.fetch(child, request.key, request.path), log, violations))
                    }
                    let current = Injector.current === child
                    body.withLock { $0 = (child, results, current) }
                    if throwing { throw MBodyError() }
                }
                if let template, let value {
                    try await template.withChild(value) { child in try await run(child) }
                } else {
                    try await parentInjector.withChild(modules: childModules, overrides: childOverrides) { child in try await run(child) }
                }
            } else {
                try LibraryRunner.synchronousWithChild(parentInjector, template: template, value: value, modules: childModules,
                                                       overrides: childOverrides) { child in
                    let results = requests.map { LibraryRunner.unheld(syncFetch(child, $0.key, $0.path), log, violations) }
                    let current = Injector.current === child
                    body.withLock { $0 = (child, results, current) }
                    if throwing { throw MBodyError() }
                }
            }
            finishWithChild(body.withLock { $0 }, id: id, step: &step, ending: "returned")
        } catch let error as InjectionError {
            let ran = body.withLock { $0 }
            if ran.child == nil {
                step.outcomes.append(.error(error.kind))
            } else {
                finishWithChild(ran, id: id, step: &step, ending: shutdownRecord(of: error))
            }
        } catch is MBodyError {
            finishWithChild(body.withLock { $0 }, id: id, step: &step, ending: "body's error rethrown")
        } catch {
            step.violations.append("withChild threw \(error)")
        }
        step.closes = log.takeCloses()
        step.violations += violations.withLock { $0 }
    }

    private mutating func finishWithChild(_ ran: (child: Injector?, results: [Result<Fetched, InjectionError>], current: Bool), id: Int,
                                          step: inout MRawStep, ending: String) {
        members[id] = ran.child
        // Taken after the shutdown that closed the child's values: whether a value was closed
        // when the body got it is checked in the body (`unheld`).
        for result in ran.results { step.outcomes.append(outcome(result, &step, racing: true)) }
        step.lifecycle.append(ran.current ? "current" : "not current")
        step.lifecycle.append(ending)
    }

    /// What the body got, without the values (a body holds none between its requests, as a
    /// request step does not); a value that was closed when the body got it is a violation.
    private static func unheld(_ result: Result<Fetched, InjectionError>, _ log: MLog, _ violations: Locked<[String]>)
        -> Result<Fetched, InjectionError> {
        result.map { fetched in
            for part in fetched.nodes.flatMap(\.all) where log.isClosed(part.serial) {
                violations.withLock { $0.append("handed out \(part.label) (serial \(part.serial)) in a withChild body, which was closed") }
            }
            return Fetched(tree: fetched.tree, nodes: [])
        }
    }

    /// The synchronous `withChild`, of a template or of a plain child, from synchronous code.
    private static func synchronousWithChild(_ parent: Injector, template: ChildTemplate<MNode>?, value: MNode?, modules: [any Module],
                                             overrides: [any Module], body: (Injector) throws -> Void) throws {
        if let template, let value {
            try template.withChild(value, body: body)
        } else {
            try parent.withChild(modules: modules, overrides: overrides, body)
        }
    }
}
