/// A dynamic argument: a value of `Value` that the injector does not provide, passed when an
/// instance is created, by `getInstance(_:arguments:)` or `Factory.make(_:)`.
///
/// The typed form marks such a parameter with ``Slot/dynamic``; the raw form takes a `Dynamic`
/// among its slots:
///
/// ```swift
/// static let initializer = Initializer<Screen>([.inject(FeedService.self), .dynamic(Dynamic<String>())]) { arguments in
///     Screen(feed: try arguments.value(at: 0), title: try arguments.value(at: 1))
/// }
/// let screen = try injector.getInstance(Screen.self, arguments: "Inbox")
/// ```
public struct Dynamic<Value>: Sendable {
    /// The dynamic argument of a type.
    ///
    /// ```swift
    /// let title = Dynamic<String>()
    /// let count = Dynamic(Int.self)
    /// ```
    public init(_ type: Value.Type = Value.self) {}
}
