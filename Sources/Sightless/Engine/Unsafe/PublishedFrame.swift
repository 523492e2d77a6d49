#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The newest `RequestFrame` published on this thread, kept in a thread's slot of its own.
///
/// Invariant: a frame is published in the slot only by the request that made it and keeps it
/// in its `Resolution`, on that thread, and the slot is restored (to the frame it hid) before
/// that request ends; only the same thread reads its slot. So the frame the slot names, and
/// every frame it hides in turn, is alive whenever the thread reads it.
@safe enum PublishedFrame {
    private static let slot: pthread_key_t = {
        var key = pthread_key_t()
        unsafe pthread_key_create(&key, nil)
        return key
    }()

    /// The frame published on this thread, if any, held without reference counting.
    static var newest: UnownedReference<RequestFrame>? {
        get { unsafe pthread_getspecific(slot).map { unsafe UnownedReference.at($0) } }
        set { unsafe pthread_setspecific(slot, newValue?.address) }
    }
}

extension RequestFrame {
    /// Makes a frame for the request `resolution` belongs to and publishes it on this thread.
    ///
    /// Invariant: the request keeps the frame it is handed (`Resolution.publishFrame()`) until
    /// it unpublishes it, on this thread, when it ends (`unpublish(from:)`).
    static func publish(for resolution: Resolution) -> RequestFrame {
        let injector = resolution.injector
        let frame = RequestFrame(injector: injector, nesting: resolution.nesting)
        frame.keeper = resolution.keeper
        injector.publishedFrames.add(1, ordering: .relaxed)
        PublishedFrame.newest = unsafe UnownedReference(frame)
        return frame
    }
}
