// What Sightless's stack guard needs of the C library and the compiler, which the Swift module
// for the C library does not export: `pthread_getattr_np` needs _GNU_SOURCE, and Swift has no
// way to name a frame on the real stack under AddressSanitizer.

#ifndef C_SIGHTLESS_STACK_H
#define C_SIGHTLESS_STACK_H

#include <stddef.h>
#include <stdint.h>

/// The lowest address and the size of the calling thread's stack; 0 on success, and then
/// `*base` and `*size` are set; anything else where they cannot be read.
int sightless_thread_stack(void *_Nullable *_Nonnull base, size_t *_Nonnull size);

/// The address of a frame on the calling thread's real stack, just below the caller's: unlike
/// a local's address, never on AddressSanitizer's fake stack.
uintptr_t sightless_stack_pointer(void);

/// 1 when the package is built with AddressSanitizer, whose redzones make every frame several
/// times larger; 0 otherwise.
int sightless_address_sanitizer(void);

#endif
