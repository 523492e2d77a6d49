/// A dependency that a type reads where it stands, from its own property, rather than taking it
/// in its initializer: the bridge from a container's `@Injected` or `@Dependency(\.x)` to
/// constructor injection, one type at a time.
///
/// Keep one in a `let` and read it with `try`:
///
/// ```swift
/// final class ProfileModel: Sendable {
///     let api = Injection<Api>()
///     func load() throws -> [String] { try api.get().fetch() }
/// }
/// ```
///
/// Where the value comes from depends on where the owner is made:
///
/// - **Built by an injector** (an ``Injectable`` type, or the value of a closure or provider
///   binding): the injection is resolved as the owner is made, from the injector the owner is
///   built for — a child's own values in a child, the request's values in a template's child —
///   and a failure makes the owner's build throw, with the path to the owner. Later reads never
///   fail. The key's binding is decorated and observed as for any other dependency.
/// - **Made elsewhere** (a view the UI framework makes, a handler, a legacy singleton): it is
///   resolved on its first read, from the injector that was current when it was made (the body
///   of `withChild`, `withOverrides(_:operation:)` or
///   `withCurrent(_:)`, or a build), else from the one current at the
///   read, else from the injector the app chose with ``Injector/chooseForProcess(fileID:line:)``.
///   With none of them, ``get()`` throws ``InjectionError/Kind/noInjector``.
///
/// The value is kept once read: every later read returns it. Two threads making the first read
/// at once may both resolve it (an unscoped value is then built twice) and both receive the
/// first one kept. For a read that cannot throw, use the ``Injected`` property wrapper, which
/// has a default value.
public final class Injection<Value> {
    /// The key the value is resolved from.
    public let key: Key<Value>
    /// Where the injection was declared, for its errors.
    let location: SourceLocation
    /// The injector current when the injection was made, if any: the one it resolves from.
    let source: Injector?
    /// Where a read that falls back to its default is reported: the scope current when the
    /// injection was made, if it reports.
    let reported: ReportedReads?
    /// The value once resolved.
    private let resolved: Locked<Value?>

    /// An injection of the value bound to `Value`'s type, or to `key`.
    ///
    /// ```swift
    /// let clock = Injection<Clock>()
    /// let endpoint = Injection(Key<String>(named: "endpoint"))
    /// ```
    public init(_ key: Key<Value> = Key(), fileID: String = #fileID, line: Int = #line) {
        self.key = key
        location = SourceLocation(fileID: fileID, line: line)
        var value: Value?
        // The synchronous build running on this thread, else the innermost scope bound.
        let building = ThreadBuild.current
        let scope = building == nil ? CurrentInjection.current : nil
        reported = scope?.reported
        if let build = building ?? scope?.build {
            // Resolved now, or the owner's build throws: the injection keeps no injector,
            // which a value the injector keeps (a singleton) would keep alive for ever.
            source = nil
            build.noteRead()
            do {
                value = try build.injector.request(Value.self, name: key.name)
            } catch {
                build.fail(error)
            }
        } else {
            source = scope?.injector
        }
        resolved = Locked(value)
    }

    /// An injection of the value bound to `Value`'s type under `name`.
    ///
    /// ```swift
    /// let endpoint = Injection<String>(named: "endpoint")
    /// ```
    public convenience init(named name: String, fileID: String = #fileID, line: Int = #line) {
        self.init(Key(named: name), fileID: fileID, line: line)
    }

    /// The value: resolved on the first call (unless the owner's build resolved it), then the
    /// same one on every call.
    ///
    /// ```swift
    /// let api = try model.api.get()
    /// ```
    ///
    /// - Throws: an ``InjectionError`` when no injector is current and none was chosen for the
    ///   process (``InjectionError/Kind/noInjector``), or when resolving the key fails; the next
    ///   call tries again.
    public func get() throws(InjectionError) -> Value {
        if let value = resolved.withLock({ $0 }) { return value }
        guard let injector = source ?? CurrentInjection.found?.injector else {
            throw InjectionError(.noInjector(key: key.erased), path: [key.erased], location: location)
        }
        let value = try injector.request(Value.self, name: key.name)
        return resolved.withLock { kept in
            if let first = kept { return first }
            kept = value
            return value
        }
    }

    /// Whether the value was resolved (or its default kept).
    var isResolved: Bool { resolved.withLock { $0 != nil } }

    /// Keeps `value`, resolved by the owner's stated properties, unless one is kept already.
    func resolve(with value: Value) {
        resolved.withLock { kept in if kept == nil { kept = value } }
    }

    /// The value, as ``get()`` gives it.
    ///
    /// ```swift
    /// let api = try model.api.value
    /// ```
    public var value: Value {
        get throws(InjectionError) { try get() }
    }

    /// The value a read with a default gives: the resolved value, or, when resolving fails,
    /// the default, kept from then on; the failure is reported once.
    func valueOrDefault(_ fallback: () -> Value) -> Value {
        do {
            return try get()
        } catch {
            report(error)
            let value = fallback()
            return resolved.withLock { kept in
                if let first = kept { return first }
                kept = value
                return value
            }
        }
    }

    /// Reports a read that fell back to its default: to the scope that reports such reads
    /// (`withOverrides`, which throws them when it ends), else on standard error.
    private func report(_ error: InjectionError) {
        if let reported = reported ?? CurrentInjection.current?.reported {
            reported.report(error)
            return
        }
        StandardError.write("Sightless: a dependency read where it stands used its default value: \(error)")
    }
}

extension Injection: Sendable where Value: Sendable {}
