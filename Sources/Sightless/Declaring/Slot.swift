/// How one argument of an ``Initializer`` is filled: by its type's binding, by a named key, or
/// at creation time.
///
/// Pass one slot per parameter, in order:
///
/// ```swift
/// final class Screen: Injectable {
///     init(feed: FeedService, endpoint: String, title: String) { … }
///     static let initializer = Initializer(
///         Screen.init(feed:endpoint:title:),
///         .inject,                 // FeedService's binding
///         .named("endpoint"),      // Key<String>(named: "endpoint")
///         .dynamic                 // getInstance(Screen.self, arguments: "Inbox")
///     )
/// }
/// ```
///
/// A parameter of an optional type `T?` accepts `nil`: it is filled from `T`'s binding when
/// there is one, and is `nil` when there is none.
public struct Slot<Value>: Sendable {
    // Plain stored fields, not an enum with a payload: the 6.3 compiler crashes in IRGen when
    // a parameter pack of generic structs holding such an enum is walked (see
    // CompilerWorkaroundTests).
    let name: String?
    let isDynamic: Bool

    /// Fill the argument from the binding of its type.
    ///
    /// ```swift
    /// static let initializer = Initializer(Feed.init(api:limit:), .inject, .named("limit"))
    /// ```
    public static var inject: Slot { Slot(name: nil, isDynamic: false) }

    /// Fill the argument from the binding of its type under this name.
    ///
    /// ```swift
    /// static let initializer = Initializer(Api.init(endpoint:), .named("endpoint"))
    /// ```
    public static func named(_ name: String) -> Slot { Slot(name: name, isDynamic: false) }

    /// Fill the argument from the binding of this key.
    ///
    /// ```swift
    /// static let initializer = Initializer(Api.init(endpoint:), .key(Key<String>(named: "endpoint")))
    /// ```
    public static func key(_ key: Key<Value>) -> Slot { Slot(name: key.name, isDynamic: false) }

    /// Leave the argument to creation time: `getInstance(_:arguments:)` fills the dynamic slots
    /// of the requested type, in order.
    ///
    /// A type with dynamic slots cannot be injected as a plain dependency, since nothing could
    /// fill them there; the injector rejects that when it is built.
    ///
    /// ```swift
    /// static let initializer = Initializer(Screen.init(feed:title:), .inject, .dynamic)
    /// let screen = try injector.getInstance(Screen.self, arguments: "Inbox")
    /// ```
    public static var dynamic: Slot { Slot(name: nil, isDynamic: true) }

    func dependency(position: Int, location: SourceLocation) -> Dependency {
        Dependency(role: .argument(position), key: AnyKey(type: Value.self, name: name),
                   isDynamic: isDynamic, location: location)
    }
}
