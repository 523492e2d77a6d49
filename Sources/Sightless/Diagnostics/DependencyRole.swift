/// Where a dependency's value goes: an initializer argument, a property, or the target of an
/// alias.
///
/// ```swift
/// if case .property(let path) = dependency.role { print(path) }   // \House.color
/// ```
public enum DependencyRole: Hashable, Sendable, CustomStringConvertible {
    /// The initializer argument at this position (counted from 1).
    case argument(Int)
    /// The property at this key path (written as `\Type.property`).
    case property(String)
    /// The key another key is bound to: `bind(Api.self).to(HttpApi.self)`.
    case target
    /// One contribution to a collection: its position in an array or set, or its key in a map
    /// (written as Swift writes the key).
    case contribution(String)

    /// A readable form: `argument 2`, `property \House.color`, `bound to`.
    ///
    /// ```swift
    /// print(DependencyRole.argument(2))   // argument 2
    /// ```
    public var description: String {
        switch self {
        case .argument(let position): "argument \(position)"
        case .property(let path): "property \(path)"
        case .target: "bound to"
        case .contribution(let entry): "contribution \(entry)"
        }
    }
}
