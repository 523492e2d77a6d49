// A random module configuration for the configuration fuzz test, as plain data: the keys
// `Key<FzNode>(named: "k0")` … `"k\(n-1)"` are each bound by an instance, a closure, a provider,
// an alias or a raw initializer; a few of the pool types (`FzPool`) get bindings of their own;
// optional keys `Key<FzNode?>(named: "o…")` are aliased to optional keys; and the closures,
// initializers and the test itself make requests, some of them recursive, through the resolver,
// `resolver.injector`, `Lazy.get` and `Factory.make`. Unlike `GraphSpec`, nothing here is
// meant to be valid: cycles, missing keys, wrong argument types and type mismatches are all
// drawn on purpose. The only promise checked is that every outcome is a value or an
// `InjectionError`.

/// The fixed pool of `Injectable` types a configuration may bind, alias to, or request.
enum FzPool: CaseIterable, CustomStringConvertible {
    /// `FzTyped`: Lazy, Factory and optional edges to `k0`…`k3`; recurses through its Lazy.
    case typed
    /// `FzDyn`: one dynamic `String`.
    case dyn
    /// `FzDynPair`: dynamic `Int` then `String`.
    case dynPair
    /// `FzLevel`: recurses through its own `Factory<FzLevel, Int>`.
    case level
    /// `FzSelfLazy`: unscoped, gets its own `Lazy<Self>` in its initializer.
    case selfLazy
    /// `FzAnimal`: a base class with a plain `static let` initializer.
    case animal
    /// `FzPuppy`: inherits `FzAnimal`'s initializer, which builds an `FzAnimal`.
    case puppy
    /// `FzStranger`: Injectable, but not an `FzNode`.
    case stranger
    /// `FzOuter`: a dynamic `Int`, and the optional key `o0` (which may be aliased to
    /// a type with dynamic arguments of its own).
    case outer

    var description: String {
        switch self {
        case .typed: "FzTyped"
        case .dyn: "FzDyn"
        case .dynPair: "FzDynPair"
        case .level: "FzLevel"
        case .selfLazy: "FzSelfLazy"
        case .animal: "FzAnimal"
        case .puppy: "FzPuppy"
        case .stranger: "FzStranger"
        case .outer: "FzOuter"
        }
    }

    /// The dynamic arguments of the type's initializer.
    var dynamics: [FzArgKind] {
        switch self {
        case .dyn: [.string]
        case .dynPair: [.int, .string]
        case .level: [.int]
        case .outer: [.int]
        default: []
        }
    }
}

enum FzArgKind: Equatable, CustomStringConvertible {
    case int, string
    var description: String { self == .int ? "Int" : "String" }
}

/// The dynamic arguments a request passes.
enum FzArgs: Equatable, CustomStringConvertible {
    case none
    case int(Int)
    case string(String)
    case intString(Int, String)
    case stringInt(String, Int)

    var kinds: [FzArgKind] {
        switch self {
        case .none: []
        case .int: [.int]
        case .string: [.string]
        case .intString: [.int, .string]
        case .stringInt: [.string, .int]
        }
    }

    var values: [FzValue] {
        switch self {
        case .none: []
        case .int(let a): [.int(a)]
        case .string(let a): [.string(a)]
        case .intString(let a, let b): [.int(a), .string(b)]
        case .stringInt(let a, let b): [.string(a), .int(b)]
        }
    }

    var description: String {
        switch self {
        case .none: "()"
        case .int(let a): "(\(a))"
        case .string(let a): "(\"\(a)\")"
        case .intString(let a, let b): "(\(a), \"\(b)\")"
        case .stringInt(let a, let b): "(\"\(a)\", \(b))"
        }
    }

    /// Arguments of the given kinds, with values drawn from `random`.
    /// Every `Int` the test passes is below this.
    static let largestInt = 400

    static func matching(_ kinds: [FzArgKind], using random: inout SeededGenerator) -> FzArgs? {
        // Mostly small; sometimes large, for a deep `FzLevel`.
        let number = Int.random(in: 0..<4, using: &random) == 0
            ? Int.random(in: 100..<largestInt, using: &random) : Int.random(in: 0..<40, using: &random)
        let text = "s\(Int.random(in: 0..<1_000, using: &random))"
        switch kinds {
        case []: return FzArgs.none
        case [.int]: return .int(number)
        case [.string]: return .string(text)
        case [.int, .string]: return .intString(number, text)
        case [.string, .int]: return .stringInt(text, number)
        default: return nil
        }
    }

    static func random(using random: inout SeededGenerator) -> FzArgs {
        let kinds: [[FzArgKind]] = [[], [.int], [.string], [.int, .string], [.string, .int]]
        return matching(kinds.randomElement(using: &random) ?? [], using: &random) ?? FzArgs.none
    }
}

/// A dynamic value as an object recorded it.
enum FzValue: Equatable, CustomStringConvertible {
    case int(Int)
    case string(String)
    var description: String {
        switch self {
        case .int(let value): "\(value)"
        case .string(let value): "\"\(value)\""
        }
    }
}

/// A key a request, a slot or an alias names.
enum FzKey: Equatable, CustomStringConvertible {
    /// `Key<FzNode>(named: "k\(index)")`, bound.
    case node(Int)
    /// `Key<FzNode>(named: "u\(index)")`, bound nowhere.
    case unbound(Int)
    /// `Key<FzNode?>(named: "k\(index)")`: the optional of a bound key.
    case optional(Int)
    /// `Key<FzNode?>(named: "u\(index)")`: the optional of an unbound key.
    case optionalUnbound(Int)
    /// `Key<FzNode?>(named: "o\(index)")`: an optional key that may be aliased.
    case optionalAlias(Int)
    /// `Key<Lazy<FzNode>>(named: "k\(index)")`.
    case lazy(Int)
    /// `Key<Factory<FzNode>>(named: "k\(index)")`.
    case factory(Int)
    /// `Key<Factory<FzNode, Int>>(named: "k\(index)")`.
    case factoryInt(Int)
    /// `Key<Factory<FzNode, String>>(named: "k\(index)")`.
    case factoryString(Int)
    /// The key of a pool type, `Key<FzTyped>()` and so on.
    case pool(FzPool)
    /// `Key<FzPool-type?>()`: the optional of a pool type.
    case optionalPool(FzPool)
    /// `Key<Injector>()`.
    case injector

    var description: String {
        switch self {
        case .node(let index): "k\(index)"
        case .unbound(let index): "u\(index)"
        case .optional(let index): "k\(index)?"
        case .optionalUnbound(let index): "u\(index)?"
        case .optionalAlias(let index): "o\(index)?"
        case .lazy(let index): "Lazy<k\(index)>"
        case .factory(let index): "Factory<k\(index)>"
        case .factoryInt(let index): "Factory<k\(index), Int>"
        case .factoryString(let index): "Factory<k\(index), String>"
        case .pool(let pool): "\(pool)"
        case .optionalPool(let pool): "\(pool)?"
        case .injector: "Injector"
        }
    }
}

/// One request made by the test, a closure, a provider or an initializer.
struct FzRequest: Equatable, CustomStringConvertible {
    enum Via: Equatable { case resolver, injector }
    var key: FzKey
    var arguments: FzArgs
    /// From a closure or provider: through its resolver, or through `resolver.injector`.
    var via: Via = .resolver

    var description: String {
        "\(via == .injector ? "injector." : "")get(\(key)\(arguments == .none ? "" : ", \(arguments)"))"
    }
}

/// One argument slot of a raw initializer.
enum FzSlot: Equatable, CustomStringConvertible {
    /// Injects this key (`.inject(key)`).
    case inject(FzKey)
    case dynamicInt
    case dynamicString

    var description: String {
        switch self {
        case .inject(let key): "\(key)"
        case .dynamicInt: "dynamic Int"
        case .dynamicString: "dynamic String"
        }
    }
}

struct FzConfiguration: CustomStringConvertible {
    enum Source: Equatable {
        case instance
        case closure([FzRequest])
        case provider([FzRequest])
        /// An alias of `Key<FzNode>(named: "k…")` to another key.
        case alias(FzKey)
        /// A raw initializer; `uses` are the slot positions whose `Lazy`, `Factory` or
        /// `Injector` the initializer uses while it runs (with `request` for the injector).
        case initializer(slots: [FzSlot], uses: [Int], request: FzRequest?)
    }

    struct Binding: Equatable {
        var source: Source
        var singleton: Bool
    }

    /// The binding of `k\(index)`.
    var bindings: [Binding]
    /// Pool types bound by their own key, singleton or not.
    var poolBindings: [(pool: FzPool, singleton: Bool)]
    /// `Key<FzNode?>(named: "o\(index)")` aliased to an optional key.
    var optionalAliases: [(index: Int, target: FzKey)]
    /// What the test requests, in order.
    var requests: [FzRequest]
    /// Whether, after the requests, the test releases the injector before using the `Lazy` and
    /// `Factory` values the built objects kept.
    var releaseBeforeDeferredUse: Bool

    var description: String {
        var lines: [String] = []
        for (index, binding) in bindings.enumerated() {
            lines.append("k\(index): \(Self.describe(binding.source))\(binding.singleton ? " singleton" : "")")
        }
        for (pool, singleton) in poolBindings { lines.append("bind(\(pool).self)\(singleton ? " singleton" : "")") }
        for (index, target) in optionalAliases { lines.append("o\(index)? → \(target)") }
        lines.append("requests: \(requests.map(\.description).joined(separator: "; "))")
        lines.append("release before deferred use: \(releaseBeforeDeferredUse)")
        return lines.joined(separator: "\n")
    }

    private static func describe(_ source: Source) -> String {
        switch source {
        case .instance: "instance"
        case .closure(let requests): "closure { \(requests.map(\.description).joined(separator: "; ")) }"
        case .provider(let requests): "provider { \(requests.map(\.description).joined(separator: "; ")) }"
        case .alias(let target): "alias → \(target)"
        case .initializer(let slots, let uses, let request):
            "initializer(\(slots.map(\.description).joined(separator: ", "))) uses \(uses)\(request.map { " then \($0)" } ?? "")"
        }
    }
}

// MARK: - Drawing a configuration

extension FzConfiguration {
    static func random(using random: inout SeededGenerator) -> FzConfiguration {
        let count = Int.random(in: 4...9, using: &random)
        var drawer = FzDrawer(count: count)
        var bindings: [Binding] = []
        for _ in 0..<count {
            let roll = Int.random(in: 0..<100, using: &random)
            let source: Source
            if roll < 10 {
                source = .instance
            } else if roll < 30 {
                source = .closure(drawer.requests(0...3, via: true, using: &random))
            } else if roll < 40 {
                source = .provider(drawer.requests(0...2, via: true, using: &random))
            } else if roll < 62 {
                source = .alias(drawer.aliasTarget(using: &random))
            } else {
                var slots: [FzSlot] = []
                for _ in 0..<Int.random(in: 0...4, using: &random) { slots.append(drawer.slot(using: &random)) }
                let usable = slots.indices.filter { position in
                    switch slots[position] {
                    case .inject(.lazy), .inject(.factory), .inject(.factoryInt), .inject(.factoryString), .inject(.injector): true
                    default: false
                    }
                }
                let uses = usable.filter { _ in Bool.random(using: &random) }
                let request = slots.contains(.inject(.injector)) ? drawer.request(via: false, using: &random) : nil
                source = .initializer(slots: slots, uses: uses, request: request)
            }
            bindings.append(Binding(source: source, singleton: Int.random(in: 0..<100, using: &random) < 35))
        }
        var pools: [(pool: FzPool, singleton: Bool)] = []
        for pool in FzPool.allCases where Int.random(in: 0..<100, using: &random) < 12 {
            pools.append((pool, Int.random(in: 0..<100, using: &random) < 40))
        }
        var optionalAliases: [(index: Int, target: FzKey)] = []
        for index in 0..<Int.random(in: 0...2, using: &random) {
            optionalAliases.append((index, drawer.optionalAliasTarget(using: &random)))
        }
        let requests = drawer.requests(3...7, via: false, using: &random, topLevel: true, bindings: bindings)
        return FzConfiguration(bindings: bindings, poolBindings: pools, optionalAliases: optionalAliases,
                               requests: requests, releaseBeforeDeferredUse: Int.random(in: 0..<4, using: &random) == 0)
    }
}

/// Draws the parts of a configuration of `count` keys.
private struct FzDrawer {
    let count: Int

    mutating func index(using random: inout SeededGenerator) -> Int {
        Int.random(in: 0..<count, using: &random)
    }

    mutating func pool(using random: inout SeededGenerator) -> FzPool {
        FzPool.allCases.randomElement(using: &random) ?? .typed
    }

    /// Any key, weighted toward the plain bound keys.
    mutating func key(using random: inout SeededGenerator) -> FzKey {
        let roll = Int.random(in: 0..<100, using: &random)
        let index = index(using: &random)
        switch roll {
        case ..<38: return .node(index)
        case ..<41: return .unbound(index)
        case ..<47: return .optional(index)
        case ..<49: return .optionalUnbound(index)
        case ..<55: return .optionalAlias(Int.random(in: 0..<2, using: &random))
        case ..<63: return .lazy(index)
        case ..<69: return .factory(index)
        case ..<74: return .factoryInt(index)
        case ..<77: return .factoryString(index)
        case ..<93: return .pool(pool(using: &random))
        case ..<97: return .optionalPool(pool(using: &random))
        default: return .injector
        }
    }

    mutating func request(via drawVia: Bool, using random: inout SeededGenerator) -> FzRequest {
        let key = key(using: &random)
        let arguments = Int.random(in: 0..<3, using: &random) == 0 ? FzArgs.random(using: &random) : FzArgs.none
        let via: FzRequest.Via = drawVia && Bool.random(using: &random) ? .injector : .resolver
        return FzRequest(key: key, arguments: arguments, via: via)
    }

    mutating func requests(
        _ range: ClosedRange<Int>, via drawVia: Bool, using random: inout SeededGenerator,
        topLevel: Bool = false, bindings: [FzConfiguration.Binding] = []
    ) -> [FzRequest] {
        (0..<Int.random(in: range, using: &random)).map { _ in
            var request = self.request(via: drawVia, using: &random)
            // The test's own requests mostly bring the arguments the target takes.
            if topLevel, Int.random(in: 0..<10, using: &random) < 6,
               let kinds = FzModel(bindings: bindings).dynamics(of: request.key),
               let arguments = FzArgs.matching(kinds, using: &random) {
                request.arguments = arguments
            }
            return request
        }
    }

    mutating func aliasTarget(using random: inout SeededGenerator) -> FzKey {
        let roll = Int.random(in: 0..<100, using: &random)
        switch roll {
        case ..<65: return .node(index(using: &random))
        case ..<85: return .pool(pool(using: &random))
        case ..<90: return .unbound(index(using: &random))
        case ..<95: return .optional(index(using: &random))
        default: return .optionalPool(pool(using: &random))
        }
    }

    mutating func optionalAliasTarget(using random: inout SeededGenerator) -> FzKey {
        let roll = Int.random(in: 0..<100, using: &random)
        switch roll {
        case ..<35: return .optionalPool([FzPool.dyn, .dynPair, .level].randomElement(using: &random) ?? .dyn)
        case ..<60: return .optional(index(using: &random))
        case ..<75: return .optionalUnbound(index(using: &random))
        case ..<85: return .optionalAlias(Int.random(in: 0..<2, using: &random))
        default: return .optionalPool(pool(using: &random))
        }
    }

    mutating func slot(using random: inout SeededGenerator) -> FzSlot {
        switch Int.random(in: 0..<100, using: &random) {
        case ..<10: return .dynamicInt
        case ..<18: return .dynamicString
        case ..<22: return .inject(.injector)
        default:
            var key = key(using: &random)
            if key == .injector { key = .node(index(using: &random)) }
            return .inject(key)
        }
    }
}

/// What the configuration says about a key's value, where it can say it simply.
struct FzModel {
    let bindings: [FzConfiguration.Binding]

    /// The end of the chain of plain aliases from `k\(index)`, and whether any binding on it is
    /// a singleton; `nil` for a chain that loops or leaves the plain keys.
    func chain(from index: Int) -> (end: FzConfiguration.Source, endIndex: Int?, pool: FzPool?, singleton: Bool)? {
        var current = index
        var seen: Set<Int> = []
        var singleton = false
        while seen.insert(current).inserted {
            let binding = bindings[current]
            singleton = singleton || binding.singleton
            switch binding.source {
            case .alias(.node(let next)) where next != current: current = next
            case .alias(.pool(let pool)): return (binding.source, nil, pool, singleton)
            case .alias: return nil
            default: return (binding.source, current, nil, singleton)
            }
        }
        return nil
    }

    /// The dynamic arguments a request for `key` must bring, when known.
    func dynamics(of key: FzKey) -> [FzArgKind]? {
        switch key {
        case .pool(let pool): return pool.dynamics
        case .node(let index):
            guard index < bindings.count, let chain = chain(from: index) else { return nil }
            if let pool = chain.pool { return pool.dynamics }
            guard case .initializer(let slots, _, _) = chain.end else { return [] }
            return slots.compactMap { slot in
                switch slot {
                case .dynamicInt: .int
                case .dynamicString: .string
                case .inject: nil
                }
            }
        default: return nil
        }
    }

    /// The label of the object a request for `k\(index)` must return, when known.
    func origin(of index: Int) -> String? {
        guard let chain = chain(from: index) else { return nil }
        if let pool = chain.pool {
            return pool == .puppy || pool == .stranger ? nil : pool.description
        }
        return chain.endIndex.map { "k\($0)" }
    }
}
