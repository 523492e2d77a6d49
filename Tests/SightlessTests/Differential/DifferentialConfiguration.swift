import Sightless

// A random configuration of the differential suite, as plain data: named keys `k0`… of
// `DfBox`, each bound to an instance, a closure (that may ask its resolver for an earlier key)
// or an alias of an earlier key, in a scope; decorators of some of them; `Int` bound or not;
// the protocol key `DfService` bound to a nonisolated or a main-actor implementation, kept or
// not. Every configuration is valid by the documented rules: building its injector must succeed.

/// How one key `k…` is bound.
enum DfBinding: Equatable, CustomStringConvertible {
    case instance
    case closure(needs: Int?, scope: DfScope)
    case alias(of: Int, scope: DfScope)

    var description: String {
        switch self {
        case .instance: "instance"
        case .closure(let needs, let scope): "closure\(needs.map { " needing k\($0)" } ?? "") in \(scope)"
        case .alias(let target, let scope): "alias of k\(target) in \(scope)"
        }
    }
}

enum DfScope: CaseIterable, CustomStringConvertible {
    case unscoped, singleton, weak, perRequest

    var scope: Scope {
        switch self {
        case .unscoped: .unscoped
        case .singleton: .singleton
        case .weak: .weak
        case .perRequest: .perRequest
        }
    }

    var description: String { scope.name }
}

struct DfConfiguration: CustomStringConvertible {
    var boxes: [DfBinding] = []
    var decorated: Set<Int> = []
    var bindsInt = false
    /// The keys contributed to the collection `[DfBox]`, in order.
    var contributed: [Int] = []
    /// Whether `DfNested` gets `nil` for its `DfLeaf?` by a contextual binding.
    var contextualLeaf = false
    /// The implementation the protocol key is bound to (`true`: the main-actor one), and
    /// whether the alias is a singleton.
    var service: (mainActor: Bool, singleton: Bool)?

    /// The configuration of a seed: the same everywhere.
    init(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let count = random.below(5) + 1
        for index in 0..<count {
            let scope = DfScope.allCases[random.below(DfScope.allCases.count)]
            switch random.below(index == 0 ? 2 : 3) {
            case 0: boxes.append(.instance)
            case 1: boxes.append(.closure(needs: index > 0 && random.below(2) == 0 ? random.below(index) : nil, scope: scope))
            default:
                let target = random.below(index)
                boxes.append(.alias(of: target, scope: Self.aliasScope(scope, of: target, in: boxes)))
            }
            if random.below(4) == 0 { decorated.insert(index) }
        }
        bindsInt = random.below(2) == 0
        contributed = boxes.indices.filter { _ in random.below(3) == 0 }
        contextualLeaf = random.below(3) == 0
        if random.below(3) > 0 { service = (random.below(2) == 0, random.below(2) == 0) }
    }

    /// A scope an alias may take without holding a value kept shorter than itself (which the
    /// graph rejects as a captive dependency): its own when what its target hands out (through
    /// unscoped aliases, the scope at the end of the chain) is kept by nobody or kept alike,
    /// else none.
    private static func aliasScope(_ scope: DfScope, of target: Int, in boxes: [DfBinding]) -> DfScope {
        var current = target
        while true {
            switch boxes[current] {
            case .instance: return scope
            case .alias(let next, .unscoped): current = next
            case .closure(_, let targetScope), .alias(_, let targetScope):
                return targetScope == .unscoped || targetScope == scope ? scope : .unscoped
            }
        }
    }

    var description: String {
        var parts = boxes.enumerated().map { "k\($0.offset): \($0.element)\(decorated.contains($0.offset) ? ", decorated" : "")" }
        parts.append(bindsInt ? "Int bound" : "Int not bound")
        if !contributed.isEmpty { parts.append("[DfBox] gathers " + contributed.map { "k\($0)" }.joined(separator: ", ")) }
        if contextualLeaf { parts.append("DfLeaf? is nil into DfNested") }
        if let service {
            parts.append("DfService → \(service.mainActor ? "DfMainService" : "DfPlainService")\(service.singleton ? " in singleton" : "")")
        }
        return parts.joined(separator: "; ")
    }
}

/// The module of a configuration.
struct DfModule: Module {
    let configuration: DfConfiguration

    func configure(_ binder: Binder) {
        for (index, binding) in configuration.boxes.enumerated() {
            let key = Key<DfBox>(named: "k\(index)")
            switch binding {
            case .instance:
                binder.bind(key).to(instance: DfBox("i\(index)"))
            case .closure(let needs, let scope):
                binder.bind(key).to { resolver in
                    DfBox("c\(index)", try needs.map { [try resolver.getInstance(Key<DfBox>(named: "k\($0)"))] } ?? [])
                }.in(scope.scope)
            case .alias(let target, let scope):
                binder.bind(key).to(Key<DfBox>(named: "k\(target)")).in(scope.scope)
            }
            if configuration.decorated.contains(index) {
                binder.decorate(key) { box in DfBox("d\(index)", [box]) }
            }
        }
        if configuration.bindsInt { binder.bind(Int.self).to(instance: 11) }
        for index in configuration.contributed {
            binder.contribute(to: [DfBox].self).to(Key<DfBox>(named: "k\(index)"))
        }
        if configuration.contextualLeaf {
            binder.bind(Optional<DfLeaf>.self).whenInjected(into: DfNested.self).to(instance: nil)
        }
        if let service = configuration.service {
            let builder = service.mainActor
                ? binder.bind((any DfService).self).to(DfMainService.self)
                : binder.bind((any DfService).self).to(DfPlainService.self)
            builder.in(service.singleton ? .singleton : .unscoped)
        }
    }
}

extension SeededGenerator {
    /// A number from 0 to `bound` − 1.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
