// The per-state control block, shared by the shim's C files (not public).
#ifndef CLUASHIM_CONTROL_H
#define CLUASHIM_CONTROL_H

#include "CLuaShim.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>

/// How many Lua threads one state tracks as running at once: the thread a
/// call from Swift entered, and each coroutine being resumed inside it.
/// Lua stops nesting C calls (and so resumes) at about 200.
#define FH_MAX_RUNNING 256
/// Past this many nested coroutine runs, closing another one is refused
/// ("C stack overflow"), as Lua refuses nested resumes near LUAI_MAXCCALLS.
#define FH_MAX_NESTED 190


/// Per-state bookkeeping, reachable from every thread of the state through
/// the extra space (lua_newthread copies the main thread's extra space).
typedef struct fh_control {
    lua_Alloc base_alloc;
    void *base_ud;
    size_t used;          /* bytes allocated now (counted once `counting`) */
    int counting;         /* fh_alloc is installed (since the first memory limit) */
    int memo_off;         /* memoizing methods answer from Swift every time */
    size_t limit;         /* 0 = no cap */
    int enforce;          /* the cap applies only while Lua code runs */

    long long instr_limit;   /* 0 = no cap */
    long long instr_left;
    double time_limit;       /* seconds per outermost call; <= 0 = no cap */
    double deadline_at;      /* an absolute monotonic deadline; 0 = none */
    double deadline_at_length; /* the seconds it was set for (for messages) */
    double deadline;         /* the running call's deadline (0 = none) */
    char call_limit_text[32];/* its length in seconds, as Lua prints a float ("2.0") */
    /* A limit fired: the hook keeps raising until the outermost call returns.
       Written by the watchdog thread, read by the Lua thread. */
    _Atomic int exhausted;
    _Atomic int interrupted;
    int last_limit;          /* the limit that ended the last outermost call (FH_LIMIT_…) */
    char limit_message[512]; /* the first "… limit exceeded" message (or a stop's), with its place */
    char limit_traceback[2048]; /* the stack where that limit was first raised ("stack traceback:…"), cut at a line */

    /* Where the last error was raised, as data: the length of the
       `file:line:` its message begins with, when that place is verified (a
       frame's own, or one Swift raised with); 0 when it has none. */
    size_t error_place_length;
    char expected_place[320];   /* the `file:line:` Swift raised its next error with ("" none) */

    int depth;               /* nesting of protected calls from Swift */
    int script_status;       /* the inner status seen by fh_pcall_script */

    /* The Lua threads running now, innermost last: what the stop signal arms.
       Pushed and popped only by the thread that runs the state; read by the
       signal handler on that same thread. */
    lua_State *running[FH_MAX_RUNNING];
    volatile sig_atomic_t nrunning;
    pthread_t thread;                 /* the thread running the outermost call */
    struct fh_control *thread_next;   /* other states entered on that thread (outer ones) */

    /* The watchdog's view (under its lock). */
    struct fh_control *watch_next, *watch_prev;
    int watched;
    int watch_fired;
    double watch_deadline;
    double hard_stop_grace;          /* < 0: never stop the process */
    int hard_stop_status;            /* the exit status then */
    size_t process_memory_cap;       /* 0: not watched */
    size_t process_memory_base;      /* resident bytes when the cap was set */
    char hard_stop_prefix[256];      /* "factoryhost: " */
    /* The blocking builtin the Lua thread is in now, and where it was called
       ("os.execute, called at blk.lua:2"): a hard stop names it. Written by
       the Lua thread (blocked set last), read by the watchdog or the signal
       handler on that thread. */
    char blocked_in[224];
    volatile sig_atomic_t blocked;

    /* A deadline watched by a timer of the thread running the state (Linux):
       no watchdog thread then. Set and read by that thread and its signal
       handler only. */
    int timer_id;                    /* the kernel's timer id */
    int timer_made;
    int timer_tid;                   /* the thread the timer signals */
    volatile sig_atomic_t timer_armed;
    char timer_stop_text[768];       /* the hard stop's message, made when armed */

    /* Registry references dropped on other threads, freed by the owner's
       next call (luaL_unref is not thread-safe). */
    pthread_mutex_t unref_lock;
    int *unrefs;
    int unref_count, unref_capacity;
    _Atomic int has_unrefs;
    int finalizing;          /* Swift objects being released by __gc now */

    fh_call_fn call;
    fh_release_fn release;
    void *owner;             /* the Swift object that owns the state (unretained) */
    fh_last_fn after_finalizers;     /* called by the last finalizer of a close (then cleared) */
    void *after_finalizers_context;
    void *last_finalizer;            /* the sentinel userdata (see last_finalizer_gc) */
} fh_control;

/// The control block of the state `L` belongs to.
static inline fh_control *control(lua_State *L) { return *(fh_control **)lua_getextraspace(L); }

/// Notes that the Lua thread enters blocking builtin `what`, called from
/// the Lua function one level up (see fh_control.blocked_in).
void fh_note_blocking(lua_State *L, const char *what);

/// Notes that it left it.
static inline void fh_note_unblocked(lua_State *L) { control(L)->blocked = 0; }
fh_control *fh_control_of(lua_State *L);

/// How many VM instructions run between two looks at the limits.
#define FH_HOOK_STEP 1000

// Shared between the shim's files (limits.c, calls.c, objects.c, state.c,
// libraries.c, collector.c); not part of the public header.

/// Lua's allocator wrapped to count and cap (limits.c).
void *fh_alloc(void *ud, void *ptr, size_t osize, size_t nsize);
/// The hook that raises a limit or a stop, its arming on one thread, and
/// the instructions until it looks again (limits.c).
void fh_hook(lua_State *L, lua_Debug *ar);
void fh_arm_stop(lua_State *L);
int fh_hook_step(fh_control *c);
/// A limit's seconds as Lua prints a float ("2.0", "0.3") (limits.c).
void fh_format_seconds(char *out, size_t size, double seconds);
/// Runs `f` with `nargs` arguments under lua_pcall, no message handler (calls.c).
int fh_protected_call(lua_State *L, lua_CFunction f, int nargs, int nresults);
/// Forgets the original value of the last error (calls.c).
void fh_clear_error_value(lua_State *L);
/// The bridge's tag of the userdata at `idx` (NULL for any other value), the
/// Swift object inside it, the C function every Swift closure is, and a
/// memoizing method's (objects.c).
const void *fh_bridge_tag(lua_State *L, int idx);
struct fh_object *fh_object_at(lua_State *L, int idx);
int fh_trampoline(lua_State *L);
int fh_memo_trampoline(lua_State *L);
/// Registry slots and names the bridge's files share (objects.c).
extern char fh_metatables_key;
extern char fh_memo_tables_key;
extern const char *const fh_closure_mt;
/// Uninstalls the Ctrl-C handler if it stops `L` (a state closing) (limits.c).
void fh_forget_sigint_for(lua_State *L);
/// os.exit wrapped so a close-for-exit's inner close exits with its code (state.c).
void fh_guard_os_exit(lua_State *L);
/// os.execute and io.popen starting their child in a process group of its own
/// when no standard stream is a terminal (child_processes.c).
void fh_group_child_processes(lua_State *L);
/// Remembers a process group such a child leads, ended whole with the
/// descendants (process_tree.c).
void fh_note_child_group(pid_t group);

/// Passes a SIGINT on to the process groups of the children this process
/// waits for or reads from now (os.execute, io.popen), off a terminal —
/// where a Ctrl-C reaches them through the terminal's group. Async-signal-safe.
void fh_interrupt_children(void);
/// Starts the guardian (if wanted and not running) for a child started in
/// this process's own group — on a terminal — which it finds below the
/// command by looking, as it finds one that left its group (process_tree.c).
void fh_guard_descendants(void);
/// Has the guardian (if running) look below the command now, and waits (at
/// most a quarter second) until it has: what a child left is known to it
/// before the script goes on.
void fh_guardian_look_now(void);
/// A child group's shell was reaped: forgotten by the guardian if no member is left.
void fh_child_group_waited(pid_t group);
double fh_now(void);

/// Sets the stop hook on every Lua thread running in `c` (signal-safe).
void fh_arm_running(fh_control *c);
/// Records `L` as running inside `c` / forgets the innermost one.
void fh_running_push(fh_control *c, lua_State *L);
void fh_running_pop(fh_control *c);
/// Arms `L` if a stop is pending (a coroutine about to be resumed).
void fh_arm_if_stopping(fh_control *c, lua_State *L);

/// The watchdog: registers the outermost call of `c` (deadline and/or
/// memory watch) and forgets it when the call returns.
void fh_watch(fh_control *c);
void fh_unwatch(fh_control *c);
/// Frees the state's deadline timer, if it has one (when the state closes).
void fh_delete_timer(fh_control *c);
/// Makes sure the stop signal's handler is installed (once per process) and
/// that the signal is not blocked on the calling thread.
void fh_install_stop_signal(void);
/// Sends the stop signal to the thread running `c` (async-signal-safe).
void fh_signal_running_thread(fh_control *c);
/// Makes `c` the innermost state entered on the calling thread / forgets it.
void fh_thread_enter(fh_control *c);
void fh_thread_leave(fh_control *c);
/// Resident memory of the process in bytes (0 if unknown).
size_t fh_resident_bytes(void);

/// Replaces coroutine.resume/wrap/close with versions that record the
/// coroutine they run, so a stop reaches it (see coroutines.c).
void fh_track_coroutines(lua_State *L);
/// Replaces xpcall with one whose Lua message handler never runs while the
/// call is being stopped (see xpcall.c).
void fh_guard_xpcall(lua_State *L);
/// luaL_traceback without xpcall's guard frames (see xpcall.c).
void fh_traceback(lua_State *L, lua_State *L1, const char *msg, int level);
/// Replaces debug.traceback with one built on fh_traceback.
void fh_guard_traceback(lua_State *L);

/// For FH_RAISE_VALUE and FH_RAISE_CAUSE: replaces the id and the message
/// on top with the value to raise (error_values.c).
void fh_push_raised_value(lua_State *L, int wrap);
/// Whether the value at `idx` is an error object FH_RAISE_CAUSE made.
int fh_is_error_object(lua_State *L, int idx);

#endif
