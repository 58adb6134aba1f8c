// Whether the calling thread is the process's main thread: what a call into a
// main-actor export from Lua checks before it assumes the main actor.
#define _GNU_SOURCE
#include "CLuaShim.h"

#if defined(__APPLE__)
#include <pthread.h>
int fh_is_main_thread(void) { return pthread_main_np() != 0; }
#else
#include <sys/syscall.h>
#include <unistd.h>
int fh_is_main_thread(void) { return (pid_t)syscall(SYS_gettid) == getpid(); }
#endif
