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
    /// The key of a contribution to a collection has a name Sightless makes, which sets the
    /// contribution apart, after the control character UNIT SEPARATOR (U+001F), which a name
    /// written by hand is unlikely to start with; ``description`` writes it as a contribution: the
    /// collection, the module and the line.
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

    /// What an error writes with its module and namespace (`API.PackageController`), because
    /// two distinct types of the same error would otherwise read alike: the types themselves,
    /// and the full names of the types that read alike inside another (`Factory<Labeller,
    /// App.B.Thing>`).
    struct Qualification: Sendable, Equatable {
        var types: Set<ObjectIdentifier> = []
        var names: Set<String> = []
        var isEmpty: Bool { types.isEmpty && names.isEmpty }
    }

    /// What an error writes in full; bound while ``InjectionError`` writes its problems
    /// (`ProblemText.naming`), empty elsewhere.
    @TaskLocal static var qualified = Qualification()

    /// The runtime writes the arguments of a variadic generic type as `Pack{…}`
    /// (`Factory<Screen, Pack{String}>`); the name drops that wrapper, as source does. A type
    /// of `qualified` is written in full, its module and namespace first, and so is a type of
    /// its names inside another.
    static func name(of type: Any.Type) -> String {
        let qualified = Self.qualified
        var written: String
        if qualified.isEmpty {
            written = String(describing: type)
        } else if qualified.types.contains(ObjectIdentifier(type)) {
            written = qualifiedName(of: type)
        } else {
            written = String(describing: type)
            if !qualified.names.isEmpty, written.contains(where: { !isNameCharacter($0) }) {
                written = partlyQualifiedName(of: type, keeping: qualified.names) ?? written
            }
        }
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

    /// Runs `text` with the types of `keys` that would read alike (two distinct types written
    /// the same way, `API.PackageController` and a web `PackageController`) written with their
    /// module and namespace, as well as those already so written.
    static func naming<Text>(_ keys: some Sequence<AnyKey>, _ text: () -> Text) -> Text {
        var byName: [String: Set<ObjectIdentifier>] = [:]
        var types: [ObjectIdentifier: Any.Type] = [:]
        var hasCompound = false
        for key in keys {
            let written = String(describing: key.type)
            byName[written, default: []].insert(ObjectIdentifier(key.type))
            types[ObjectIdentifier(key.type)] = key.type
            hasCompound = hasCompound || written.contains { !isNameCharacter($0) }
        }
        var alike = qualified
        for same in byName.values where same.count > 1 { alike.types.formUnion(same) }
        // Types inside another (`Factory<Labeller, Thing>`) read alike when two full names
        // found in the keys end the same way.
        if hasCompound {
            var byLast: [Substring: Set<Substring>] = [:]
            for type in types.values {
                for token in nameTokens(qualifiedName(of: type)) {
                    byLast[token.split(separator: ".").last ?? token, default: []].insert(token)
                }
            }
            for same in byLast.values where same.count > 1 { alike.names.formUnion(same.map(String.init)) }
        }
        guard alike != qualified else { return text() }
        return $qualified.withValue(alike, operation: text)
    }

    /// Whether `character` belongs to a name as `String(reflecting:)` writes it (`App.API.Thing`).
    static func isNameCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "."
    }

    /// The names in a type's written form: `Factory`, `App.Labeller` and `App.B.Thing` in
    /// `Sightless.Factory<App.Labeller, Pack{App.B.Thing}>`.
    static func nameTokens(_ written: String) -> [Substring] {
        written.split { !isNameCharacter($0) }
    }

    /// A compound type written with the names of `keeping` in full and every other name short,
    /// as `String(describing:)` writes it; `nil` when it holds none of `keeping`.
    static func partlyQualifiedName(of type: Any.Type, keeping names: Set<String>) -> String? {
        let full = qualifiedName(of: type)
        var result = ""
        var token = ""
        var kept = false
        func flush() {
            guard !token.isEmpty else { return }
            if names.contains(token) {
                result += token
                kept = true
            } else {
                result += token.split(separator: ".").last.map(String.init) ?? token
            }
            token = ""
        }
        for character in full {
            if isNameCharacter(character) {
                token.append(character)
            } else {
                flush()
                result.append(character)
            }
        }
        flush()
        return kept ? result : nil
    }

    /// The type's name with its module and namespace, as `String(reflecting:)` writes it,
    /// without the `(unknown context at $…)` of a private declaration: `App.API.PackageController`.
    static func qualifiedName(of type: Any.Type) -> String {
        var written = String(reflecting: type)
        while let start = written.firstRange(of: "(unknown context at "),
              let end = written[start.upperBound...].firstRange(of: ").") {
            written.removeSubrange(start.lowerBound..<end.upperBound)
        }
        return written
    }

    /// A readable form: `Api`, or `String(named: "endpoint")`.
    ///
    /// ```swift
    /// print(AnyKey(Key<Api>()))   // Api
    /// ```
    ///
    /// A contribution to a collection is written with the module and line that contributed
    /// it: `HealthCheck (contribution 2 to Array<HealthCheck> by AppModule at App/AppModule.swift:12)`.
    public var description: String {
        guard let name = writtenName else { return typeName }
        if name.hasPrefix(Self.contributionMark) {
            return "\(typeName) (\(name.dropFirst(Self.contributionMark.count)))"
        }
        return "\(typeName)(named: \"\(name)\")"
    }

    /// The name as errors write it: a contribution's in full (``ContributionName``), any other
    /// as it is.
    var writtenName: String? {
        guard let name else { return nil }
        return ContributionName.written(name) ?? name
    }

    /// What starts the name of a contribution's own key (a control character, which a name
    /// written by hand is unlikely to start with), so that it is written as a contribution.
    ///
    /// An ASCII one: a string of ASCII characters alone is hashed as its bytes, where any other is
    /// normalized first, and a contribution's key is hashed on every lookup of the graph's index
    /// and tables (an invisible separator, U+2063, cost a later build about 0.4 M instructions).
    static let contributionMark = "\u{1F}"

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
