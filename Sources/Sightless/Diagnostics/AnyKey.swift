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
    ///
    /// ```swift
    /// print(AnyKey(Key<Api>()).type == Api.self)   // true
    /// ```
    public let type: Any.Type
    /// The key's name, or `nil` for the bare type.
    ///
    /// ```swift
    /// print(AnyKey(Key<String>(named: "endpoint")).name ?? "none")   // endpoint
    /// ```
    public let name: String?

    @usableFromInline
    init(type: Any.Type, name: String?) {
        self.type = type
        self.name = name
    }

    /// The type's name as Swift writes it, without the module: `Api`, `Optional<Int>`.
    ///
    /// ```swift
    /// print(AnyKey(Key<Int?>()).typeName)   // Optional<Int>
    /// ```
    public var typeName: String { Self.name(of: type) }

    /// The runtime writes the arguments of a variadic generic type as `Pack{…}`
    /// (`Factory<Screen, Pack{String}>`); the name drops that wrapper, as source does.
    static func name(of type: Any.Type) -> String {
        let written = String(describing: type)
        guard written.contains("Pack{") else { return written }
        var result = ""
        var closings: [Bool] = []   // per open brace: whether it belongs to a Pack wrapper
        var index = written.startIndex
        while index < written.endIndex {
            if written[index...].hasPrefix("Pack{}") {
                // An empty pack: `Factory<Screen, Pack{}>` is written `Factory<Screen>`.
                if result.hasSuffix(", ") { result.removeLast(2) }
                index = written.index(index, offsetBy: 6)
                continue
            }
            if written[index...].hasPrefix("Pack{") {
                closings.append(true)
                index = written.index(index, offsetBy: 5)
                continue
            }
            let character = written[index]
            if character == "{" {
                closings.append(false)
            } else if character == "}", let isPack = closings.popLast(), isPack {
                index = written.index(after: index)
                continue
            }
            result.append(character)
            index = written.index(after: index)
        }
        return result
    }

    /// A readable form: `Api`, or `String(named: "endpoint")`.
    ///
    /// ```swift
    /// print(AnyKey(Key<Api>()))   // Api
    /// ```
    public var description: String {
        guard let name else { return typeName }
        return "\(typeName)(named: \"\(name)\")"
    }

    /// Two keys are equal when their types and names are equal.
    public static func == (lhs: AnyKey, rhs: AnyKey) -> Bool {
        ObjectIdentifier(lhs.type) == ObjectIdentifier(rhs.type) && lhs.name == rhs.name
    }

    /// Hashes the type and the name, so keys serve as dictionary keys.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(type))
        hasher.combine(name)
    }
}
