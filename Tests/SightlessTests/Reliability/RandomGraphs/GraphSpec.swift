import Sightless

// A random valid graph is described by a `GraphSpec`: plain data that the generator draws, the
// mutator breaks, `GraphModule` turns into bindings, and `GraphChecker` uses as the reference
// model. Swift types cannot be made at run time, so the graph's keys are
// `Key<GraphNode>(named: "n0")`, `"n1"`, …, built by raw initializers, closures, providers,
// aliases and instances, plus a fixed family of `Injectable` classes (`Wired`, `WiredChild`)
// for properties, class hierarchies and `awakeFromInjection()`.

struct GraphSpec: CustomStringConvertible {
    enum Source: Equatable {
        case instance
        case closure
        case provider
        case initializer
        /// An alias of another key of the graph.
        case alias(Int)
    }

    /// One argument of a node's initializer (or one request of its closure).
    enum Slot: Equatable {
        /// Another key of the graph.
        case node(Int)
        /// An optional key of the graph (`Key<GraphNode?>`); `nil` for a key that is bound
        /// nowhere, which resolves to `nil`.
        case optional(Int?)
        /// A `Wired` (or `WiredChild`) built just in time, with its properties.
        case wired(child: Bool)
        case dynamicInt
        case dynamicString
    }

    struct Binding: Equatable {
        var source: Source
        var singleton = false
        var slots: [Slot] = []

        var dynamicSlots: [Slot] { slots.filter { $0 == .dynamicInt || $0 == .dynamicString } }
    }

    var bindings: [Binding]
    /// The keys `Wired` needs: its initializer argument, and the properties of `Wired` and
    /// `WiredChild` (`nil`: left unbound, so the optional property stays `nil`).
    var wiredInput: Int
    var wiredProperty: Int?
    var wiredExtra: Int?
    /// Bindings added by a mutation on top of the graph's own (a duplicate key).
    var extra: [(key: Int, binding: Binding)] = []
    /// Keys whose binding a mutation removed.
    var removed: Set<Int> = []

    static func key(_ index: Int) -> Key<GraphNode> { Key(named: "n\(index)") }
    static func optionalKey(_ index: Int?) -> Key<GraphNode?> { Key(named: index.map { "n\($0)" } ?? "unbound") }
    static let wiredInputKey = Key<GraphNode>(named: "wired.input")
    static let wiredPropertyKey = Key<GraphNode>(named: "wired.property")
    static let wiredExtraKey = Key<GraphNode>(named: "wired.extra")

    /// The key an alias chain from `index` ends at.
    func target(of index: Int) -> Int {
        var current = index
        while case .alias(let next) = bindings[current].source { current = next }
        return current
    }

    /// The deepest key on the alias chain from `index` whose value is kept (a singleton or an
    /// instance): every request through `index` gets that key's one object. `nil` when each
    /// request builds a new object.
    func keeper(of index: Int) -> Int? {
        var current = index
        var kept: Int?
        while true {
            let binding = bindings[current]
            if binding.singleton || binding.source == .instance { kept = current }
            guard case .alias(let next) = binding.source else { return kept }
            current = next
        }
    }

    /// The keys whose binding the graph can see depending on `index` (closures' requests are
    /// invisible until they run).
    func visibleConsumers(of index: Int) -> [Int] {
        bindings.indices.filter { consumer in
            switch bindings[consumer].source {
            case .alias(let target): return target == index
            case .initializer: return bindings[consumer].slots.contains(.node(index))
            default: return false
            }
        }
    }

    /// The keys the binding of `index` visibly depends on.
    func visibleDependencies(of index: Int) -> [Int] {
        switch bindings[index].source {
        case .alias(let target): return [target]
        case .initializer:
            return bindings[index].slots.compactMap { slot in
                switch slot {
                case .node(let target): target
                case .optional(let target): target
                default: nil
                }
            }
        default: return []
        }
    }

    var description: String {
        bindings.enumerated().map { index, binding in
            "n\(index): \(binding.source)\(binding.singleton ? " singleton" : "") \(binding.slots)"
        }.joined(separator: "\n")
    }
}

/// A splitmix64 generator: small, fast, and the same sequence for the same seed everywhere.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension GraphSpec {
    /// Draws a valid graph of up to `maximumKeys` keys. Each key depends only on keys with a
    /// higher index, so the graph has no cycle; the `Wired` family's keys point into the last
    /// quarter and only the first three quarters use `Wired`, for the same reason.
    static func random(using random: inout SeededGenerator, maximumKeys: Int) -> GraphSpec {
        let count = Int.random(in: 2...maximumKeys, using: &random)
        let wiredFloor = count * 3 / 4
        // Keys with dynamic arguments may only be requested, never depended on.
        var requestOnly = Set<Int>()
        var bindings = [Binding](repeating: Binding(source: .instance), count: count)
        // From the last key down, so every key a binding may depend on is drawn already.
        for index in (0..<count).reversed() {
            let later = (index + 1)..<count
            func dependency() -> Int? {
                let candidates = later.filter { !requestOnly.contains($0) }
                guard !candidates.isEmpty else { return nil }
                // Mostly near keys, sometimes far ones: long chains as well as wide fan-in.
                if Bool.random(using: &random), let near = candidates.prefix(4).randomElement(using: &random) { return near }
                return candidates.randomElement(using: &random)
            }
            let roll = Int.random(in: 0..<100, using: &random)
            var binding: Binding
            if later.isEmpty || roll < 10 {
                binding = Binding(source: .instance)
            } else if roll < 25, let target = dependency() {
                binding = Binding(source: .alias(target), singleton: Int.random(in: 0..<4, using: &random) == 0)
            } else {
                let source: Source = roll < 40 ? .closure : roll < 50 ? .provider : .initializer
                binding = Binding(source: source, singleton: Bool.random(using: &random))
                for _ in 0..<Int.random(in: 0...4, using: &random) {
                    let kind = Int.random(in: 0..<10, using: &random)
                    if source == .initializer && kind == 0 {
                        binding.slots.append(.optional(Bool.random(using: &random) ? dependency() : nil))
                    } else if kind == 1 && index < wiredFloor {
                        binding.slots.append(.wired(child: Bool.random(using: &random)))
                    } else if let target = dependency() {
                        binding.slots.append(.node(target))
                    }
                }
                if source == .initializer, Int.random(in: 0..<6, using: &random) == 0 {
                    binding.singleton = false
                    let dynamic: [Slot] = [.dynamicInt, .dynamicString]
                    for _ in 0..<Int.random(in: 1...2, using: &random) {
                        let position = Int.random(in: 0...binding.slots.count, using: &random)
                        binding.slots.insert(dynamic.randomElement(using: &random) ?? .dynamicInt, at: position)
                    }
                    requestOnly.insert(index)
                }
            }
            bindings[index] = binding
        }
        // An alias of a key with arguments would pass them on; keep such keys request-only.
        let upper = max(wiredFloor, count - 1)
        func wiredTarget() -> Int {
            let candidates = (wiredFloor...upper).filter { !requestOnly.contains($0) && $0 < count }
            return candidates.randomElement(using: &random) ?? (count - 1)
        }
        var spec = GraphSpec(bindings: bindings, wiredInput: 0)
        spec.wiredInput = wiredTarget()
        spec.wiredProperty = Bool.random(using: &random) ? wiredTarget() : nil
        spec.wiredExtra = Bool.random(using: &random) ? wiredTarget() : nil
        return spec
    }
}
