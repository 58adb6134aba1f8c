// Per-thread facts the registry's resolve path needs, kept in C for cheap
// thread-local storage: where the thread's stack ends, and which resolve is
// running on the thread now.
#ifndef CSTACKBOUNDS_H
#define CSTACKBOUNDS_H
#include <stdint.h>

/// An address in the calling function's frame on the real stack (not a
/// sanitizer's fake stack).
__attribute__((noinline)) uintptr_t fh_stack_address(void);

/// The lowest address of the calling thread's stack, or 0 if unknown.
/// Computed once per thread.
uintptr_t fh_stack_low_bound(void);
/// The size of the calling thread's stack in bytes, or 0 if unknown.
uintptr_t fh_stack_size(void);
/// low bound + min(reserve, size / 4), computed once per thread; 0 if unknown.
uintptr_t fh_stack_floor(uintptr_t reserve);

/// Lets the main thread's stack grow to `bytes` (Linux: raises the soft
/// RLIMIT_STACK, which the kernel checks as the stack grows; never above the
/// hard limit, never lowers it). Call before anything looks the bounds up.
/// Returns the main thread's stack limit now, in bytes (0 if unknown).
uintptr_t fh_grow_main_stack(uintptr_t bytes);

/// The resolve running on this thread: its state's address and a token
/// unique on this thread. A resolver checks both before touching the state,
/// so one kept past its factory call (or used on another thread) is refused
/// instead of reading a dead stack frame.
typedef struct fh_active_resolve {
    const void *state;
    uint64_t token;
} fh_active_resolve;

/// The resolve active on this thread, and the last token handed out here.
extern __thread fh_active_resolve fh_active;
extern __thread uint64_t fh_next_token;

/// Makes `state` the active resolve; returns what was active before (to
/// restore with fh_end_resolve) and writes the new token to `*token`.
static inline fh_active_resolve fh_begin_resolve(const void *state, uint64_t *token) {
    fh_active_resolve previous = fh_active;
    fh_active.state = state;
    fh_active.token = ++fh_next_token;
    *token = fh_active.token;
    return previous;
}

static inline void fh_end_resolve(fh_active_resolve previous) { fh_active = previous; }

/// Whether (`state`, `token`) is the resolve active on this thread now.
static inline int fh_resolve_is_active(const void *state, uint64_t token) {
    return fh_active.state == state && fh_active.token == token;
}

/// The active resolve's state address, or NULL.
static inline const void *fh_active_state(void) { return fh_active.state; }

#endif
