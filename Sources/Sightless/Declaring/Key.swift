/// Names one thing the injector can provide: a type, and optionally a name that tells apart
/// several values of that type.
///
/// A bare type is the key with no name, so `Key<Api>()` and `Api.self` name the same binding.
/// Two keys are equal when their types and names are equal.
///
/// ```swift
/// let endpoint = Key<String>(named: "endpoint")
/// binder.bind(endpoint).to(instance: "https://example.com")
/// let url = try injector.getInstance(endpoint)
/// ```
public struct Key<Value>: Hashable, Sendable, CustomStringConvertible {
    /// The name that sets this key apart from other keys of the same type, or `nil`.
    ///
    /// ```swift
    /// print(Key<String>(named: "endpoint").name ?? "none")   // endpoint
    /// ```
    public let name: String?

    /// Creates the key of a type, optionally with a name.
    ///
    /// ```swift
    /// let plain = Key<Clock>()
    /// let named = Key(String.self, named: "endpoint")
    /// ```
    public init(_ type: Value.Type = Value.self, named name: String? = nil) {
        self.name = name
    }

    /// The same key with its type erased, for collections of keys of different types.
    ///
    /// ```swift
    /// let keys: Set<AnyKey> = [Key<Api>().erased, Key<String>(named: "endpoint").erased]
    /// ```
    public var erased: AnyKey { AnyKey(type: Value.self, name: name) }

    /// A readable form: `Api`, or `String(named: "endpoint")`.
    ///
    /// ```swift
    /// print(Key<String>(named: "endpoint"))   // String(named: "endpoint")
    /// ```
    public var description: String { erased.description }
}

extension AnyKey {
    /// Erases a typed key.
    ///
    /// ```swift
    /// let key = AnyKey(Key<String>(named: "endpoint"))
    /// ```
    public init<Value>(_ key: Key<Value>) {
        self.init(type: Value.self, name: key.name)
    }
}
