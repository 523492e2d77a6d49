/// A type that describes what it needs, so an ``Injector`` can build it.
///
/// Give the ``initializer`` to call and, if any, the ``properties`` to set; the injector
/// fills them from its bindings, then calls ``awakeFromInjection()``.
///
/// ```swift
/// final class FeedService: Injectable {
///     let api: Api
///     var logger: Logger?
///     init(api: Api) { self.api = api }
///
///     static let initializer = Initializer(FeedService.init(api:))
///     static let properties = Properties<FeedService>().inject(\.logger)
///     func awakeFromInjection() { logger?.log("feed ready") }
/// }
///
/// let feed = try injector.getInstance(FeedService.self)
/// ```
///
/// An `Injectable` type needs no binding: the injector builds it from its own initializer
/// ("just in time"). A binding for its key always wins.
///
/// A type's descriptors (``initializer``, ``properties``, ``scope``) may be read once per
/// process, when an injector first builds the type just in time, and what they gave used by
/// every later injector: a descriptor declares the type, it does not decide per injector.
///
/// Structs conform the same way. A type you do not own becomes injectable by a retroactive
/// conformance in your module, or by a closure binding. A class with subclasses declares its
/// descriptors as `class var`s typed with the base class; see ``Initializer`` and
/// ``Properties`` for how subclasses inherit and override them.
public protocol Injectable: SendableMetatype {
    /// The type the descriptors build and fill: `Self`, except for a subclass, which inherits
    /// its superclass's conformance and so its descriptors' type. Inferred; never written.
    associatedtype Instance = Self

    /// How to create the type: which initializer, and the key of each argument.
    static var initializer: Initializer<Instance> { get }

    /// The properties to inject after the initializer returns. None by default.
    static var properties: Properties<Instance> { get }

    /// The scope the type is kept in when nothing else says: a binding that names a scope with
    /// `.in(…)` wins. ``Scope/unscoped`` by default.
    ///
    /// ```swift
    /// final class Metrics: Injectable {
    ///     static let initializer = Initializer(Metrics.init)
    ///     static var scope: Scope { .singleton }   // one per injector, bound or not
    /// }
    /// ```
    static var scope: Scope { get }

    /// Called once the initializer has returned and every property is set. Does nothing by
    /// default.
    ///
    /// For a class hierarchy, implement it in the base class so subclasses can override it.
    func awakeFromInjection()
}

extension Injectable {
    /// No properties.
    ///
    /// ```swift
    /// final class Clock: Injectable {
    ///     static let initializer = Initializer(Clock.init)   // no properties to declare
    /// }
    /// ```
    public static var properties: Properties<Instance> { Properties() }

    /// Unscoped: a new instance for every request.
    ///
    /// ```swift
    /// static var scope: Scope { .singleton }   // declare it to keep one instance instead
    /// ```
    public static var scope: Scope { .unscoped }

    /// Does nothing.
    ///
    /// ```swift
    /// func awakeFromInjection() { logger?.log("ready") }   // implement it to run code once injected
    /// ```
    public func awakeFromInjection() {}
}
