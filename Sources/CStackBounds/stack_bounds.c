#define _GNU_SOURCE
#include "CStackBounds.h"
#include <pthread.h>

static __thread uintptr_t cached_low_bound = 0;
static __thread int looked_up = 0;

static uintptr_t compute_low_bound(void) {
#if defined(__APPLE__)
    uintptr_t top = (uintptr_t)pthread_get_stackaddr_np(pthread_self());
    return top - (uintptr_t)pthread_get_stacksize_np(pthread_self());
#elif defined(__linux__)
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) return 0;
    void *address = 0;
    size_t size = 0;
    int status = pthread_attr_getstack(&attributes, &address, &size);
    pthread_attr_destroy(&attributes);
    return status == 0 ? (uintptr_t)address : 0;
#else
    return 0;
#endif
}

uintptr_t fh_stack_low_bound(void) {
    if (!looked_up) {
        cached_low_bound = compute_low_bound();
        looked_up = 1;
    }
    return cached_low_bound;
}
