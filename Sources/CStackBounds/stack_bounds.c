#define _GNU_SOURCE
#include "CStackBounds.h"
#include <pthread.h>
#include <sys/resource.h>

static __thread uintptr_t cached_low_bound = 0;
static __thread uintptr_t cached_size = 0;
static __thread int looked_up = 0;

static void look_up(void) {
    looked_up = 1;
#if defined(__APPLE__)
    uintptr_t top = (uintptr_t)pthread_get_stackaddr_np(pthread_self());
    cached_size = (uintptr_t)pthread_get_stacksize_np(pthread_self());
    cached_low_bound = top - cached_size;
#elif defined(__linux__)
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) return;
    void *address = 0;
    size_t size = 0;
    if (pthread_attr_getstack(&attributes, &address, &size) == 0) {
        cached_low_bound = (uintptr_t)address;
        cached_size = (uintptr_t)size;
    }
    pthread_attr_destroy(&attributes);
#endif
}

uintptr_t fh_stack_low_bound(void) {
    if (!looked_up) look_up();
    return cached_low_bound;
}

uintptr_t fh_stack_size(void) {
    if (!looked_up) look_up();
    return cached_size;
}

static __thread uintptr_t cached_floor = 0;
static __thread uintptr_t cached_floor_reserve = 0;

uintptr_t fh_stack_floor(uintptr_t reserve) {
    if (cached_floor_reserve == reserve && cached_floor != 0) return cached_floor;
    uintptr_t low = fh_stack_low_bound(), size = fh_stack_size();
    if (low == 0 || size == 0) return 0;
    uintptr_t keep = size / 4 < reserve ? size / 4 : reserve;
    cached_floor = low + keep;
    cached_floor_reserve = reserve;
    return cached_floor;
}

uintptr_t fh_stack_address(void) {
    return (uintptr_t)__builtin_frame_address(0);
}

uintptr_t fh_grow_main_stack(uintptr_t bytes) {
#if defined(__linux__)
    /* The main thread's stack grows on demand up to the soft limit, read at
       each growth; the space below it is kept free for at least 128 MiB
       whatever the limit was at exec, so up to that much is safe to ask. */
    struct rlimit limit;
    if (getrlimit(RLIMIT_STACK, &limit) != 0) return 0;
    if (limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < bytes) {
        rlim_t wanted = limit.rlim_max == RLIM_INFINITY || limit.rlim_max >= bytes ? bytes : limit.rlim_max;
        limit.rlim_cur = wanted;
        if (setrlimit(RLIMIT_STACK, &limit) != 0) return 0;
    }
    return limit.rlim_cur == RLIM_INFINITY ? (uintptr_t)-1 : (uintptr_t)limit.rlim_cur;
#else
    (void)bytes;
    return 0;
#endif
}
