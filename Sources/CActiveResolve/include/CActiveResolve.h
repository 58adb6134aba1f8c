// Which resolve of the registry is running on this thread: a thread-local
// the resolve path reads on every call, kept in C for cheap thread-local
// storage. A resolver handed to a factory checks it before touching the
// resolve's state, so one kept past its factory call (or used on another
// thread) is refused instead of reading a dead stack frame.
#ifndef CACTIVERESOLVE_H
#define CACTIVERESOLVE_H
#include <stdint.h>

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

/// A flag one thread raises and any reads without a lock (a container's
/// "closed", read on every resolve).
static inline int fh_flag_is_raised(const int32_t *flag) { return __atomic_load_n(flag, __ATOMIC_ACQUIRE) != 0; }
static inline void fh_flag_raise(int32_t *flag) { __atomic_store_n(flag, 1, __ATOMIC_RELEASE); }

/// Whether a resolve started on a container, on this thread, takes the
/// newest of several open scopes of a name (a script's scopes are a stack);
/// else it refuses to pick one. Set around script calls, restored after.
extern __thread int fh_scopes_stack;

/// Sets whether scopes stack on this thread; returns what it was.
static inline int fh_set_scopes_stack(int stack) {
    int previous = fh_scopes_stack;
    fh_scopes_stack = stack;
    return previous;
}

static inline int fh_scopes_stack_here(void) { return fh_scopes_stack; }

/// The active resolve's state address, or NULL.
static inline const void *fh_active_state(void) { return fh_active.state; }

#endif
