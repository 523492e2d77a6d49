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
    /// Each entry's dependency, in the same order: kept beside the entries, so that reading them
    /// (discovery reads them for every type it meets) maps no array of this generic type, whose
    /// metadata and conformances the runtime would otherwise look up for each type.
    private var entryDependencies: [Dependency] = []

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
    public var dependencies: [Dependency] { entryDependencies }

    /// Whether no property is injected: told without reading ``entries``, whose generic array
    /// type the runtime would look up for each type the first time.
    var isEmpty: Bool { entryDependencies.isEmpty }

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

    /// States a dependency the type reads where it stands — an ``Injection`` kept in a `let`, or
    /// the projected value of an ``Injected`` property — so that the graph knows it when the
    /// injector is built: a missing binding, a cycle or a scope mistake through it is reported
    /// then, with the rest of the graph's problems, and `exportGraph` and `explain` draw it.
    ///
    /// ```swift
    /// final class Stamper: Injectable {
    ///     @Injected(default: SystemClock()) var clock: Clock
    ///     let endpoint = Injection<String>(named: "endpoint")
    ///     static let initializer = Initializer(Stamper.init)
    ///     static let properties = Properties<Stamper>()
    ///         .reads(\.$clock)
    ///         .reads(\.endpoint, named: "endpoint")
    /// }
    /// ```
    ///
    /// Name the key the injection itself names. A dependency read where it stands is resolved
    /// as its owner is made, whether or not it is stated here; stating it moves its validation
    /// from the owner's first build to the injector's. When the owner was made without a
    /// scope for its reads, the entry resolves the injection with the other properties.
    public func reads<Value>(
        _ keyPath: KeyPath<Instance, Injection<Value>> & Sendable, named name: String? = nil,
        fileID: String = #fileID, line: Int = #line
    ) -> Properties {
        stating(keyPath, named: name, fileID: fileID, line: line)
    }

    /// The one entry every form of `reads` makes.
    func stating<Value>(
        _ keyPath: KeyPath<Instance, Injection<Value>> & Sendable, named name: String?, fileID: String, line: Int
    ) -> Properties {
        let dependency = Dependency(property: keyPath, key: AnyKey(type: Value.self, name: name),
                                    location: SourceLocation(fileID: fileID, line: line))
        let entry = Entry(keyPath: keyPath, dependency: dependency, accepts: { _ in true }) { linker, dependency in
            let plan = try linker.plan(for: dependency, as: Value.self)
            return { instance, resolution in
                let injection = instance[keyPath: keyPath]
                if !injection.isResolved { injection.resolve(with: try plan(&resolution)) }
            }
        }
        return replacing(keyPath, with: entry)
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
        return replacing(keyPath, with: entry)
    }

    /// These properties with `entry` for `keyPath`: in place of an earlier entry of the same key
    /// path, else last.
    private func replacing(_ keyPath: AnyKeyPath, with entry: Entry) -> Properties {
        var copy = self
        if let index = copy.entries.firstIndex(where: { $0.keyPath == keyPath }) {
            copy.entries[index] = entry
            copy.entryDependencies[index] = entry.dependency
        } else {
            copy.entries.append(entry)
            copy.entryDependencies.append(entry.dependency)
        }
        return copy
    }

    /// Links every entry into one plan that sets all the properties of an instance.
    func link(_ linker: any Linking) throws -> (@Sendable (inout Instance, inout Resolution) throws -> Void)? {
        guard !isEmpty else { return nil }
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
