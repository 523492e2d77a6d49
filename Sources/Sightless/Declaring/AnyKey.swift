/// A ``Key`` with its value type erased: a type and an optional name.
///
/// Errors, the compiled graph and its exports speak of keys in this form.
///
/// ```swift
/// let key = Key<String>(named: "endpoint").erased
/// print(key)            // String(named: "endpoint")
/// print(key.type)       // String
/// ```
public struct AnyKey: Hashable, Sendable, CustomStringConvertible {
    /// The type of the value this key names.
    public let type: Any.Type
    /// The key's name, or `nil` for the bare type.
    public let name: String?

    /// Erases a typed key.
    public init<Value>(_ key: Key<Value>) {
        self.init(type: Value.self, name: key.name)
    }

    init(type: Any.Type, name: String?) {
        self.type = type
        self.name = name
    }

    /// The type's name as Swift writes it, without the module: `Api`, `Optional<Int>`.
    public var typeName: String { String(describing: type) }

    /// A readable form: `Api`, or `String(named: "endpoint")`.
    public var description: String {
        guard let name else { return typeName }
        return "\(typeName)(named: \"\(name)\")"
    }

    public static func == (lhs: AnyKey, rhs: AnyKey) -> Bool {
        ObjectIdentifier(lhs.type) == ObjectIdentifier(rhs.type) && lhs.name == rhs.name
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(type))
        hasher.combine(name)
    }
}
