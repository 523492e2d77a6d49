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
    public var role: Role {
        switch place {
        case .role(let role): role
        case .property(let keyPath): .property(Self.name(of: keyPath))
        case .mapEntry(let entry): .contribution(entry.written)
        }
    }
    /// The role as declared: a property's key path is written only when the role is read (by
    /// an error or an export), since writing it asks the runtime for names and conformances
    /// that a build that goes well never needs.
    private let place: Place
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
    ///
    /// Learnt when first read, once per type for the life of the process (see
    /// `DependencyTraits`): only a dependency that nothing builds as it is needs it.
    public var wrappedKey: AnyKey? {
        DependencyTraits.optionalWrapped(key.type).map { AnyKey(type: $0, name: key.name) }
    }
    /// For a `Lazy<T>` or `Factory<T, …>` dependency, the key of `T`, built when the consumer
    /// asks rather than before it is created. Such an edge may close a cycle.
    public var deferredKey: AnyKey? {
        deferredTraits.deferredTarget.map { AnyKey(type: $0, name: key.name) }
    }
    /// For a `Factory<T, A…>` dependency, the types `A…` of the dynamic arguments each
    /// `make` call brings; `nil` for any other dependency.
    public var factoryArguments: [Any.Type]? { deferredTraits.factoryArguments }
    /// The traits of the type that may be a `Lazy` or `Factory`: the key's, or the wrapped
    /// type's (`Lazy<T>?`, `Lazy<T>!`, `Factory<T, …>?`). Learnt when first read, since only a
    /// dependency that nothing builds as it is needs them (see `DependencyTraits`).
    private var deferredTraits: DependencyTraits { DependencyTraits.of(wrappedKey?.type ?? key.type) }
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
        self.init(place: .role(role), key: key, isDynamic: isDynamic, location: location)
    }

    /// The dependency of the property at `keyPath`, whose role is written when it is read.
    init(property keyPath: AnyKeyPath & Sendable, key: AnyKey, location: SourceLocation) {
        self.init(place: .property(keyPath), key: key, isDynamic: false, location: location)
    }

    /// The dependency of a map's collection on its entry of `mapKey`, whose role writes the map
    /// key (`contribution "home"`) when it is read.
    init(mapEntry mapKey: any Hashable & Sendable, key: AnyKey, location: SourceLocation) {
        self.init(place: .mapEntry(MapEntry(key: mapKey)), key: key, isDynamic: false, location: location)
    }

    private init(place: Place, key: AnyKey, isDynamic: Bool, location: SourceLocation) {
        self.place = place
        self.key = key
        self.isDynamic = isDynamic
        self.location = location
    }

    /// `true` for the key another key is bound to (`DependencyRole.target`), known without
    /// writing a property's role.
    var isTarget: Bool {
        if case .role(.target) = place { return true }
        return false
    }

    /// A property's key path as a role writes it: `\House.color`, or the root type and
    /// `<property>` when the runtime cannot name the property.
    static func name(of keyPath: AnyKeyPath) -> String {
        let written = String(describing: keyPath)
        return written.hasPrefix("\\") ? written : "\\\(type(of: keyPath).rootType).<property>"
    }

    /// How a role is kept until it is read.
    private enum Place: Sendable {
        case role(Role)
        case property(AnyKeyPath & Sendable)
        case mapEntry(MapEntry)
    }

    /// A map's entry key, written as Swift writes it (`String(reflecting:)`) only when its role
    /// is read: writing a value asks the runtime for its conformances. Boxed, so that a
    /// dependency stays as small as a key path makes it.
    private final class MapEntry: Sendable {
        let key: any Hashable & Sendable
        init(key: any Hashable & Sendable) { self.key = key }
        var written: String { Dependency.written(mapKey: key) }
    }

    /// A map's entry key as Swift writes it (`"home"`), for a role or an error that shows it.
    static func written(mapKey: any Hashable & Sendable) -> String { String(reflecting: mapKey) }

    /// A readable form: the role and the key.
    ///
    /// ```swift
    /// print(Screen.initializer.dependencies[1])   // argument 2: String (dynamic argument)
    /// ```
    public var description: String {
        isDynamic ? "\(role): \(key.typeName) (dynamic argument)" : "\(role): \(key)"
    }
}
