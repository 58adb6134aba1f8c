// The low end of the current thread's stack, for the registry's stack guard.
// (A GNU extension on Linux that Swift's Glibc module does not expose.)
#ifndef CSTACKBOUNDS_H
#define CSTACKBOUNDS_H
#include <stdint.h>

/// The lowest address of the calling thread's stack, or 0 if unknown.
/// Computed once per thread.
uintptr_t fh_stack_low_bound(void);

#endif
