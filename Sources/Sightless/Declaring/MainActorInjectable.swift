/// A type isolated to the main actor that describes what it needs, so an ``Injector`` can build
/// it there: the ``Injectable`` of view models and other `@MainActor` types.
///
/// Its requirements are isolated to the main actor, so a `@MainActor` type declares them as it
/// declares anything else, with no `nonisolated`, `@preconcurrency` or `@MainActor in`:
///
/// ```swift
/// @MainActor
/// final class FeedModel: MainActorInjectable {
///     let feed: FeedService
///     var items: [String] = []
///     init(feed: FeedService) { self.feed = feed }
///     static let initializer = Initializer(FeedModel.init(feed:))
/// }
///
/// let model = try injector.getInstance(FeedModel.self)            // on the main actor
/// let elsewhere = try await injector.instance(FeedModel.self)     // from any task
/// ```
///
/// The injector reads the descriptors and builds the value on the main actor: synchronously
/// when the request runs there, and by awaiting the main actor in
/// ``Injector/instance(_:)-(Value.Type)``. A synchronous request from elsewhere throws an
/// ``InjectionError`` of kind ``InjectionError/Kind/offActor``.
///
/// A value kept by a scope that is not isolated to the main actor (a nonisolated singleton)
/// cannot hold such a value: the injector reports an
/// ``InjectionError/Kind/isolationConflict`` when it is built. See <doc:Concurrency>.
@MainActor
public protocol MainActorInjectable: SendableMetatype {
    /// The type the descriptors build and fill: `Self`. Inferred; never written.
    associatedtype Instance = Self

    /// How to create the type: which initializer, and the key of each argument.
    @MainActor static var initializer: Initializer<Instance> { get }

    /// The properties to inject after the initializer returns. None by default.
    @MainActor static var properties: Properties<Instance> { get }

    /// The scope the type is kept in when nothing else says. ``Scope/unscoped`` by default.
    ///
    /// ```swift
    /// static var scope: Scope { .singleton }   // one per injector, built on the main actor
    /// ```
    @MainActor static var scope: Scope { get }

    /// Called on the main actor once the initializer has returned and every property is set.
    /// Does nothing by default.
    @MainActor func awakeFromInjection()
}

extension MainActorInjectable {
    /// No properties.
    ///
    /// ```swift
    /// static let initializer = Initializer(FeedModel.init)   // no properties to declare
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
    /// func awakeFromInjection() { items = feed.latest() }   // implement it to run code once injected
    /// ```
    public func awakeFromInjection() {}
}
