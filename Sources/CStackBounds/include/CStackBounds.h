// Where the calling thread's stack ends (kept in C for cheap thread-local
// storage): the registry's depth guard stops a resolve before it overflows.
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

#endif
