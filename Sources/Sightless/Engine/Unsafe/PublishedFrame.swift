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
