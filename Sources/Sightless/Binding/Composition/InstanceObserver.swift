/// What an observer learns about one instance the injector built: its key, its scope, how
/// long it took (its dependencies included), and the dependency path that led to it.
///
/// ```swift
/// binder.observe { event in
///     print(event.path.map(\.typeName).joined(separator: " → "), event.scope, event.duration)
/// }
/// ```
public struct InstanceEvent: Sendable, CustomStringConvertible {
    /// The key whose value was built.
    ///
    /// ```swift
    /// if event.key == Key<Database>().erased { … }
    /// ```
    public let key: AnyKey
    /// The scope of the key's binding: a singleton's event comes once, an unscoped key's on
    /// every build.
    ///
    /// ```swift
    /// if event.scope == .singleton { … }
    /// ```
    public let scope: Scope
    /// How long building the value took, its dependencies and decorators included.
    ///
    /// ```swift
    /// if event.duration > .milliseconds(50) { print("slow:", event.key) }
    /// ```
    public let duration: Duration
    /// The keys from the requested one down to this one: `[Screen, FeedService, Api]`.
    ///
    /// ```swift
    /// print(event.path.map(\.typeName))   // ["Screen", "FeedService", "Api"]
    /// ```
    public let path: [AnyKey]

    /// `Screen → FeedService → Api (unscoped)`.
    ///
    /// ```swift
    /// print(event)   // Screen → FeedService (unscoped)
    /// ```
    public var description: String {
        path.map(\.description).joined(separator: " → ") + " (\(scope.name))"
    }
}

/// The observers installed on an injector. Only when there is one are the plans of the nodes
/// that build values wrapped; an injector without observers runs exactly the plans it would
/// run otherwise.
final class InstanceObservers: Sendable {
    let callbacks: [@Sendable (InstanceEvent) -> Void]

    init(_ callbacks: [@Sendable (InstanceEvent) -> Void]) {
        self.callbacks = callbacks
    }

    /// The plan that runs `plan` and reports what it built to every observer.
    func observe<Value>(_ plan: @escaping Plan<Value>, key: AnyKey, scope: Scope) -> Plan<Value> {
        let callbacks = callbacks
        return { resolution in
            let frame = resolution.frame ?? resolution.publishFrame()
            frame.observedPath.append(key)
            defer { frame.observedPath.removeLast() }
            let clock = ContinuousClock()
            let start = clock.now
            let value = try plan(&resolution)
            let event = InstanceEvent(key: key, scope: scope, duration: start.duration(to: clock.now), path: frame.observedPath)
            for callback in callbacks { callback(event) }
            return value
        }
    }
}

extension Binder {
    /// Installs a callback the injector calls for every instance it builds, with its key, scope,
    /// duration and dependency path: for logging, metrics and tracing.
    ///
    /// ```swift
    /// binder.observe { event in
    ///     if event.duration > .milliseconds(50) { print("slow build:", event) }
    /// }
    /// ```
    ///
    /// Values kept by a scope are reported when they are built, not when they are read again;
    /// instances bound with `to(instance:)` and aliases are not built and not reported. The
    /// callback runs on the requesting thread, inside the request: keep it short, and do not
    /// request from the injector in it. An injector with no observer pays nothing for them;
    /// a child injector reports to its parent's observers too.
    public func observe(_ callback: @escaping @Sendable (InstanceEvent) -> Void) {
        record(.observer(callback))
    }
}
