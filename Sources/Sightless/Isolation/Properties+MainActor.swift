extension Properties where Instance: MainActorInjectable & AnyObject {
    /// Injects a property of a ``MainActorInjectable`` type, isolated to the main actor, from
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
    @MainActor
    public func inject<Value>(
        _ keyPath: ReferenceWritableKeyPath<Instance, Value>, named name: String? = nil,
        fileID: String = #fileID, line: Int = #line
    ) -> Properties {
        let shared: WritableKeyPath<Instance, Value> & Sendable = mainActorKeyPath(keyPath)
        return inject(shared, named: name, fileID: fileID, line: line)
    }
}
