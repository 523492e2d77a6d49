#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// What the requests of one injector running on one thread are building, where a request
/// started inside them finds it.
///
/// Code that runs while an object is built can start a new request of the same injector on the
/// same thread: a closure or provider binding (through its ``Resolver`` or `resolver.injector`),
/// an initializer calling `get()` on a `Lazy` or `make(…)` on a `Factory` it was given, or using
/// the `Injector` it was given. Such a nested request must see what the enclosing ones are
/// building and how deep they are, or a cycle through it would recurse until the stack
/// overflows. The first plan of a request that hands out such a way back in (a closure binding,
/// a `Lazy`, a `Factory`, the injector) publishes a frame for this thread; nested requests find
/// it, check the stack at once, and refuse to build again, without dynamic arguments, a
/// key they are already building. A request that hands out nothing publishes nothing and pays
/// one atomic load.
@usableFromInline
final class RequestFrame {
    let injector: ObjectIdentifier
    /// The closure and provider bindings, and the keys requested by nested requests, being
    /// built, innermost last.
    var active: [ObjectIdentifier] = []
    /// The nesting of the innermost closure or nested request running, which a nested request
    /// continues from.
    var nesting: Nesting
    /// The keeper of the innermost closure or nested request running, which a nested request
    /// continues with.
    var keeper: Keeper?
    /// The values of the per-request bindings built by this request and those nested in it,
    /// made when the first is built (or handed over by the request that published the frame).
    var requestValues: RequestValues?
    /// The keys being built, outermost first, while an injector has observers.
    var observedPath: [AnyKey] = []
    /// While an injector has observers, the keys of the builds with `await` this task runs
    /// inside, outermost first (and of those between a section's node and the dependency it
    /// awaits for it): where the `observedPath` of a section's frame begins.
    @TaskLocal static var awaitedPath: [AnyKey] = []
    /// The frame this one hides (of another injector), restored when this one ends.
    private let hidden: UnownedReference<RequestFrame>?

    /// A frame not published yet: made only by `publish(for:)`, which publishes it at once.
    init(injector: Injector, nesting: Nesting) {
        self.injector = ObjectIdentifier(injector)
        self.nesting = nesting
        self.hidden = PublishedFrame.newest
    }

    /// The frame of `injector` on this thread, if one of its requests runs here.
    @inlinable @inline(__always)
    static func current(of injector: Injector) -> RequestFrame? {
        guard injector.publishedFrames.load(ordering: .relaxed) != 0 else { return nil }
        return lookUp(injector)
    }

    /// The frame of `injector` among those published on this thread, the newest first: a
    /// request of another injector may run inside one of this injector's (a closure of this
    /// injector asking another one, which asks this one again).
    @usableFromInline @inline(never)
    static func lookUp(_ injector: Injector) -> RequestFrame? {
        var reference = PublishedFrame.newest
        while let current = reference {
            let frame = current.object
            if frame.injector == ObjectIdentifier(injector) { return frame }
            reference = frame.hidden
        }
        return nil
    }

    /// The newest frame published on this thread, of any injector.
    static func topmost() -> RequestFrame? {
        PublishedFrame.newest?.object
    }

    /// The values of the per-request bindings of this frame's request, made by `make` if none
    /// were built yet.
    func requestValues(made make: () -> RequestValues) -> RequestValues {
        if let requestValues { return requestValues }
        let made = make()
        requestValues = made
        return made
    }

    /// Ends the request that published this frame.
    func unpublish(from injector: Injector) {
        PublishedFrame.newest = hidden
        injector.publishedFrames.subtract(1, ordering: .relaxed)
    }
}
