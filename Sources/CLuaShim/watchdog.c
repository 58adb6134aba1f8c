// The watchdog: what makes a time limit hold whatever the script runs, at
// no cost until it fires.
//
// A count hook on every instruction would stop a loop, but it slows every
// script down (the VM traces each instruction while any count hook is set),
// and it never runs in a finalizer, a long C builtin or a blocking Swift
// call. Instead, a call with a deadline is registered here; no hook is set.
// One thread per process sleeps until the earliest deadline, then
//  1. marks the state exhausted and sends the stop signal to the thread
//     running it; the handler, on that thread (as lua.c's Ctrl-C handler),
//     sets the stop hook on every Lua thread running there — the main
//     thread and each coroutine being resumed — so the next Lua instruction
//     raises "time limit exceeded";
//  2. if the call still has not returned `grace` seconds later (stuck in C
//     or in a blocking call, or in a finalizer, where Lua runs no hooks),
//     stops the process: a message on standard error and exit status 1.
// The same thread watches the process's resident memory for states with a
// process memory cap (see fh_set_process_memory_cap).
//
// On Linux a deadline needs no thread: a timer of the kernel's, made per
// state and thread, sends the stop signal to the thread running the state at
// the deadline, and again after the grace; the handler does steps 1 and 2
// itself. (Starting the watchdog thread, waking it and reaping it at exit
// cost every `check` about a twentieth of its start-up.) The watchdog thread
// remains for a process memory cap, for other systems, and if no timer can
// be made.
#include "control.h"
#include "libc_internals.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__) && defined(__GLIBC__)
#include <sys/syscall.h>
#define FH_DEADLINE_TIMERS 1
#endif
#if defined(__APPLE__)
#include <mach/mach.h>
#endif

/// The stop signal: SIGURG, ignored by default, so a stray one is harmless.
#define FH_STOP_SIGNAL SIGURG
/// How often the memory watch looks at the process (seconds).
#define FH_MEMORY_POLL 0.02

static pthread_mutex_t watch_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t watch_wakeup;
static fh_control *watch_list = NULL;
static int watchdog_started = 0;
/// Whether the watchdog waits (it rescans the list whenever it wakes), and
/// until when (0: until it is woken). A watch wakes it only if it must wake
/// sooner: every wake-up is two context switches on the thread running Lua.
static int watchdog_waiting = 0;
static double watchdog_wakes_at = 0;

double fh_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

// MARK: - The states entered on each thread

/// The innermost state whose outermost call runs on this thread (states may
/// nest: a Swift function of one calls into another). Set before any stop
/// signal can target the thread, so the handler never makes the first access.
static _Thread_local fh_control *thread_states = NULL;

void fh_thread_enter(fh_control *c) {
    c->thread = pthread_self();
    c->thread_next = thread_states;
    atomic_signal_fence(memory_order_seq_cst);
    thread_states = c;
}

void fh_thread_leave(fh_control *c) {
    if (thread_states == c) thread_states = c->thread_next;
    else {                                    /* left out of order: unlink it */
        for (fh_control *s = thread_states; s != NULL; s = s->thread_next)
            if (s->thread_next == c) { s->thread_next = c->thread_next; break; }
    }
    c->thread_next = NULL;
}

// MARK: - The stop signal

static struct sigaction previous_action;

#if FH_DEADLINE_TIMERS
static int arm_timer(fh_control *c, double at);
static void timer_hard_stop(fh_control *c);

/// In the handler: the deadlines of this thread's timer-watched states. At
/// the deadline, the state is exhausted (and the timer set again for the
/// grace); past the grace, the process stops.
static void check_timer_deadlines(void) {
    double now = fh_now();
    for (fh_control *c = thread_states; c != NULL; c = c->thread_next) {
        if (!c->timer_armed || c->watch_deadline <= 0) continue;
        if (!c->watch_fired) {
            if (now < c->watch_deadline) continue;
            c->watch_fired = 1;
            int none = FH_LIMIT_NONE;
            atomic_compare_exchange_strong(&c->exhausted, &none, FH_LIMIT_TIME);
            if (c->hard_stop_grace >= 0) arm_timer(c, c->watch_deadline + c->hard_stop_grace);
        } else if (c->hard_stop_grace >= 0 && now >= c->watch_deadline + c->hard_stop_grace) {
            timer_hard_stop(c);
        }
    }
}
#endif

/// Runs on the thread that runs the states (the watchdog and Ctrl-C send
/// it there). Arms the stop hook of every state of this thread that has a
/// stop pending; anything else goes to the previous handler.
static void on_stop_signal(int sig, siginfo_t *info, void *context) {
    int saved_errno = errno;
    int ours = 0;
#if FH_DEADLINE_TIMERS
    check_timer_deadlines();
#endif
    for (fh_control *c = thread_states; c != NULL; c = c->thread_next) {
        if (atomic_load(&c->exhausted) || atomic_load(&c->interrupted)) {
            fh_arm_running(c);
            ours = 1;
        }
    }
    if (!ours) {
        if (previous_action.sa_flags & SA_SIGINFO) {
            if (previous_action.sa_sigaction != NULL) previous_action.sa_sigaction(sig, info, context);
        } else if (previous_action.sa_handler != SIG_DFL && previous_action.sa_handler != SIG_IGN
                   && previous_action.sa_handler != NULL) {
            previous_action.sa_handler(sig);
        }
    }
    errno = saved_errno;
}

static pthread_once_t signal_once = PTHREAD_ONCE_INIT;

static void install_signal(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_stop_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(FH_STOP_SIGNAL, &sa, &previous_action);
}


void fh_signal_running_thread(fh_control *c) {
    pthread_kill(c->thread, FH_STOP_SIGNAL);
}

// MARK: - Resident memory

#if defined(__linux__)
/// /proc/self/statm, opened once and read with pread: a script that uses up
/// every file descriptor must not blind the memory watch.
static int statm_fd = -1;
static pthread_once_t statm_once = PTHREAD_ONCE_INIT;
static void open_statm(void) { statm_fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC); }
#endif

size_t fh_resident_bytes(void) {
#if defined(__linux__)
    pthread_once(&statm_once, open_statm);
    if (statm_fd < 0) return 0;
    char text[128];
    ssize_t n = pread(statm_fd, text, sizeof text - 1, 0);
    if (n <= 0) return 0;
    text[n] = 0;
    unsigned long size = 0, resident = 0;
    if (sscanf(text, "%lu %lu", &size, &resident) != 2) return 0;
    return (size_t)resident * (size_t)sysconf(_SC_PAGESIZE);
#elif defined(__APPLE__)
    struct mach_task_basic_info info;
    mach_msg_type_number_t count = MACH_TASK_BASIC_INFO_COUNT;
    if (task_info(mach_task_self(), MACH_TASK_BASIC_INFO, (task_info_t)&info, &count) != KERN_SUCCESS) return 0;
    return (size_t)info.resident_size;
#else
    return 0;
#endif
}

// MARK: - Stopping the process

/// Writes `length` bytes to `fd` without ever blocking (async-signal-safe):
/// a reader that stopped reading must not keep the process from stopping.
/// What does not fit now is dropped; the descriptor's flags are put back
/// (a terminal is shared with the shell).
static void write_without_blocking(int fd, const char *text, size_t length) {
    int flags = fcntl(fd, F_GETFL);
    int set = flags >= 0 && !(flags & O_NONBLOCK) && fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0;
    while (length > 0) {
        ssize_t n = write(fd, text, length);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        text += n;
        length -= (size_t)n;
    }
    if (set) fcntl(fd, F_SETFL, flags);
}

static void write_all(const char *text) { write_without_blocking(2, text, strlen(text)); }

/// What the script wrote to standard output and the stream still holds,
/// written without blocking — by a caller that knows no one is inside
/// stdio (the stream's lock is free), so the buffer is whole.
static void write_pending_stdout(void) {
    const char *base = NULL;
    size_t length = 0;
    if (fh_stdout_buffered(&base, &length)) {
        if (length > 0) write_without_blocking(1, base, length);
        return;
    }
    int flags = fcntl(1, F_GETFL);
    int set = flags >= 0 && !(flags & O_NONBLOCK) && fcntl(1, F_SETFL, flags | O_NONBLOCK) == 0;
    fflush(stdout);
    if (set) fcntl(1, F_SETFL, flags);
}

/// Why a time limit stops the process: the code did not stop in the grace.
static void time_stop_reason(fh_control *c, char *reason, size_t size) {
    snprintf(reason, size,
             "time limit exceeded (%s seconds), and the code did not stop within %g s more "
             "(it was in a finalizer, a C function or a blocking call): the process was stopped",
             c->call_limit_text, c->hard_stop_grace);
}

/// The line after a hard stop's message naming the blocking builtin the
/// code was in, if one was noted (async-signal-safe: no formatting).
static void write_blocked_in(fh_control *c) {
    if (!c->blocked) return;
    atomic_signal_fence(memory_order_seq_cst);
    write_all("  it was blocked in ");
    write_without_blocking(2, c->blocked_in, strnlen(c->blocked_in, sizeof c->blocked_in));
    write_all("\n");
}

void fh_note_blocking(lua_State *L, const char *what) {
    fh_control *c = control(L);
    lua_Debug ar;
    char place[160] = "";
    if (lua_getstack(L, 1, &ar) && lua_getinfo(L, "Sl", &ar) && ar.currentline > 0) {
        snprintf(place, sizeof place, ", called at %s:%d", ar.short_src, ar.currentline);
    }
    c->blocked = 0;
    atomic_signal_fence(memory_order_seq_cst);
    snprintf(c->blocked_in, sizeof c->blocked_in, "%s%s", what, place);
    atomic_signal_fence(memory_order_seq_cst);
    c->blocked = 1;
}

/// Ends the process from the watchdog thread: the code did not stop in
/// time. What the script wrote to standard output so far is written out
/// when nothing else holds the stream.
static void hard_stop(fh_control *c, const char *reason) {
    if (ftrylockfile(stdout) == 0) {
        write_pending_stdout();
        funlockfile(stdout);
    }
    char text[768];
    snprintf(text, sizeof text, "%s%s\n", c->hard_stop_prefix, reason);
    write_all(text);
    write_blocked_in(c);
    fh_kill_descendants();            /* an os.execute child, and what it started, end too */
    _exit(c->hard_stop_status);
}

#if FH_DEADLINE_TIMERS
// MARK: - Deadline timers (Linux)

/// Sets the state's timer to fire at monotonic time `at` (0: disarms it).
/// Async-signal-safe: a system call.
static int arm_timer(fh_control *c, double at) {
    struct itimerspec when;
    memset(&when, 0, sizeof when);
    if (at > 0) {
        when.it_value.tv_sec = (time_t)at;
        when.it_value.tv_nsec = (long)((at - (double)(time_t)at) * 1e9);
        if (when.it_value.tv_sec == 0 && when.it_value.tv_nsec == 0) when.it_value.tv_nsec = 1;
    }
    return syscall(SYS_timer_settime, c->timer_id, TIMER_ABSTIME, &when, NULL) == 0;
}

/// The hard stop, from the signal handler on the stuck thread: what the
/// script wrote to standard output so far (unless the thread is inside
/// stdio), the message, and exit — nothing blocks.
static void timer_hard_stop(fh_control *c) {
    /* The stream's lock taken: the stuck thread is inside stdio, its buffer
       may be half written (written out now, it could appear twice) — left,
       as the watchdog thread's ftrylockfile leaves it; unknown (not glibc):
       left too. */
    if (fh_stdout_lock_held() == 0) write_pending_stdout();
    write_all(c->timer_stop_text);
    write_blocked_in(c);
    fh_kill_descendants();
    _exit(c->hard_stop_status);
}

/// Watches the running call's deadline with a timer that signals this
/// thread; 0 if no timer could be made (the watchdog thread does it then).
static int watch_with_timer(fh_control *c) {
    int tid = (int)syscall(SYS_gettid);
    if (c->timer_made && c->timer_tid != tid) {           /* the state moved to another thread */
        syscall(SYS_timer_delete, c->timer_id);
        c->timer_made = 0;
    }
    if (!c->timer_made) {
        struct sigevent event;
        memset(&event, 0, sizeof event);
        fh_sigevent_to_thread(&event, tid);
        event.sigev_signo = FH_STOP_SIGNAL;
        int id = 0;
        if (syscall(SYS_timer_create, CLOCK_MONOTONIC, &event, &id) != 0) return 0;
        c->timer_id = id;
        c->timer_tid = tid;
        c->timer_made = 1;
    }
    char reason[256];
    time_stop_reason(c, reason, sizeof reason);
    snprintf(c->timer_stop_text, sizeof c->timer_stop_text, "%s%s\n", c->hard_stop_prefix, reason);
    c->watch_deadline = c->deadline;
    c->watch_fired = 0;
    atomic_signal_fence(memory_order_seq_cst);
    c->timer_armed = 1;
    if (!arm_timer(c, c->deadline)) {
        c->timer_armed = 0;
        return 0;
    }
    c->watched = 1;
    return 1;
}

/// Stops watching with the timer (and frees it when the state closes).
static void unwatch_timer(fh_control *c) {
    arm_timer(c, 0);
    c->timer_armed = 0;
    atomic_signal_fence(memory_order_seq_cst);
    c->watched = 0;
}

void fh_delete_timer(fh_control *c) {
    if (c->timer_armed) unwatch_timer(c);
    if (c->timer_made) syscall(SYS_timer_delete, c->timer_id);
    c->timer_made = 0;
}
#else
void fh_delete_timer(fh_control *c) { (void)c; }
#endif

// MARK: - The watchdog thread

static void *watchdog_main(void *unused) {
    (void)unused;
    pthread_mutex_lock(&watch_lock);
    for (;;) {
        double now = fh_now();
        double next = 0;                     /* 0 = nothing to wake for */
        size_t resident = 0;
        int resident_read = 0;
        for (fh_control *c = watch_list; c != NULL; c = c->watch_next) {
            if (c->watch_deadline > 0) {
                if (!c->watch_fired && now >= c->watch_deadline) {
                    c->watch_fired = 1;
                    int none = FH_LIMIT_NONE;
                    atomic_compare_exchange_strong(&c->exhausted, &none, FH_LIMIT_TIME);
                    fh_signal_running_thread(c);
                }
                if (!c->watch_fired) {
                    if (next == 0 || c->watch_deadline < next) next = c->watch_deadline;
                } else if (c->hard_stop_grace >= 0) {
                    double stop_at = c->watch_deadline + c->hard_stop_grace;
                    if (now >= stop_at) {
                        char reason[256];
                        time_stop_reason(c, reason, sizeof reason);
                        hard_stop(c, reason);
                    }
                    if (next == 0 || stop_at < next) next = stop_at;
                }
            }
            if (c->process_memory_cap > 0) {
                if (!resident_read) { resident = fh_resident_bytes(); resident_read = 1; }
                size_t allowed = c->process_memory_cap
                    + (c->process_memory_cap > ((size_t)32 << 20) ? c->process_memory_cap : ((size_t)32 << 20));
                if (resident > c->process_memory_base && resident - c->process_memory_base > allowed) {
                    char reason[256];
                    snprintf(reason, sizeof reason,
                             "memory limit exceeded: the process grew by %zu MB (the limit is %zu MB for Lua, "
                             "%zu MB for the whole process): the process was stopped",
                             (resident - c->process_memory_base) >> 20, c->process_memory_cap >> 20, allowed >> 20);
                    hard_stop(c, reason);
                }
                if (next == 0 || now + FH_MEMORY_POLL < next) next = now + FH_MEMORY_POLL;
            }
        }
        watchdog_waiting = 1;
        watchdog_wakes_at = next;
        if (next == 0) {
            pthread_cond_wait(&watch_wakeup, &watch_lock);
        } else {
#if defined(__APPLE__)
            double wait = next - fh_now();
            if (wait < 0) wait = 0;
            struct timespec rel = { (time_t)wait, (long)((wait - (double)(time_t)wait) * 1e9) };
            pthread_cond_timedwait_relative_np(&watch_wakeup, &watch_lock, &rel);
#else
            struct timespec abs = { (time_t)next, (long)((next - (double)(time_t)next) * 1e9) };
            pthread_cond_timedwait(&watch_wakeup, &watch_lock, &abs);
#endif
        }
        watchdog_waiting = 0;
    }
    return NULL;
}

/// Starts the watchdog thread (under watch_lock), with every signal blocked
/// in it so that Ctrl-C and the stop signal go to the threads running Lua.
static int start_watchdog(void) {
    if (watchdog_started) return 1;
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
#if !defined(__APPLE__)
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
#endif
    pthread_cond_init(&watch_wakeup, &attr);
    pthread_condattr_destroy(&attr);
    sigset_t all, saved;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &saved);
    pthread_t thread;
    pthread_attr_t thread_attr;
    pthread_attr_init(&thread_attr);
    pthread_attr_setdetachstate(&thread_attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&thread_attr, 64 * 1024);
    int ok = pthread_create(&thread, &thread_attr, watchdog_main, NULL) == 0;
    pthread_attr_destroy(&thread_attr);
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
    watchdog_started = ok;
    return ok;
}

/// Lets the stop signal reach the calling thread: a thread may have been
/// started with signals blocked (a dispatch worker, or a process spawned
/// from one, inherits that mask), and the signal would never arrive.
static void unblock_stop_signal(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, FH_STOP_SIGNAL);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

void fh_install_stop_signal(void) {
    pthread_once(&signal_once, install_signal);
    unblock_stop_signal();
}

void fh_watch(fh_control *c) {
    fh_install_stop_signal();
#if FH_DEADLINE_TIMERS
    if (c->timer_armed) unwatch_timer(c);
    if (c->process_memory_cap == 0 && c->deadline > 0 && watch_with_timer(c)) return;
#endif
    pthread_mutex_lock(&watch_lock);
    if (!start_watchdog()) {            /* no thread: the hook looks at the clock instead */
        pthread_mutex_unlock(&watch_lock);
        return;
    }
    c->watch_deadline = c->deadline;
    c->watch_fired = 0;
    if (!c->watched) {
        c->watch_prev = NULL;
        c->watch_next = watch_list;
        if (watch_list != NULL) watch_list->watch_prev = c;
        watch_list = c;
        c->watched = 1;
    }
    /* A watchdog not waiting yet scans the list when it does; one waiting
       past this deadline (or the next memory poll) must wake sooner. */
    if (watchdog_waiting && (c->process_memory_cap > 0 || watchdog_wakes_at == 0
                             || (c->watch_deadline > 0 && c->watch_deadline < watchdog_wakes_at)))
        pthread_cond_signal(&watch_wakeup);
    pthread_mutex_unlock(&watch_lock);
}

void fh_unwatch(fh_control *c) {
#if FH_DEADLINE_TIMERS
    if (c->timer_armed) {
        unwatch_timer(c);
        return;
    }
#endif
    pthread_mutex_lock(&watch_lock);
    if (c->watched) {
        if (c->watch_prev != NULL) c->watch_prev->watch_next = c->watch_next;
        else watch_list = c->watch_next;
        if (c->watch_next != NULL) c->watch_next->watch_prev = c->watch_prev;
        c->watch_next = c->watch_prev = NULL;
        c->watched = 0;
    }
    pthread_mutex_unlock(&watch_lock);
}

/// Whether the watchdog thread runs (else the hook must look at the clock).
int fh_watchdog_running(void) {
    pthread_mutex_lock(&watch_lock);
    int running = watchdog_started;
    pthread_mutex_unlock(&watch_lock);
    return running;
}
