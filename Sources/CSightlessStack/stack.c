#if defined(__linux__)
#define _GNU_SOURCE
#endif

#include "CSightlessStack.h"

#if defined(__linux__)
#include <pthread.h>
#elif defined(__APPLE__)
#include <pthread.h>
#endif

int sightless_thread_stack(void **base, size_t *size) {
#if defined(__linux__)
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) return -1;
    int result = pthread_attr_getstack(&attributes, base, size);
    pthread_attr_destroy(&attributes);
    return result;
#elif defined(__APPLE__)
    pthread_t thread = pthread_self();
    size_t stackSize = pthread_get_stacksize_np(thread);
    *base = (char *)pthread_get_stackaddr_np(thread) - stackSize;
    *size = stackSize;
    return 0;
#else
    (void)base;
    (void)size;
    return -1;
#endif
}

__attribute__((noinline)) uintptr_t sightless_stack_pointer(void) {
    return (uintptr_t)__builtin_frame_address(0);
}

int sightless_address_sanitizer(void) {
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
    return 1;
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
    return 1;
#else
    return 0;
#endif
}
