extension AnyNode {
    /// This node as a `Node<Value>`.
    ///
    /// Invariant: the node of a key whose type is `Value` is a `Node<Value>`. Checked with one
    /// comparison of type identities; a mismatch throws rather than reinterprets the node.
    @inlinable @inline(__always)
    func typed<Value>(as type: Value.Type) throws(InjectionError) -> Node<Value> {
        guard valueType == ObjectIdentifier(Value.self) else { throw nodeTypeMismatch(Value.self) }
        return unsafe unsafeDowncast(self, to: Node<Value>.self)
    }

    /// This node as a `Node<Value>`, without comparing types.
    ///
    /// Invariant: the caller found the node in a `NodeIndex` by the identity of `Value`, and
    /// `NodeIndex` indexes a node only under the type it produces (checked when it is built).
    @unsafe @inlinable @inline(__always)
    func typedVerified<Value>(as type: Value.Type) -> Node<Value> {
        unsafe unsafeDowncast(self, to: Node<Value>.self)
    }

    @usableFromInline @inline(never)
    func nodeTypeMismatch(_ type: Any.Type) -> InjectionError {
        InjectionError(.internalInconsistency(.nodeType(key: key, expected: AnyKey.name(of: type))))
    }
}

/// Invariant: every stored property is an immutable `let` of a `Sendable` type; subclasses add
/// only such properties. (A class that is not final cannot be checked as `Sendable`.)
extension AnyNode: @unchecked Sendable {}
extension Node: @unchecked Sendable {}
