/// What a request holds without reference counting, and how it lets go of it: its frame and
/// its per-request values (`Resolution.frameReference`, `valuesReference`), and, while an
/// awaited section runs, the values awaited for it (`prefetchedReference`).
///
/// Invariant: a frame or per-request values this request made are retained once here
/// (`UnownedReference.retaining(_:)`) and released once, when the request ends (`endState()`)
/// or hands them to the frame it publishes (`publishFrame()`), and only while `ownsState` says
/// it owns them; a frame it goes on from (`init(injector:arguments:nestedIn:)`) is kept alive
/// by the enclosing request, which outlives it on the same thread; the values awaited for a
/// section are kept alive by `withPrefetched(_:_:)` while its body runs, and not referenced
/// after it returns.
extension Resolution {
    /// A request started inside another one on the same thread: it goes on from the
    /// enclosing request's frame.
    init(injector: Injector, arguments: ArgumentBuffer? = nil, nestedIn frame: RequestFrame) {
        self.borrowed = BorrowedInjector(injector)
        self.arguments = arguments
        self.frameReference = unsafe UnownedReference(frame)
        self.nesting = frame.nesting
        self.keeper = frame.keeper
    }

    /// The frame of this request, published on this thread if it was not yet: called by the
    /// plans that hand out a way back into the injector (closures, providers, `Lazy`,
    /// `Factory`, the injector itself).
    mutating func publishFrame() -> RequestFrame {
        if let frame { return frame }
        // A request of another injector may be running below this one on this thread (a
        // closure of that injector asking this one, which may ask that one again): go on
        // counting from its depth, and check the stack at the next level, or two injectors
        // asking each other would recurse until the stack overflows.
        if let enclosing = RequestFrame.topmost() { nesting.continue(from: enclosing.nesting) }
        let published = RequestFrame.publish(for: self)
        frameReference = unsafe .retaining(published)
        ownsState = true
        // Requests nested in this one from now on find its per-request values in the frame.
        if let values = valuesReference {
            published.requestValues = values.object
            unsafe values.release()
            valuesReference = nil
        }
        if let kept = requestObject {
            published.requestValues(made: { RequestValues.make() }).append(object: kept.object, for: kept.slot)
            kept.release()
            requestObject = nil
        }
        return published
    }

    /// The values of the per-request bindings of this request (of the top-level request it is
    /// nested in, when it goes on from a frame), made when it first builds one: kept by the
    /// request's frame, once it has one, else by the request itself.
    mutating func requestValues() -> RequestValues {
        if let frame { return frame.requestValues(made: { RequestValues.make() }) }
        if let values = valuesReference { return values.object }
        let made = RequestValues.make()
        valuesReference = unsafe .retaining(made)
        ownsState = true
        return made
    }

    /// Unpublishes the frame this request published and releases the per-request values it
    /// made, if any.
    @usableFromInline @inline(never)
    func endState() {
        unsafe valuesReference?.release()
        requestObject?.release()
        guard let frameReference else { return }
        frameReference.object.unpublish(from: borrowed.injector)
        unsafe frameReference.release()
    }

    /// Runs `body` with the values awaited for a section, which its plans take
    /// (`Prefetched.takingPlan`).
    mutating func withPrefetched<Result>(
        _ prefetched: Prefetched, _ body: (inout Resolution) throws -> Result
    ) rethrows -> Result {
        try withExtendedLifetime(prefetched) {
            prefetchedReference = unsafe UnownedReference(prefetched)
            defer { prefetchedReference = nil }
            return try body(&self)
        }
    }
}
