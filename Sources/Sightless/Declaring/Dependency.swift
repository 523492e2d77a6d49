/// One thing a type needs: an argument of its initializer or a property, and the key that
/// fills it.
///
/// Descriptors record their dependencies as data, so the graph compiler can validate them and
/// the exporters can draw them before anything is built.
///
/// ```swift
/// for dependency in House.initializer.dependencies {
///     print(dependency)   // argument 1: Address
/// }
/// ```
public struct Dependency: Sendable, CustomStringConvertible {
    /// Where a dependency's value goes: `argument(n)`, `property(path)` or `target`.
    ///
    /// ```swift
    /// if case .property(let path) = dependency.role { print(path) }   // \House.color
    /// ```
    public typealias Role = DependencyRole

    /// Where the value goes.
    ///
    /// ```swift
    /// let positions = House.initializer.dependencies.map(\.role)   // [argument 1]
    /// ```
    public let role: Role
    /// The key as written: the parameter's or property's type, and the name if one was given.
    ///
    /// ```swift
    /// print(House.initializer.dependencies[0].key)   // Address
    /// ```
    public let key: AnyKey
    /// `true` for a dynamic (`Slot.dynamic`) argument, filled by
    /// `getInstance(_:arguments:)` rather than by the graph.
    ///
    /// ```swift
    /// let creationTime = Screen.initializer.dependencies.filter(\.isDynamic)
    /// ```
    public let isDynamic: Bool
    /// For an optional (`T?`) dependency, the key of `T`: when `T?` itself is not bound, the
    /// value is built from this key when it has a binding, and is `nil` when it has none.
    ///
    /// ```swift
    /// // init(logger: Logger?) → key Optional<Logger>, wrappedKey Logger
    /// ```
    public let wrappedKey: AnyKey?
    /// For a `Lazy<T>` or `Factory<T, …>` dependency, the key of `T`, built when the consumer
    /// asks rather than before it is created. Such an edge may close a cycle.
    public let deferredKey: AnyKey?
    /// For a `Factory<T, A…>` dependency, the types `A…` of the dynamic arguments each
    /// `make` call brings; `nil` for any other dependency.
    public let factoryArguments: [Any.Type]?
    /// Where the dependency was declared.
    ///
    /// ```swift
    /// print(dependency.location)   // App/House.swift:12
    /// ```
    public let location: SourceLocation

    /// `true` when the dependency accepts `nil` (its type is an `Optional`).
    ///
    /// ```swift
    /// let optional = House.properties.dependencies.filter(\.isOptional)
    /// ```
    public var isOptional: Bool { wrappedKey != nil }

    /// `true` for a `Lazy<T>` or `Factory<T, …>` dependency.
    public var isDeferred: Bool { deferredKey != nil }

    /// The location, unless the dependency was made by Sightless itself (for a requested
    /// `T?`, `Lazy<T>` or `Factory<T, …>`), which has none to show.
    var declaredAt: SourceLocation? { location.line > 0 ? location : nil }

    init(role: Role, key: AnyKey, isDynamic: Bool, location: SourceLocation) {
        self.role = role
        self.key = key
        self.isDynamic = isDynamic
        // Conformance checks, made once per type (see `DependencyTraits`).
        let traits = DependencyTraits.of(key.type)
        if let wrapped = traits.wrappedType {
            self.wrappedKey = AnyKey(type: wrapped, name: key.name)
        } else {
            self.wrappedKey = nil
        }
        let deferred = traits.deferredTarget != nil
            ? traits
            : traits.wrappedType.map(DependencyTraits.of)   // Lazy<T>?, Lazy<T>!, Factory<T, …>?
        if let deferred, let target = deferred.deferredTarget {
            self.deferredKey = AnyKey(type: target, name: key.name)
            self.factoryArguments = deferred.factoryArguments
        } else {
            self.deferredKey = nil
            self.factoryArguments = nil
        }
        self.location = location
    }

    /// A readable form: the role and the key.
    ///
    /// ```swift
    /// print(Screen.initializer.dependencies[1])   // argument 2: String (dynamic argument)
    /// ```
    public var description: String {
        isDynamic ? "\(role): \(key.typeName) (dynamic argument)" : "\(role): \(key)"
    }
}
