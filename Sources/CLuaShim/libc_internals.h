// The reads of the C library's private state that a hard stop needs, in one
// guarded place: glibc's stdout buffer pointers and stream lock, and the
// sigevent field that sends a timer's signal to one thread. Each has a
// fallback that is safe where the layout is unknown (another libc, a glibc
// that changed): the caller then writes less, never reads a wrong field.
#ifndef CLUASHIM_LIBC_INTERNALS_H
#define CLUASHIM_LIBC_INTERNALS_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

/// What standard output's buffer holds, not yet written: 1 with `base` and
/// `length` set (glibc), 0 if this libc's buffer cannot be read.
static inline int fh_stdout_buffered(const char **base, size_t *length) {
#if defined(__GLIBC__) && defined(_IO_EOF_SEEN)
    const char *start = stdout->_IO_write_base, *end = stdout->_IO_write_ptr;
    *base = start;
    *length = start != NULL && end > start ? (size_t)(end - start) : 0;
    return 1;
#else
    (void)base; (void)length;
    return 0;
#endif
}

/// Whether some thread holds standard output's stream lock: 1 held, 0 free,
/// -1 unknown. glibc's lock is `{ int lock; int cnt; void *owner; }` behind
/// `_lock`; its first word is nonzero while held. (ftrylockfile cannot tell
/// from inside a signal handler on the holding thread: the lock is recursive.)
static inline int fh_stdout_lock_held(void) {
#if defined(__GLIBC__) && defined(_IO_EOF_SEEN)
    const volatile int *lock = (const volatile int *)(const void *)stdout->_lock;
    return lock != NULL && *lock != 0;
#else
    return -1;
#endif
}

#if defined(__linux__)
/// Makes `event` signal thread `tid` (SIGEV_THREAD_ID): glibc names the
/// field `_sigev_un._tid`, newer headers also `sigev_notify_thread_id`.
static inline void fh_sigevent_to_thread(struct sigevent *event, int tid) {
    event->sigev_notify = SIGEV_THREAD_ID;
#if defined(sigev_notify_thread_id)
    event->sigev_notify_thread_id = tid;
#else
    event->_sigev_un._tid = tid;
#endif
}
#endif

#endif
