/// A dependency a type reads where it stands, from a property, with a default value for code
/// no injector reaches: the form of Factory's `@Injected` and swift-dependencies'
/// `@Dependency`, on the way to constructor injection.
///
/// ```swift
/// final class FeedModel {
///     @Injected(default: SystemClock()) var clock: Clock
///     @Injected(named: "endpoint", default: "https://example.com") var endpoint: String
///
///     func stamp() -> String { "\(endpoint) at \(clock.now())" }
/// }
/// ```
///
/// Where the value comes from is the ``Injection`` the wrapper keeps, its projected value:
///
/// - **In a value an injector builds**, the injector the value is built for resolves it while
///   the value is made, and a failure makes that build throw: the default is never used there.
/// - **Elsewhere**, the first read resolves it from the injector current when the owner was made
///   (a build, or the body of `withChild`, `withOverrides` or `withCurrent`), else the one current
///   at the read, else the one the app chose with ``Injector/chooseForProcess(fileID:line:)``.
///   When that fails (no injector, a missing binding, a build that throws), the read returns the
///   default and reports the failure: `withOverrides` throws it when its body ends, so a test
///   sees it; anywhere else it is written to standard error.
///
/// The value is kept once read. For a read without a default, which can only throw, read the
/// projected value: `try $clock.get()`; or keep an ``Injection`` in a `let`. That is also the
/// form for a `Sendable` type: a `Sendable` final class cannot hold a wrapper's `var`, and the
/// wrapper, which keeps its default as a closure made where the owner is (on the main actor,
/// say), is not `Sendable`; an ``Injection`` is, when its value is.
@propertyWrapper
public struct Injected<Value> {
    /// The injection that resolves the value: `try $clock.get()` reads it without the default.
    public let projectedValue: Injection<Value>
    /// What a read gives when resolving fails outside a build.
    private let fallback: () -> Value

    /// The value: resolved once, or the default when it cannot be.
    public var wrappedValue: Value { projectedValue.valueOrDefault(fallback) }

    /// A dependency on the value bound to `Value`'s type, or to `key`, with a default.
    ///
    /// ```swift
    /// @Injected(default: SystemClock()) var clock: Clock
    /// ```
    public init(
        _ key: Key<Value> = Key(), default fallback: @autoclosure @escaping () -> Value,
        fileID: String = #fileID, line: Int = #line
    ) {
        projectedValue = Injection(key, fileID: fileID, line: line)
        self.fallback = fallback
    }

    /// A dependency on the value bound to `Value`'s type under `name`, with a default.
    ///
    /// ```swift
    /// @Injected(named: "endpoint", default: "https://example.com") var endpoint: String
    /// ```
    public init(
        named name: String, default fallback: @autoclosure @escaping () -> Value,
        fileID: String = #fileID, line: Int = #line
    ) {
        self.init(Key(named: name), default: fallback(), fileID: fileID, line: line)
    }
}

