/// The name of a contribution's own key: what sets the contribution apart, and how errors,
/// `explain` and the exports write it, `contribution 2 to Array<HealthCheck> by AppModule at
/// App/AppModule.swift:12`.
///
/// Writing a type's name (`String(describing:)`) costs the runtime a conformance lookup of the
/// type's metatype the first time it is written, which scans every conformance record of the
/// process: about 400,000 instructions for each module and collection in an app's first build.
/// So the key is named by what sets it apart, its types by their identity
/// (``identity``), and written in full (``written``) only when something reads it. The names
/// recorded are kept for the life of the process, one per contribution the app's code makes.
struct ContributionName: Sendable {
    /// What a child's contributions start with (`child 1 `), empty for a root injector's.
    let prefix: String
    /// Whether an override module recorded the contribution.
    let isOverride: Bool
    /// The contribution's number among those to its collection, from 1.
    let index: Int
    /// The collection's type: `[HealthCheck]`, `Set<Tag>` or `[String: Route]`.
    let collection: Any.Type
    /// The type of the module that recorded it, if a module did.
    let module: Any.Type?
    /// Where it was recorded.
    let location: SourceLocation

    /// The key's name: the contribution mark, then what sets the contribution apart, its types
    /// by their identity, which takes no lookup in the runtime. Recorded, so that ``written(_:)``
    /// finds the name in full.
    func recorded() -> String {
        var identity = AnyKey.contributionMark + head + " to type " + Self.identity(of: collection)
        if let module { identity += " by type " + Self.identity(of: module) }
        identity += " at \(location)"
        Self.recorded.withLock { $0[identity] = self }
        return identity
    }

    /// The name in full, as the key's name was written before it was made lazy: the
    /// contribution mark, then `contribution 2 to Array<HealthCheck> by AppModule at …`.
    var written: String {
        // Written as when it was recorded: unqualified, whatever an error qualifies.
        let collectionName = AnyKey.$qualified.withValue(AnyKey.Qualification()) { AnyKey.name(of: collection) }
        let by = module.map { " by \(String(describing: $0))" } ?? ""
        return AnyKey.contributionMark + head + " to \(collectionName)\(by) at \(location)"
    }

    /// The name of a contribution's key in full, or `nil` when `name` is no contribution's.
    static func written(_ name: String) -> String? {
        guard name.hasPrefix(AnyKey.contributionMark) else { return nil }
        return recorded.withLock { $0[name] }?.written
    }

    private var head: String {
        "\(prefix)\(isOverride ? "override " : "")contribution \(index)"
    }

    private static func identity(of type: Any.Type) -> String {
        String(UInt(bitPattern: ObjectIdentifier(type)), radix: 16)
    }

    /// Every contribution's name recorded in the process, by the key's name.
    private static let recorded = Locked<[String: ContributionName]>([:])
}
