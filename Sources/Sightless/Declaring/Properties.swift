/// The properties the injector sets on a type after creating it, and the keys that fill them.
///
/// By default a property is filled from the binding of its type; give a name or a key to pick
/// another binding. A property of an optional type `T?` is filled from `T`'s binding when there
/// is one, and is left `nil` when there is none.
///
/// ```swift
/// final class House: Injectable {
///     var color: Color?
///     var logger: Logger!
///     static let initializer = Initializer(House.init)
///     static let properties = Properties<House>()
///         .inject(\.color, named: "myHouseColor")
///         .inject(\.logger)
/// }
/// ```
///
/// Properties are set after the initializer returns and before ``Injectable/awakeFromInjection()``.
/// Declaring the same key path again replaces the earlier entry, which is how a subclass
/// re-binds an inherited property without changing its superclass:
///
/// ```swift
/// class Mansion: House {
///     var butler: Butler?
///     override class var properties: Properties<House> {
///         super.properties
///             .inject(\.color, named: "mansionColor")   // re-bound for Mansion only
///             .inject(\Mansion.butler)                  // a property of the subclass
///     }
/// }
/// ```
public struct Properties<Instance>: Sendable {
    struct Entry: Sendable {
        let keyPath: AnyKeyPath & Sendable
        let dependency: Dependency
        /// For a key path into a subclass: whether a built type is that subclass.
        let accepts: @Sendable (Any.Type) -> Bool
        let link: @Sendable (any Linking, Dependency) throws -> @Sendable (inout Instance, inout Resolution) throws -> Void
    }

    private(set) var entries: [Entry] = []
    /// Whether `entries` holds any: read where `Instance` is not specialized, so that a type
    /// without injected properties links them without the runtime's metadata of its entries.
    private var hasEntries = false

    /// An empty set of properties.
    ///
    /// ```swift
    /// static let properties = Properties<House>().inject(\.color)
    /// ```
    public init() {}

    /// The properties to inject, in the order they are set.
    ///
    /// ```swift
    /// for dependency in House.properties.dependencies { print(dependency) }   // property \House.color: Color
    /// ```
    public var dependencies: [Dependency] {
        // A closure, not `\.dependency`: a key path into this generic type is instantiated by
        // the runtime on every read.
        entries.map { $0.dependency }
    }

    /// Injects a property from the binding of its type, or of its type under `name`.
    ///
    /// ```swift
    /// Properties<House>().inject(\.color, named: "myHouseColor")
    /// ```
    public func inject<Value>(
        _ keyPath: WritableKeyPath<Instance, Value> & Sendable, named name: String? = nil,
        fileID: String = #fileID, line: Int = #line
    ) -> Properties {
        injecting(keyPath, named: name, fileID: fileID, line: line)
    }

    /// Injects a property from the binding of `key`.
    ///
    /// ```swift
    /// Properties<House>().inject(\.color, Key<Color>(named: "houseColor"))
    /// ```
    public func inject<Value>(
        _ keyPath: WritableKeyPath<Instance, Value> & Sendable, _ key: Key<Value>,
        fileID: String = #fileID, line: Int = #line
    ) -> Properties {
        injecting(keyPath, named: key.name, fileID: fileID, line: line)
    }

    /// Injects an optional property from the binding of `key`, leaving it `nil` when `key` has
    /// no binding.
    ///
    /// ```swift
    /// Properties<House>().inject(\.garage, Key<Garage>(named: "detached"))
    /// ```
    public func inject<Value>(
        _ keyPath: WritableKeyPath<Instance, Value?> & Sendable, _ key: Key<Value>,
        fileID: String = #fileID, line: Int = #line
    ) -> Properties {
        injecting(keyPath, named: key.name, fileID: fileID, line: line)
    }

    /// Injects a property that a subclass declares: the entry applies to instances of `Subclass`
    /// only, and building any other type with these properties is an error.
    ///
    /// ```swift
    /// override class var properties: Properties<House> {
    ///     super.properties.inject(\Mansion.butler)
    /// }
    /// ```
    public func inject<Subclass: AnyObject, Value>(
        _ keyPath: ReferenceWritableKeyPath<Subclass, Value> & Sendable, named name: String? = nil,
        fileID: String = #fileID, line: Int = #line
    ) -> Properties {
        adding(keyPath, key: AnyKey(type: Value.self, name: name), location: SourceLocation(fileID: fileID, line: line),
               accepts: { $0 is Subclass.Type }) { instance, value in
            (instance as? Subclass)?[keyPath: keyPath] = value
        }
    }

    /// Injects an optional property that a subclass declares from the binding of `key`.
    ///
    /// ```swift
    /// super.properties.inject(\Mansion.butler, Key<Butler>(named: "head"))
    /// ```
    public func inject<Subclass: AnyObject, Value>(
        _ keyPath: ReferenceWritableKeyPath<Subclass, Value?> & Sendable, _ key: Key<Value>,
        fileID: String = #fileID, line: Int = #line
    ) -> Properties {
        inject(keyPath, named: key.name, fileID: fileID, line: line)
    }

    /// The one entry every form of `inject` for a property of `Instance` makes: the forms differ
    /// only in how the key is named and which overload a call picks. An optional property's key
    /// is of its optional type, which the injector fills from the wrapped type's binding.
    func injecting<Value>(
        _ keyPath: WritableKeyPath<Instance, Value> & Sendable, named name: String?, fileID: String, line: Int
    ) -> Properties {
        adding(keyPath, key: AnyKey(type: Value.self, name: name), location: SourceLocation(fileID: fileID, line: line),
               accepts: { _ in true }) { instance, value in instance[keyPath: keyPath] = value }
    }

    private func adding<Value>(
        _ keyPath: AnyKeyPath & Sendable, key: AnyKey, location: SourceLocation,
        accepts: @escaping @Sendable (Any.Type) -> Bool,
        set: @escaping @Sendable (inout Instance, Value) -> Void
    ) -> Properties {
        let dependency = Dependency(property: keyPath, key: key, location: location)
        let entry = Entry(keyPath: keyPath, dependency: dependency, accepts: accepts) { linker, dependency in
            let plan = try linker.plan(for: dependency, as: Value.self)
            return { instance, resolution in set(&instance, try plan(&resolution)) }
        }
        var copy = self
        if let index = copy.entries.firstIndex(where: { $0.keyPath == keyPath }) {
            copy.entries[index] = entry
        } else {
            copy.entries.append(entry)
            copy.hasEntries = true
        }
        return copy
    }

    /// Links every entry into one plan that sets all the properties of an instance.
    func link(_ linker: any Linking) throws -> (@Sendable (inout Instance, inout Resolution) throws -> Void)? {
        guard hasEntries else { return nil }
        let setters = try entries.map { try $0.link(linker, $0.dependency) }
        let rethrow = linker.rethrow
        return { instance, resolution in
            do {
                try resolution.enterLevel()
                defer { resolution.leaveLevel() }
                for set in setters { try set(&instance, &resolution) }
            } catch {
                throw rethrow(error)
            }
        }
    }
}
