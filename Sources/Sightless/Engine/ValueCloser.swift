/// How a binding closes the value its scope kept when the injector keeping it shuts down (the
/// binding's `onShutdown`): in place of the value's own `close()`, for a value of a type that is
/// not ``Closable``, such as another library's client.
///
/// Linked into the storage that keeps the value (`InstanceStorage.closer`) and bound to the value
/// when it is stored, so that reading a value costs nothing more.
struct ValueCloser: Sendable {
    /// `true` when the closer awaits: only ``Injector/awaitShutDown()`` runs it.
    let isAwaited: Bool
    private let bind: @Sendable (Any) -> BoundCloser.Close?

    /// A closer that runs synchronously.
    init<Value>(_ close: @escaping @Sendable (Value) throws -> Void) {
        isAwaited = false
        bind = { value in
            guard let value = value as? Value else { return nil }
            return .synchronous { try close(value) }
        }
    }

    /// A closer that awaits.
    init<Value>(awaiting close: @escaping @Sendable (Value) async throws -> Void) {
        isAwaited = true
        bind = { value in
            guard let value = value as? Value else { return nil }
            let held = unsafe Transfer(value)
            return .awaited { try await close(held.value) }
        }
    }

    /// The closer of `value`, just stored; `nil` when `value` is not of the binding's type,
    /// which a storage never keeps.
    func bound<Value>(to value: Value) -> BoundCloser? {
        guard let close = bind(value) else { return nil }
        // An object is closed once however many storages keep it; a value type has no identity.
        let object: AnyObject? = Swift.type(of: value as Any) is AnyClass ? value as AnyObject : nil
        return BoundCloser(object: object, close: close)
    }
}

/// A binding's closer bound to the value it closes.
struct BoundCloser {
    enum Close {
        case synchronous(() throws -> Void)
        case awaited(@Sendable () async throws -> Void)
    }

    /// The value, when it is an object.
    let object: AnyObject?
    let close: Close
}
