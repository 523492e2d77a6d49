// The properties of a `MainActorInjectable` type. A key path to a property isolated to the main
// actor is not `Sendable`, so the forms that take one are isolated to the main actor, where a
// type's `properties` is read. A nonisolated type can be main-actor-injectable too (it conforms
// in an extension, or is declared `nonisolated`): its key paths are `Sendable`, and every form
// here has a twin taking a `Sendable` key path, which overload resolution prefers, so the same
// spelling compiles for both and picks the general form.

extension Properties where Instance: MainActorInjectable & AnyObject {
    /// Injects a property of a ``MainActorInjectable`` class, isolated to the main actor, from
    /// the binding of its type, or of its type under `name`; it is set on the main actor.
    ///
    /// ```swift
    /// @MainActor
    /// final class ProfileModel: MainActorInjectable {
    ///     var settings: Settings?
    ///     static let initializer = Initializer(ProfileModel.init)
    ///     static let properties = Properties<ProfileModel>().inject(\.settings)
    /// }
    /// ```
    ///
    /// The same spelling serves a nonisolated class made main-actor-injectable in an extension:
    ///
    /// ```swift
    /// final class Journal {
    ///     var settings: Settings?
    /// }
    ///
    /// extension Journal: MainActorInjectable {
    ///     static let initializer = Initializer(Journal.init)
    ///     static let properties = Properties<Journal>().inject(\.settings)
    /// }
    /// ```
    @MainActor
    public func inject<Value>(
        _ keyPath: ReferenceWritableKeyPath<Instance, Value>, named name: String? = nil,
        fileID: String = #fileID, line: Int = #line
    ) -> Properties {
        injecting(mainActorKeyPath(keyPath), named: name, fileID: fileID, line: line)
    }

    /// Injects a property of a ``MainActorInjectable`` class, isolated to the main actor, from
    /// the binding of `key`; it is set on the main actor.
    ///
    /// ```swift
    /// static let properties = Properties<ProfileModel>().inject(\.theme, Key<Theme>(named: "dark"))
    /// ```
    @MainActor
    public func inject<Value>(
        _ keyPath: ReferenceWritableKeyPath<Instance, Value>, _ key: Key<Value>,
        fileID: String = #fileID, line: Int = #line
    ) -> Properties {
        injecting(mainActorKeyPath(keyPath), named: key.name, fileID: fileID, line: line)
    }

    /// Injects an optional property of a ``MainActorInjectable`` class, isolated to the main
    /// actor, from the binding of `key`, leaving it `nil` when `key` has no binding.
    ///
    /// ```swift
    /// static let properties = Properties<ProfileModel>().inject(\.settings, Key<Settings>(named: "saved"))
    /// ```
    @MainActor
    public func inject<Value>(
        _ keyPath: ReferenceWritableKeyPath<Instance, Value?>, _ key: Key<Value>,
        fileID: String = #fileID, line: Int = #line
    ) -> Properties {
        injecting(mainActorKeyPath(keyPath), named: key.name, fileID: fileID, line: line)
    }

    /// The twin of the main-actor form for a nonisolated class, whose key paths are `Sendable`:
    /// the same as the general `inject(_:named:)`, which the call would otherwise find ambiguous.
    @_documentation(visibility: internal)
    public func inject<Value>(
        _ keyPath: ReferenceWritableKeyPath<Instance, Value> & Sendable, named name: String? = nil,
        fileID: String = #fileID, line: Int = #line
    ) -> Properties {
        injecting(keyPath, named: name, fileID: fileID, line: line)
    }

    /// The twin of the main-actor form for a nonisolated class, whose key paths are `Sendable`.
    @_documentation(visibility: internal)
    public func inject<Value>(
        _ keyPath: ReferenceWritableKeyPath<Instance, Value> & Sendable, _ key: Key<Value>,
        fileID: String = #fileID, line: Int = #line
    ) -> Properties {
        injecting(keyPath, named: key.name, fileID: fileID, line: line)
    }

    /// The twin of the main-actor form for a nonisolated class, whose key paths are `Sendable`.
    @_documentation(visibility: internal)
    public func inject<Value>(
        _ keyPath: ReferenceWritableKeyPath<Instance, Value?> & Sendable, _ key: Key<Value>,
        fileID: String = #fileID, line: Int = #line
    ) -> Properties {
        injecting(keyPath, named: key.name, fileID: fileID, line: line)
    }
}

extension Properties where Instance: MainActorInjectable {
    /// Injects a property of a ``MainActorInjectable`` struct, isolated to the main actor, from
    /// the binding of its type, or of its type under `name`; it is set on the main actor.
    ///
    /// ```swift
    /// struct ProfileState: MainActorInjectable {   // on the main actor, as its conformance says
    ///     var settings: Settings?
    ///     static let initializer = Initializer(ProfileState.init)
    ///     static let properties = Properties<ProfileState>().inject(\.settings)
    /// }
    /// ```
    @MainActor
    public func inject<Value>(
        _ keyPath: WritableKeyPath<Instance, Value>, named name: String? = nil,
        fileID: String = #fileID, line: Int = #line
    ) -> Properties {
        injecting(mainActorKeyPath(keyPath), named: name, fileID: fileID, line: line)
    }

    /// Injects a property of a ``MainActorInjectable`` struct, isolated to the main actor, from
    /// the binding of `key`; it is set on the main actor.
    ///
    /// ```swift
    /// static let properties = Properties<ProfileState>().inject(\.theme, Key<Theme>(named: "dark"))
    /// ```
    @MainActor
    public func inject<Value>(
        _ keyPath: WritableKeyPath<Instance, Value>, _ key: Key<Value>,
        fileID: String = #fileID, line: Int = #line
    ) -> Properties {
        injecting(mainActorKeyPath(keyPath), named: key.name, fileID: fileID, line: line)
    }

    /// Injects an optional property of a ``MainActorInjectable`` struct, isolated to the main
    /// actor, from the binding of `key`, leaving it `nil` when `key` has no binding.
    ///
    /// ```swift
    /// static let properties = Properties<ProfileState>().inject(\.settings, Key<Settings>(named: "saved"))
    /// ```
    @MainActor
    public func inject<Value>(
        _ keyPath: WritableKeyPath<Instance, Value?>, _ key: Key<Value>,
        fileID: String = #fileID, line: Int = #line
    ) -> Properties {
        injecting(mainActorKeyPath(keyPath), named: key.name, fileID: fileID, line: line)
    }

    /// The twin of the main-actor form for a nonisolated struct, whose key paths are `Sendable`.
    @_documentation(visibility: internal)
    public func inject<Value>(
        _ keyPath: WritableKeyPath<Instance, Value> & Sendable, named name: String? = nil,
        fileID: String = #fileID, line: Int = #line
    ) -> Properties {
        injecting(keyPath, named: name, fileID: fileID, line: line)
    }

    /// The twin of the main-actor form for a nonisolated struct, whose key paths are `Sendable`.
    @_documentation(visibility: internal)
    public func inject<Value>(
        _ keyPath: WritableKeyPath<Instance, Value> & Sendable, _ key: Key<Value>,
        fileID: String = #fileID, line: Int = #line
    ) -> Properties {
        injecting(keyPath, named: key.name, fileID: fileID, line: line)
    }

    /// The twin of the main-actor form for a nonisolated struct, whose key paths are `Sendable`.
    @_documentation(visibility: internal)
    public func inject<Value>(
        _ keyPath: WritableKeyPath<Instance, Value?> & Sendable, _ key: Key<Value>,
        fileID: String = #fileID, line: Int = #line
    ) -> Properties {
        injecting(keyPath, named: key.name, fileID: fileID, line: line)
    }
}

extension Properties where Instance: MainActorInjectable {
    /// States a dependency a ``MainActorInjectable`` type reads where it stands — an
    /// ``Injection`` kept in a `let`, or the projected value of an ``Injected`` property — whose
    /// key path is isolated to the main actor, so that the graph knows it when the injector is
    /// built (see the general ``Properties/reads(_:named:fileID:line:)-(KeyPath<Instance,Injection<Value>>Sendable,_,_,_)``). The injection is
    /// resolved on the main actor, with the type's other properties.
    ///
    /// ```swift
    /// @MainActor
    /// final class FeedModel: MainActorInjectable {
    ///     @Injected(default: SystemClock()) var clock: Clock
    ///     let api = Injection<Api>()
    ///     static let initializer = Initializer(FeedModel.init)
    ///     static let properties = Properties<FeedModel>()
    ///         .reads(\.$clock)
    ///         .reads(\.api)
    /// }
    /// ```
    @MainActor
    public func reads<Value>(
        _ keyPath: KeyPath<Instance, Injection<Value>>, named name: String? = nil,
        fileID: String = #fileID, line: Int = #line
    ) -> Properties {
        stating(mainActorKeyPath(keyPath), named: name, fileID: fileID, line: line)
    }

    /// The twin of the main-actor form for a nonisolated type, whose key paths are `Sendable`:
    /// the same as the general `reads(_:named:)`, which the call would otherwise find ambiguous.
    @_documentation(visibility: internal)
    public func reads<Value>(
        _ keyPath: KeyPath<Instance, Injection<Value>> & Sendable, named name: String? = nil,
        fileID: String = #fileID, line: Int = #line
    ) -> Properties {
        stating(keyPath, named: name, fileID: fileID, line: line)
    }
}
