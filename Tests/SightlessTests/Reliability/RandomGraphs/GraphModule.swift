import Sightless

/// What a node received, in slot order.
enum GraphInput: @unchecked Sendable {
    case node(GraphNode)
    case none
    case wired(Wired)
    case int(Int)
    case string(String)
}

/// The one type of every key of a random graph. It records which key built it and what it
/// received, so the checker can compare it with the spec.
final class GraphNode: @unchecked Sendable {
    let index: Int
    let inputs: [GraphInput]
    init(index: Int, inputs: [GraphInput]) {
        self.index = index
        self.inputs = inputs
    }
}

/// An `Injectable` class with an injected initializer argument, an optional property and an
/// awake hook that records what was set when it ran.
class Wired: Injectable, @unchecked Sendable {
    let input: GraphNode
    var property: GraphNode?
    private(set) var awakenings: [[ObjectIdentifier?]] = []

    required init(input: GraphNode) { self.input = input }

    class var initializer: Initializer<Wired> { Initializer(Self.init(input:), .key(GraphSpec.wiredInputKey)) }
    class var properties: Properties<Wired> {
        Properties<Wired>().inject(\.property, GraphSpec.wiredPropertyKey)
    }

    /// The properties as the awake hook must see them.
    var injected: [ObjectIdentifier?] { [property.map(ObjectIdentifier.init)] }

    func awakeFromInjection() { awakenings.append(injected) }
}

/// Inherits `Wired`'s initializer and properties, and adds a property of its own.
final class WiredChild: Wired, @unchecked Sendable {
    var extra: GraphNode?

    override class var properties: Properties<Wired> {
        super.properties.inject(\WiredChild.extra, GraphSpec.wiredExtraKey)
    }

    override var injected: [ObjectIdentifier?] { super.injected + [extra.map(ObjectIdentifier.init)] }
}

/// Counts what each key's binding built, to compare with the objects the requests returned.
final class BuildLedger: Sendable {
    private let counts = Locked<[Int: Int]>([:])
    func built(_ index: Int) { counts.withLock { $0[index, default: 0] += 1 } }
    func count(_ index: Int) -> Int { counts.withLock { $0[index] ?? 0 } }
}

private struct NodeProvider: Provider {
    let make: @Sendable (Resolver) throws -> GraphNode
    func provide(_ resolver: Resolver) throws -> GraphNode { try make(resolver) }
}

/// The bindings of a spec.
struct GraphModule: Module {
    let spec: GraphSpec
    let ledger: BuildLedger

    func configure(_ binder: Binder) {
        for (index, binding) in spec.bindings.enumerated() where !spec.removed.contains(index) {
            bind(index, binding, binder)
        }
        for (index, binding) in spec.extra {
            bind(index, binding, binder)
        }
        binder.bind(GraphSpec.wiredInputKey).to(GraphSpec.key(spec.wiredInput))
        if let property = spec.wiredProperty { binder.bind(GraphSpec.wiredPropertyKey).to(GraphSpec.key(property)) }
        if let extra = spec.wiredExtra { binder.bind(GraphSpec.wiredExtraKey).to(GraphSpec.key(extra)) }
    }

    private func bind(_ index: Int, _ binding: GraphSpec.Binding, _ binder: Binder) {
        let key = GraphSpec.key(index)
        let ledger = ledger
        let slots = binding.slots
        let scope: Scope = binding.singleton ? .singleton : .unscoped
        switch binding.source {
        case .instance:
            ledger.built(index)
            binder.bind(key).to(instance: GraphNode(index: index, inputs: []))
        case .alias(let target):
            binder.bind(key).to(GraphSpec.key(target)).in(scope)
        case .closure:
            binder.bind(key).to { resolver in
                let node = GraphNode(index: index, inputs: try slots.map { try Self.request($0, resolver) })
                ledger.built(index)
                return node
            }.in(scope)
        case .provider:
            binder.bind(key).to(provider: NodeProvider { resolver in
                let node = GraphNode(index: index, inputs: try slots.map { try Self.request($0, resolver) })
                ledger.built(index)
                return node
            }).in(scope)
        case .initializer:
            let initializer = Initializer<GraphNode>(slots.map(Self.anySlot)) { arguments in
                let inputs = try slots.indices.map { position in
                    try Self.input(slots[position], arguments, position)
                }
                ledger.built(index)
                return GraphNode(index: index, inputs: inputs)
            }
            binder.bind(key).to(initializer).in(scope)
        }
    }

    private static func anySlot(_ slot: GraphSpec.Slot) -> RawSlot {
        switch slot {
        case .node(let target): .inject(GraphSpec.key(target))
        case .optional(let target): .inject(GraphSpec.optionalKey(target))
        case .wired(let child): child ? .inject(WiredChild.self) : .inject(Wired.self)
        case .dynamicInt: .dynamic(Int.self)
        case .dynamicString: .dynamic(String.self)
        }
    }

    private static func input(
        _ slot: GraphSpec.Slot, _ arguments: Initializer<GraphNode>.Arguments, _ position: Int
    ) throws -> GraphInput {
        switch slot {
        case .node: .node(try arguments.value(at: position))
        case .optional: try arguments.value(at: position, as: GraphNode?.self).map(GraphInput.node) ?? .none
        case .wired(let child):
            child ? .wired(try arguments.value(at: position, as: WiredChild.self))
                  : .wired(try arguments.value(at: position, as: Wired.self))
        case .dynamicInt: .int(try arguments.value(at: position))
        case .dynamicString: .string(try arguments.value(at: position))
        }
    }

    /// What a closure or provider binding asks its resolver for, slot by slot.
    private static func request(_ slot: GraphSpec.Slot, _ resolver: Resolver) throws -> GraphInput {
        switch slot {
        case .node(let target): .node(try resolver.getInstance(GraphSpec.key(target)))
        case .wired(let child): child ? .wired(try resolver.getInstance(WiredChild.self)) : .wired(try resolver.getInstance(Wired.self))
        case .optional, .dynamicInt, .dynamicString: .none
        }
    }
}
