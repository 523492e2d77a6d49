import Sightless

/// Requests every key of a graph and compares each object reached with the spec: which key
/// built it, what it received in each slot, which objects are shared (one per kept key) and
/// which are new on every request, and what each binding built in total.
struct GraphChecker {
    let spec: GraphSpec
    let ledger: BuildLedger
    private(set) var failures: [String] = []
    /// The object of each kept key (a singleton or an instance), once seen.
    private var kept: [Int: ObjectIdentifier] = [:]
    /// Every object seen; a new object must not be one of them.
    private var seen: Set<ObjectIdentifier> = []
    /// The distinct objects each key built, as seen.
    private var builtBy: [Int: Set<ObjectIdentifier>] = [:]
    /// Everything returned, kept alive so that no two objects share an identity.
    private var alive: [AnyObject] = []

    init(spec: GraphSpec, ledger: BuildLedger) {
        self.spec = spec
        self.ledger = ledger
    }

    /// The dynamic arguments for a request of `index`: distinct values per request, so
    /// a value that lands in the wrong object is noticed.
    static func arguments(for index: Int, request: Int, spec: GraphSpec) -> [GraphInput] {
        spec.bindings[spec.target(of: index)].dynamicSlots.enumerated().map { position, slot in
            let value = request * 1_000 + index * 10 + position
            return slot == .dynamicInt ? .int(value) : .string("s\(value)")
        }
    }

    /// Requests `index` with its arguments, checks the result, and returns the error if any.
    mutating func request(_ index: Int, injector: Injector, request: Int) {
        let arguments = Self.arguments(for: index, request: request, spec: spec)
        do {
            let node = try Self.getInstance(GraphSpec.key(index), arguments, injector)
            alive.append(node)
            check(node, via: index, arguments: arguments, path: "n\(index)")
        } catch {
            failures.append("requesting n\(index) threw: \(error)")
        }
    }

    /// Calls the `getInstance` overload for the arguments' types; the packs are written out
    /// because the generator chooses one or two arguments of two types.
    static func getInstance(_ key: Key<GraphNode>, _ arguments: [GraphInput], _ injector: Injector) throws -> GraphNode {
        switch (arguments.first, arguments.dropFirst().first) {
        case (nil, _): try injector.getInstance(key)
        case (.int(let a)?, nil): try injector.getInstance(key, arguments: a)
        case (.string(let a)?, nil): try injector.getInstance(key, arguments: a)
        case (.int(let a)?, .int(let b)?): try injector.getInstance(key, arguments: a, b)
        case (.int(let a)?, .string(let b)?): try injector.getInstance(key, arguments: a, b)
        case (.string(let a)?, .int(let b)?): try injector.getInstance(key, arguments: a, b)
        case (.string(let a)?, .string(let b)?): try injector.getInstance(key, arguments: a, b)
        default: throw GraphCheckFailure(message: "unsupported arguments \(arguments)")
        }
    }

    /// After every request: each binding built exactly the objects that were seen.
    mutating func finish() {
        for index in spec.bindings.indices {
            let built = ledger.count(index)
            let distinct = builtBy[index]?.count ?? 0
            if spec.bindings[index].source == .instance {
                if built != 1 { failures.append("n\(index) is an instance, but its ledger counts \(built)") }
            } else if case .alias = spec.bindings[index].source {
                if built != 0 { failures.append("n\(index) is an alias, but it built \(built)") }
            } else if built != distinct {
                failures.append("n\(index) built \(built) objects, but \(distinct) were seen")
            }
            if spec.bindings[index].singleton && spec.bindings[index].source != .instance, distinct > 1 {
                failures.append("n\(index) is a singleton, but \(distinct) objects were seen")
            }
        }
    }

    private mutating func fail(_ path: String, _ message: String) {
        failures.append("\(path): \(message)")
    }

    /// Checks an object reached through key `index`; `arguments` are those of the request when
    /// `index` is the requested key.
    private mutating func check(_ node: GraphNode, via index: Int, arguments: [GraphInput], path: String) {
        let target = spec.target(of: index)
        let id = ObjectIdentifier(node)
        guard node.index == target else {
            return fail(path, "expected an object built by n\(target), got one built by n\(node.index)")
        }
        if let keeper = spec.keeper(of: index) {
            if let earlier = kept[keeper] {
                if earlier != id { fail(path, "n\(keeper) keeps one object, but a second one arrived") }
                return
            }
            kept[keeper] = id
            // A kept object may already have been seen through its own key.
            guard seen.insert(id).inserted else { return }
        } else if !seen.insert(id).inserted {
            return fail(path, "expected a new object from n\(index), got one seen before")
        }
        builtBy[target, default: []].insert(id)

        let binding = spec.bindings[target]
        if binding.source == .instance {
            if !node.inputs.isEmpty { fail(path, "an instance has inputs") }
            return
        }
        guard node.inputs.count == binding.slots.count else {
            return fail(path, "expected \(binding.slots.count) inputs, got \(node.inputs.count)")
        }
        var dynamicPosition = 0
        for (position, slot) in binding.slots.enumerated() {
            let input = node.inputs[position]
            let here = "\(path) → slot \(position)"
            switch (slot, input) {
            case (.node(let dependency), .node(let child)):
                check(child, via: dependency, arguments: [], path: here + " n\(dependency)")
            case (.optional(nil), .none):
                break
            case (.optional(let dependency?), .node(let child)):
                check(child, via: dependency, arguments: [], path: here + " n\(dependency)?")
            case (.wired(let child), .wired(let wired)):
                checkWired(wired, child: child, path: here + " Wired")
            case (.dynamicInt, .int(let value)):
                if case .int(let passed) = arguments[safe: dynamicPosition], passed == value {} else {
                    fail(here, "argument \(value) is not the one passed (\(arguments))")
                }
                dynamicPosition += 1
            case (.dynamicString, .string(let value)):
                if case .string(let passed) = arguments[safe: dynamicPosition], passed == value {} else {
                    fail(here, "argument \(value) is not the one passed (\(arguments))")
                }
                dynamicPosition += 1
            default:
                fail(here, "expected \(slot), got \(input)")
            }
        }
    }

    private mutating func checkWired(_ wired: Wired, child: Bool, path: String) {
        alive.append(wired)
        guard seen.insert(ObjectIdentifier(wired)).inserted else {
            return fail(path, "expected a new Wired, got one seen before")
        }
        if (wired is WiredChild) != child { fail(path, "expected \(child ? "WiredChild" : "Wired"), got \(type(of: wired))") }
        check(wired.input, via: spec.wiredInput, arguments: [], path: path + ".input")
        checkProperty(wired.property, key: spec.wiredProperty, path: path + ".property")
        if let wiredChild = wired as? WiredChild {
            checkProperty(wiredChild.extra, key: spec.wiredExtra, path: path + ".extra")
        }
        if wired.awakenings != [wired.injected] {
            fail(path, "awakeFromInjection ran \(wired.awakenings.count) times, or before the properties were set")
        }
    }

    private mutating func checkProperty(_ value: GraphNode?, key: Int?, path: String) {
        switch (value, key) {
        case (nil, nil): break
        case (let value?, let key?): check(value, via: key, arguments: [], path: path)
        default: fail(path, "expected \(key.map { "an object of n\($0)" } ?? "nil"), got \(value.map { "n\($0.index)" } ?? "nil")")
        }
    }
}

struct GraphCheckFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
