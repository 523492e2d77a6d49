/// The node of a deferred dependency's target. Deferred edges may close cycles, so the target
/// may not be linked when its consumer is; the reference is filled when the whole compilation
/// is linked, before any of its nodes is published, and never changes afterwards.
@usableFromInline
final class NodeReference<Value>: @unchecked Sendable {
    private(set) var node: Node<Value>?
    let key: AnyKey

    init(key: AnyKey) {
        self.key = key
    }

    func fill(from nodes: (AnyKey) -> AnyNode?) {
        // The node of a key whose type is Value is always a Node<Value>.
        node = nodes(key).map { unsafeDowncast($0, to: Node<Value>.self) }
    }
}

/// A reference waiting to be filled, with its type erased.
struct PendingReference {
    let fill: ((AnyKey) -> AnyNode?) -> Void
}
