import Sightless

// The reference model: what the documentation says a scenario does, computed with plain
// dictionaries and recursion, without caching anything the documentation does not keep. It
// knows nothing of the engine: a request finds the key's binding in the requesting member or
// its ancestors (the injector whose binding it is owns what its scope keeps), returns what that
// owner's scope keeps, or builds the binding's dependencies depth first, the value, then its
// decorators in declaration order (the first innermost), reports the build to the observers of
// the owner and its ancestors, and keeps the value as its scope says. An initializer's
// dependencies are found from its owner (the parent compiled it); a closure's or provider's from
// its resolver, the injector the request is for (a child's overrides replace its parent's
// bindings there), or for a value a scope keeps, its owner. A shutdown closes the member's live
// children first, newest first (a template's child counts from when it first keeps a value or
// makes a child), then its own kept values, newest first: `awaitShutDown()` every one,
// `shutDown()` all but those that close with `await` (an `AsyncClosable`, an awaiting closer),
// which it leaves open (`Lifecycle.swift`). A build that throws keeps nothing of its own.

/// A value as a tree: what built it (`label`), its identity on its side (`id`: a model number,
/// or a node's serial), and what it holds.
struct MTree: Sendable {
    var label: String
    var id: Int
    var children: [MTree]

    /// The structure without identities.
    var shape: String {
        children.isEmpty ? label : "\(label)(\(children.map(\.shape).joined(separator: ",")))"
    }
}

/// The outcome of one request.
enum MOutcome: Sendable {
    case value(MTree)
    case error(InjectionError.Kind)
    /// For a request racing a shutdown: the value of this shape, or one of these errors.
    case either(shape: String?, errors: [InjectionError.Kind])
}

/// What one step shows, on one side, before identities are made comparable.
struct MRawStep: Sendable {
    var outcomes: [MOutcome] = []
    /// What the step closed, in order: identity and label.
    var closes: [(id: Int, label: String)] = []
    /// Whether `closes` is in a determined order (else it is compared as a set).
    var closesOrdered = true
    /// Whether the closes of this step are not predicted (a shutdown raced requests).
    var closesUnknown = false
    var builds: [String: Int] = [:]
    var events: [String: Int] = [:]
    /// The values alive after the step: on the library's side, exactly; on the model's, the
    /// values that must be alive (`alive`) and those that may be (`mayBeAlive`).
    var alive: Set<Int> = []
    var mayBeAlive: Set<Int> = []
    /// Anything else the library showed that the model says never happens.
    var violations: [String] = []
    /// What the lifecycle shows (`Lifecycle.swift`), in order: the key of each build that failed
    /// a request, what a shutdown threw, and how a `withChild` ended.
    var lifecycle: [String] = []
}

struct ReferenceModel {
    struct Instance {
        var label: String
        var children: [Int]
        /// Whether the value was kept in a step whose order of builds is determined.
        var orderedKeep = true
        /// Whether it is a collection, a value rather than an object (never alive or dead).
        var isCollection = false
        /// For a kept value, the label of the binding whose lifecycle declarations close it:
        /// the binding's own label, a decorated value's too.
        var closedAs: String?
    }

    struct Member {
        var spec: Int
        var parent: Int?
        var dropped = false
        var shut = false
        /// What its storing scopes keep, by key, and the order they were kept in.
        var kept: [String: Int] = [:]
        var keptOrder: [Int] = []
        var weak: [String: Int] = [:]
        /// The instances its own module binds (a template's child: its template's).
        var instances: [String: Int] = [:]
        var provided: Int?
        /// When it counts as made, for the order of a shutdown: a plain child when it is made, a
        /// template's child when it first keeps a value or makes a child (`nil`: not yet).
        var creation: Int?
    }

    let scenario: MScenario
    var instances: [Int: Instance] = [:]
    var nextID = 0
    var members: [Int: Member] = [:]
    var templateInstances: [Int: [String: Int]] = [:]
    var held: [Int] = []
    var builds: [String: Int] = [:]
    var events: [String: Int] = [:]
    var creations = 0
    /// Whether the current step's builds happen in a determined order.
    var orderedStep = true
    /// How many optional dependencies were found bound (a value) and not (`nil`).
    var optionalValues = 0
    var optionalNils = 0
    /// How many of each binding's next builds throw (`MLifecycle.failures`), and the keys of the
    /// builds that failed the step's requests so far.
    var remainingFailures: [String: Int]
    var failedRequests: [String] = []
    /// How many values a `shutDown()` left open (they close with `await`), and how many builds
    /// succeeded after their binding's failing ones.
    var leftOpen = 0
    var builtAfterFailing = 0

    init(scenario: MScenario) {
        self.scenario = scenario
        remainingFailures = scenario.lifecycle.failures
    }

    // MARK: Steps

    /// Builds the root (and its templates, with their instances) and its eager singletons.
    mutating func setUp() -> MRawStep {
        var step = MRawStep()
        orderedStep = !scenario.startRoot
        let rootInstances = makeInstances(of: 0)
        members[0] = Member(spec: 0, instances: rootInstances, creation: nextCreation())
        for (index, spec) in scenario.specs.enumerated() where spec.isTemplate {
            templateInstances[index] = makeInstances(of: index)
        }
        for binding in scenario.specs[0].eagerOrder {
            // Every eager singleton is built; a failure fails the root's build, reported with
            // the others in one error (the first's kind).
            if case .error(let kind) = request(binding.key, from: 0, sync: !scenario.startRoot), step.outcomes.isEmpty {
                step.outcomes.append(.error(kind))
            }
        }
        finish(&step)
        return step
    }

    mutating func perform(_ op: MOp) -> MRawStep {
        var step = MRawStep()
        orderedStep = true
        switch op {
        case .request(let member, let key, let path, let hold):
            guard members[member].map({ !$0.dropped }) == true else { break }
            orderedStep = path.isSync
            let outcome = request(key, from: member, sync: path.isSync)
            if hold, case .value(let tree) = outcome { held.append(tree.id) }
            step.outcomes.append(outcome)
        case .concurrent(let member, let keys, let path):
            guard members[member].map({ !$0.dropped }) == true else { break }
            orderedStep = false
            for key in keys { step.outcomes.append(request(key, from: member, sync: path.isSync)) }
        case .makeChild(let parent, let spec, let id):
            guard let parentMember = members[parent], !parentMember.dropped else { break }
            let isTemplate = scenario.specs[spec].isTemplate
            // The module (or, for a template, the provided value) is made before the child.
            let own = isTemplate ? [:] : makeInstances(of: spec)
            let provided = isTemplate ? newInstance("p", children: []) : nil
            if isShutDown(parent) {
                step.outcomes.append(.error(.injectorShutDown))
                break
            }
            if members[parent]!.creation == nil { members[parent]!.creation = nextCreation() }
            var member = Member(spec: spec, parent: parent, instances: isTemplate ? templateInstances[spec] ?? [:] : own,
                                creation: isTemplate ? nil : nextCreation())
            member.provided = provided
            members[id] = member
            // A plain child builds its eager singletons when it is made.
            orderedStep = false
            for binding in scenario.specs[spec].eagerOrder where !isTemplate {
                if case .error(let kind) = request(binding.key, from: id, sync: true), step.outcomes.isEmpty {
                    step.outcomes.append(.error(kind))
                }
            }
            if !step.outcomes.isEmpty { members[id] = nil }
        case .drop(let member):
            members[member]?.dropped = true
        case .release:
            held = []
        case .shutDown(let member), .awaitShutDown(let member):
            guard members[member].map({ !$0.dropped }) == true else { break }
            var awaiting = false
            if case .awaitShutDown = op { awaiting = true }
            var failures: [String] = []
            shutDown(member, awaiting: awaiting, closes: &step.closes, failures: &failures)
            if !failures.isEmpty { step.lifecycle.append("closeFailed \(failures.joined(separator: ","))") }
            step.closesOrdered = step.closes.allSatisfy { instances[$0.id]?.orderedKeep ?? true }
        case .withArguments(let member, let key, let depth, let tuple, let path):
            guard members[member].map({ !$0.dropped }) == true else { break }
            if isShutDown(member) || isShutDown(0) {
                step.outcomes.append(.error(.injectorShutDown))
            } else if key == "d" {
                // A tuple is one argument where two are expected, on every path.
                if tuple && path != .factoryMake && path != .factoryInstance {
                    step.outcomes.append(.error(.argumentCount))
                } else {
                    let value = argumentBuild("d", children: [])
                    step.outcomes.append(.value(tree(value)))
                }
            } else {
                var inner: Int?
                for _ in 0...depth { inner = argumentBuild("r", children: inner.map { [$0] } ?? []) }
                step.outcomes.append(.value(tree(inner!)))
            }
        case .deep(let member, let key, let links, let path):
            guard members[member].map({ !$0.dropped }) == true else { break }
            orderedStep = path.isSync
            step.outcomes.append(deep(member: member, key: key, links: links, path: path))
        case .shutDownDuring(let member, let key, let count, let path):
            guard members[member].map({ !$0.dropped }) == true else { break }
            // Each request gets what it would get before the shutdown, or injectorShutDown.
            var scratch = self
            let alone = scratch.request(key, from: member, sync: path.isSync)
            for _ in 0..<count {
                switch alone {
                case .value(let tree): step.outcomes.append(.either(shape: tree.shape, errors: [.injectorShutDown]))
                case .error(let kind): step.outcomes.append(.either(shape: nil, errors: [kind, .injectorShutDown]))
                case .either: step.outcomes.append(alone)
                }
            }
            var closes: [(id: Int, label: String)] = []
            shutDown(member, closes: &closes)
            step.closesUnknown = true
        case .lifecycle(let op):
            performWithChild(op, step: &step)
        }
        finish(&step)
        return step
    }

    /// After a step whose builds the model cannot count (a shutdown racing requests), takes the
    /// library's counts; the scenario confines such a step to the member it shuts down.
    mutating func adopt(builds: [String: Int], events: [String: Int]) {
        self.builds = builds
        self.events = events
    }

    private mutating func finish(_ step: inout MRawStep) {
        step.lifecycle += takeFailedRequests()
        step.builds = builds
        step.events = events
        let (must, may) = liveness()
        step.alive = must
        step.mayBeAlive = may
    }

    private mutating func nextCreation() -> Int {
        creations += 1
        return creations
    }

    mutating func newInstance(_ label: String, children: [Int]) -> Int {
        nextID += 1
        instances[nextID] = Instance(label: label, children: children, orderedKeep: orderedStep)
        builds[label, default: 0] += 1
        return nextID
    }

    /// A build of one of the root's keys with creation-time arguments: unscoped, the root's.
    private mutating func argumentBuild(_ key: String, children: [Int]) -> Int {
        let value = newInstance(key, children: children)
        for observer in observers(of: 0) { events["\(observer):\(key)", default: 0] += 1 }
        return value
    }

    /// A collection of the values `children`, a new one per request.
    private mutating func newCollection(_ children: [Int]) -> Int {
        nextID += 1
        instances[nextID] = Instance(label: MScenario.collection, children: children, isCollection: true)
        return nextID
    }

    private mutating func makeInstances(of spec: Int) -> [String: Int] {
        var made: [String: Int] = [:]
        // The modules' instances, then the overrides', which replace them.
        let s = scenario.specs[spec]
        for binding in s.bindings + s.overrides + s.contributions + (s.contextual.map { [$0] } ?? []) + s.entryBindings
        where binding.kind == .instance {
            made[binding.key] = newInstance(binding.label, children: [])
        }
        return made
    }

    // MARK: Requests

    /// Whether the member, or an ancestor of it, is shut down.
    func isShutDown(_ member: Int) -> Bool {
        var current: Int? = member
        while let id = current, let m = members[id] {
            if m.shut { return true }
            current = m.parent
        }
        return false
    }

    /// The member whose binding `key` is, as seen from `member`, and the binding (`nil`: the
    /// value a template's child was made with).
    func owner(of key: String, from member: Int) -> (member: Int, binding: MBinding?)? {
        if key == MScenario.jit.key { return (0, MScenario.jit) }
        var current: Int? = member
        while let id = current, let m = members[id] {
            let spec = scenario.specs[m.spec]
            if spec.isTemplate && key == "p" { return (id, nil) }
            if let binding = spec.binding(key) { return (id, binding) }
            current = m.parent
        }
        if key == MScenario.port, let candidate = scenario.autoWired { return (0, candidate) }
        return nil
    }

    mutating func request(_ key: String, from member: Int, sync: Bool) -> MOutcome {
        if isShutDown(member) { return .error(.injectorShutDown) }
        var frame: [String: Int] = [:]
        var building = Building()
        switch get(key, from: member, requester: member, sync: sync, frame: &frame, building: &building) {
        case .success(let id): return .value(tree(id))
        case .failure(let failure):
            if failure.kind == .initializerFailed, let key = failure.key { failedRequests.append(key) }
            return .error(failure.kind)
        }
    }

    struct Failure: Error {
        let kind: InjectionError.Kind
        /// The key of the build that threw (`initializerFailed`).
        var key: String?
    }

    /// What a request is building: the keys (`member.key`) whose builds are under way, and the
    /// values built so far (held by the builds that will take them).
    struct Building {
        var keys: [String] = []
        var values: Set<Int> = []
    }

    /// Whether building `key` from `member` needs await now: an `async` build not kept yet, or
    /// an initializer over one. An initializer whose awaited dependencies are all kept already
    /// (singletons awaited before, or built by `start`) is built synchronously, whether its own
    /// value is kept or not: what `start` built is built.
    func needsAwait(_ key: String, from member: Int) -> Bool {
        guard let (owner, binding) = owner(of: key, from: member), let binding else { return false }
        if binding.scope.keeps, members[owner]?.kept[key] != nil { return false }
        if binding.kind.isAsync { return true }
        if binding.kind == .type { return binding.depKeys.contains { needsAwait($0, from: owner) } }
        return false
    }

    /// A value of `key` found from `member`, for a request of `requester` (the injector a
    /// closure's resolver asks).
    mutating func get(_ key: String, from member: Int, requester: Int, sync: Bool, frame: inout [String: Int],
                              building: inout Building) -> Result<Int, Failure> {
        if let gathered = gather(key, from: member, requester: requester, sync: sync, frame: &frame, building: &building) {
            return gathered
        }
        if key == MScenario.collection {
            // The contributions of the member and its ancestors, the root's first.
            var chain: [Int] = []
            var current: Int? = member
            while let id = current, let m = members[id] {
                chain.insert(id, at: 0)
                current = m.parent
            }
            var elements: [Int] = []
            for owner in chain {
                for contribution in scenario.specs[members[owner]!.spec].contributions {
                    switch produce(contribution.key, contribution, owner: owner, requester: requester, sync: sync,
                                   frame: &frame, building: &building) {
                    case .success(let element): elements.append(element)
                    case .failure(let failure): return .failure(failure)
                    }
                }
            }
            var entries: [(mapKey: String?, id: Int)] = []
            decorateCollection(key, from: member, children: &elements, entries: &entries)
            return .success(newCollection(elements))
        }
        if key == MScenario.consumer {
            // Built by the nearest member that declares a contextual binding for it (which then
            // serves its `a0`), else by the root, the family's.
            var compiler = 0
            var current: Int? = member
            while let id = current, let m = members[id] {
                if scenario.specs[m.spec].contextual != nil {
                    compiler = id
                    break
                }
                current = m.parent
            }
            if isShutDown(compiler) { return .failure(Failure(kind: .injectorShutDown)) }
            let served: Result<Int, Failure>
            // On the path of what it needs (`Failure.key`).
            building.keys.append("\(compiler).\(MScenario.consumer)")
            defer { building.keys.removeLast() }
            if let contextual = scenario.specs[members[compiler]!.spec].contextual {
                served = produce(contextual.key, contextual, owner: compiler, requester: requester, sync: sync,
                                 frame: &frame, building: &building)
            } else {
                served = get("a0", from: compiler, requester: requester, sync: sync, frame: &frame, building: &building)
            }
            switch served {
            case .failure(let failure): return .failure(failure)
            case .success(let a0):
                let value = newInstance(MScenario.consumer, children: [a0])
                building.values.insert(value)
                for observer in observers(of: compiler) { events["\(observer):\(MScenario.consumer)", default: 0] += 1 }
                return .success(value)
            }
        }
        guard let (owner, found) = owner(of: key, from: member) else { return .failure(Failure(kind: .missingBinding)) }
        if isShutDown(owner) { return .failure(Failure(kind: .injectorShutDown)) }
        guard let binding = found else { return .success(members[owner]!.provided!) }
        return produce(key, binding, owner: owner, requester: requester, sync: sync, frame: &frame, building: &building)
    }

    /// The value of `binding` (of `key`, in `owner`): what its scope keeps, or a new build.
    mutating func produce(_ key: String, _ binding: MBinding, owner: Int, requester: Int, sync: Bool,
                                  frame: inout [String: Int], building: inout Building) -> Result<Int, Failure> {
        if isShutDown(owner) { return .failure(Failure(kind: .injectorShutDown)) }
        let frameKey = "\(owner).\(key)"
        switch binding.scope {
        case .singleton, .custom, .eager:
            if let kept = members[owner]!.kept[key] { return .success(kept) }
        case .weak:
            if let kept = members[owner]!.weak[key], building.values.contains(kept) || liveness().must.contains(kept) {
                return .success(kept)
            }
        case .perRequest:
            if let kept = frame[frameKey] { return .success(kept) }
        case .unscoped:
            break
        }
        if sync && needsAwait(key, from: owner) { return .failure(Failure(kind: .needsAwait)) }
        // Asked for again while it is being built (through a closure's resolver, a Lazy or a
        // Factory): a cycle.
        if building.keys.contains(frameKey) { return .failure(Failure(kind: .cyclicDependency)) }
        var value: Int
        var heard: [String] = []
        if binding.kind == .instance {
            value = members[owner]!.instances[key]!
        } else {
            var children: [Int] = []
            // A synchronous closure or provider asks synchronously.
            let depsSync = binding.kind == .closure || binding.kind == .provider ? true : sync
            building.keys.append(frameKey)
            defer { building.keys.removeLast() }
            // What an initializer needs is found where its binding is: the parent compiled it.
            // A closure or provider asks its resolver, which is the injector the request is for
            // (a child's overrides replace its parent's bindings there), except for a value a
            // scope keeps, whose resolver is its owner's.
            let kept = binding.scope.keeps || binding.scope == .weak
            let nextRequester = kept ? owner : requester
            // So does a Lazy or Factory an initializer is handed. Its properties are found
            // where its arguments are, after them. An optional dependency is `nil` when its key
            // is not bound as seen from there.
            let needs = binding.deps.map { (dep: $0, isProperty: false) } + binding.props.map { (dep: $0, isProperty: true) }
            for (dep, isProperty) in needs {
                let (key, via) = MVia.split(dep)
                let view = !isProperty && (binding.kind.isOpaque || (via != .direct && via != .optional)) ? nextRequester : owner
                if via == .optional {
                    guard self.owner(of: key, from: view) != nil else {
                        optionalNils += 1
                        continue
                    }
                    optionalValues += 1
                }
                switch get(key, from: view, requester: nextRequester, sync: depsSync, frame: &frame, building: &building) {
                case .success(let child): children.append(child)
                case .failure(let failure):
                    // A property is set after the initializer returned: the value was built,
                    // and is dropped unawoken, unheard.
                    if isProperty && failure.kind == .initializerFailed { builds[binding.label, default: 0] += 1 }
                    return .failure(failure)
                }
            }
            // One of its first failing builds throws once its dependencies are built: what they
            // kept stays kept, nothing of its own is kept, and observers hear nothing of it.
            if buildFails(binding) {
                let path = building.keys.map { frame in MScenario.pathName(String(frame.drop { $0 != "." }.dropFirst())) }
                return .failure(Failure(kind: .initializerFailed, key: "\(key) path \(path.joined(separator: ">"))"))
            }
            value = newInstance(binding.label, children: children)
            building.values.insert(value)
            // A type with properties is awoken once they are set, once per value it builds.
            if !binding.props.isEmpty { events["awake:\(binding.label)", default: 0] += 1 }
            // A contribution's key is the library's own: the observers' record leaves it out.
            let spec = scenario.specs[members[owner]!.spec]
            heard = spec.contributions.contains(binding) || spec.contextual == binding || spec.isEntry(binding) ? [] : observers(of: owner)
            // A binding with properties that does not keep its values until shutdown is an alias
            // whose decorators are its own, over a type the observers hear built before them
            // (`LibraryRunner`): heard even when a decorator then fails.
            if !binding.props.isEmpty && !binding.scope.keeps {
                for observer in heard { events["\(observer):\(key)", default: 0] += 1 }
                heard = []
            }
        }
        for decorator in scenario.specs[members[owner]!.spec].decorators where decorator.key == key {
            var held = [value]
            if let need = decorator.needs {
                // A decorator's resolver is a closure's: the owner's for a kept value, else the
                // injector the request is for.
                let resolver = binding.scope.keeps || binding.scope == .weak ? owner : requester
                // What it asks for is on the decorated key's path.
                building.keys.append(frameKey)
                defer { building.keys.removeLast() }
                switch get(need, from: resolver, requester: resolver, sync: true, frame: &frame, building: &building) {
                case .success(let other): held.append(other)
                case .failure(let failure): return .failure(failure)
                }
            }
            value = newInstance("dec\(decorator.id)", children: held)
            building.values.insert(value)
        }
        // Observers hear a build after its decorators (its duration includes them): a build whose
        // decorator failed is not heard.
        for observer in heard { events["\(observer):\(key)", default: 0] += 1 }
        switch binding.scope {
        case .singleton, .custom, .eager:
            members[owner]!.kept[key] = value
            members[owner]!.keptOrder.append(value)
            instances[value]!.closedAs = binding.label
            if members[owner]!.creation == nil { members[owner]!.creation = nextCreation() }
        case .weak:
            members[owner]!.weak[key] = value
        case .perRequest:
            frame[frameKey] = value
        case .unscoped:
            break
        }
        return .success(value)
    }

    /// The specs whose observers hear a build by `member`: its own and its ancestors'.
    func observers(of member: Int) -> [String] {
        var names: [String] = []
        var current: Int? = member
        while let id = current, let m = members[id] {
            if scenario.specs[m.spec].observes { names.append(scenario.specs[m.spec].name) }
            current = m.parent
        }
        return names
    }

    func tree(_ id: Int) -> MTree {
        let instance = instances[id]!
        return MTree(label: instance.label, id: id, children: instance.children.map(tree))
    }

    // MARK: Shutdown

    mutating func shutDown(_ member: Int, closes: inout [(id: Int, label: String)]) {
        guard let m = members[member], !m.shut else { return }
        // Its live children first, newest first.
        let alive = aliveMembers()
        let children = members.filter { $0.value.parent == member && alive.contains($0.key) }
            .sorted { ($0.value.creation ?? 0) > ($1.value.creation ?? 0) }
        for (child, _) in children { shutDown(child, closes: &closes) }
        members[member]!.shut = true
        for id in m.keptOrder.reversed() { closes.append((id, instances[id]!.label)) }
    }

    // MARK: Liveness

    /// The members alive: held by the test, or by a live child (a child holds its parent); the
    /// test holds every template for the whole scenario, and a template holds its parent, the root.
    func aliveMembers() -> Set<Int> {
        var alive = Set(members.filter { !$0.value.dropped }.keys)
        if !templateInstances.isEmpty && members[0] != nil { alive.insert(0) }
        var changed = true
        while changed {
            changed = false
            for id in alive {
                if let parent = members[id]?.parent, !alive.contains(parent) {
                    alive.insert(parent)
                    changed = true
                }
            }
        }
        return alive
    }

    /// The values that must be alive (held by the test, kept by a live member that is not shut
    /// down, a module's instance, or held by one of those), and those that may be (also what a
    /// shut-down member kept: the documentation does not say when it lets go).
    func liveness() -> (must: Set<Int>, may: Set<Int>) {
        var roots = held
        var uncertain: [Int] = []
        for id in aliveMembers() {
            guard let m = members[id] else { continue }
            roots += m.instances.values
            if let provided = m.provided { roots.append(provided) }
            if m.shut { uncertain += m.keptOrder } else { roots += m.keptOrder }
        }
        for instances in templateInstances.values { roots += instances.values }
        let must = reachable(from: roots).filter { instances[$0]?.isCollection != true }
        return (must, must.union(reachable(from: uncertain).filter { instances[$0]?.isCollection != true }))
    }

    private func reachable(from roots: [Int]) -> Set<Int> {
        var seen: Set<Int> = []
        var stack = roots
        while let id = stack.popLast() {
            guard seen.insert(id).inserted, let instance = instances[id] else { continue }
            stack += instance.children
        }
        return seen
    }
}
