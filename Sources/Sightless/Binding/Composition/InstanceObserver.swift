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

    /// The build `build`, reporting what it built to every observer: a synchronous plan's value
    /// when the plan returns it, an `async` build's once it is awaited.
    func observe<Value>(_ build: LinkedBuild<Value>, key: AnyKey, scope: Scope) -> LinkedBuild<Value> {
        switch build {
        case .synchronous(let plan): .synchronous(observe(plan, key: key, scope: scope))
        case .awaited(let plan): .awaited(observeAwaited(plan, key: key, scope: scope))
        }
    }

    /// The frame of `resolution`, published if it was not, its path begun where the builds with
    /// `await` this task runs inside left it.
    private static func observedFrame(_ resolution: inout Resolution) -> RequestFrame {
        let frame = resolution.frame ?? resolution.publishFrame()
        if frame.observedPath.isEmpty { frame.observedPath = RequestFrame.awaitedPath }
        return frame
    }

    /// The `async` build that gathers its arguments with `plan` (what they build reported under
    /// `key`, as a synchronous plan's), awaits its own build with `key` on the path of what it
    /// builds in turn, and then reports it: its duration from the start of the gathering.
    private func observeAwaited(_ plan: @escaping Plan<AsyncBuild>, key: AnyKey, scope: Scope) -> Plan<AsyncBuild> {
        let callbacks = callbacks
        let step: AsyncStep = { section, arguments in
            let (inner, start, path) = try AsyncBuild.arguments(
                arguments, as: (AsyncBuild, ContinuousClock.Instant, [AnyKey]).self)
            let value = try await RequestFrame.$awaitedPath.withValue(path) { try await inner.awaited(in: section) }
            let event = InstanceEvent(key: key, scope: scope, duration: start.duration(to: ContinuousClock.now), path: path)
            for callback in callbacks { callback(event) }
            return value
        }
        return { resolution in
            let start = ContinuousClock.now
            let frame = Self.observedFrame(&resolution)
            frame.observedPath.append(key)
            defer { frame.observedPath.removeLast() }
            let path = frame.observedPath
            return AsyncBuild(step, arguments: (try plan(&resolution), start, path))
        }
    }

    /// The plan that runs `plan` and reports what it built to every observer.
    func observe<Value>(_ plan: @escaping Plan<Value>, key: AnyKey, scope: Scope) -> Plan<Value> {
        let callbacks = callbacks
        return { resolution in
            let frame = Self.observedFrame(&resolution)
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
    /// instances bound with `to(instance:)` and aliases are not built and not reported. A value
    /// built with `await` is reported like any other, once it is built. The callback runs on
    /// the requesting thread (or in the task that awaits the build), inside the request: keep
    /// it short, and do not request from the injector in it. An injector with no observer pays nothing for them;
    /// a child injector reports to its parent's observers too.
    public func observe(_ callback: @escaping @Sendable (InstanceEvent) -> Void) {
        record(.observer(callback))
    }
}
