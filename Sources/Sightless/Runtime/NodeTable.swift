import Synchronization

/// The injector's nodes by key: those compiled when the injector was built, which never
/// change, and those compiled later on a first request, published as immutable snapshots so
/// that readers never take a lock.
final class NodeTable: @unchecked Sendable {
    private final class Snapshot: Sendable {
        let nodes: [AnyKey: AnyNode]
        init(nodes: [AnyKey: AnyNode]) { self.nodes = nodes }
    }

    private let base: [AnyKey: AnyNode]
    private let latest = Atomic<Unmanaged<Snapshot>?>(nil)
    /// Serializes compiling on first request.
    private let compiling = Lock()
    /// Every snapshot ever published, so that a reader still using an older one never sees it
    /// freed. Guarded by `compiling`.
    private var snapshots: [Snapshot] = []
    /// Releases the base nodes in an order that keeps every release shallow. Declared last:
    /// Swift releases stored properties in declaration order, so this goes after `base`.
    private let teardown: Teardown

    /// Holds the nodes compiled with the injector, dependencies first, and releases them the
    /// other way round. A node's plan holds its dependencies' plans, so releasing a deep chain's
    /// nodes in any other order could free thousands of plans recursively, one inside the
    /// other, and overflow the releasing thread's stack. Released dependents first, each plan
    /// freed still has its dependencies held by their own nodes, and nothing recurses.
    private final class Teardown {
        private var order: [AnyNode]
        init(_ order: [AnyNode]) { self.order = order }
        deinit {
            while order.popLast() != nil {}
        }
    }

    init(base: [AnyKey: AnyNode], linkOrder: [AnyNode]) {
        self.base = base
        self.teardown = Teardown(linkOrder)
    }

    /// The node of a key, if it has been compiled.
    @inline(__always)
    func node(for key: AnyKey) -> AnyNode? {
        if let node = base[key] { return node }
        guard let snapshot = latest.load(ordering: .acquiring) else { return nil }
        return snapshot._withUnsafeGuaranteedRef { $0.nodes[key] }
    }

    /// Runs `compile` alone, and publishes the nodes it returns.
    func compileOnce<Result>(
        _ compile: (_ lookup: @escaping (AnyKey) -> AnyNode?) throws(InjectionError) -> (Result, [AnyKey: AnyNode])
    ) throws(InjectionError) -> Result {
        try compiling.withLock { () throws(InjectionError) -> Result in
            let current = snapshots.last?.nodes ?? [:]
            let (result, added) = try compile { key in self.base[key] ?? current[key] }
            if !added.isEmpty {
                let snapshot = Snapshot(nodes: current.merging(added) { old, _ in old })
                snapshots.append(snapshot)
                latest.store(Unmanaged.passUnretained(snapshot), ordering: .releasing)
            }
            return result
        }
    }
}
