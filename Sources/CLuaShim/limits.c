// The limits on running code: the memory cap (a counting allocator), the
// hook that raises when a limit is exceeded, the limits' setters, and Ctrl-C.
#include "CLuaShim.h"
#include "control.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

// MARK: - Allocator

/// Lua's allocator wrapped: counts bytes and refuses growth past the cap while
/// Lua code runs. Lua then collects garbage, retries, and finally raises
/// "not enough memory" inside the script, where it is catchable. Swift code
/// (pushing results, building userdata) is never refused: a refusal there would
/// have to unwind through Swift frames.
void *fh_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    fh_control *c = (fh_control *)ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        c->used -= old;
        return c->base_alloc(c->base_ud, ptr, osize, 0);
    }
    if (c->limit != 0 && c->enforce && nsize > old && c->used - old + nsize > c->limit)
        return NULL;
    void *p = c->base_alloc(c->base_ud, ptr, osize, nsize);
    if (p != NULL) c->used = c->used - old + nsize;
    return p;
}

// MARK: - Hook

static void fh_sigint_answered(void);

/// The stop hook on every instruction (and call and return: a C function
/// returning into Lua is seen at once).
void fh_arm_stop(lua_State *L) {
    lua_sethook(L, fh_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}

/// How many instructions until the hook should look again.
int fh_hook_step(fh_control *c) {
    if (c->instr_limit > 0 && c->instr_limit < FH_HOOK_STEP) return (int)c->instr_limit;
    return FH_HOOK_STEP;
}

void fh_arm_running(fh_control *c) {
    int n = c->nrunning;
    for (int i = 0; i < n && i < FH_MAX_RUNNING; i++) fh_arm_stop(c->running[i]);
}

void fh_running_push(fh_control *c, lua_State *L) {
    int n = c->nrunning;
    if (n < FH_MAX_RUNNING) c->running[n] = L;
    atomic_signal_fence(memory_order_seq_cst);      /* the entry before the count */
    c->nrunning = n + 1;
}

void fh_running_pop(fh_control *c) {
    c->nrunning = c->nrunning - 1;
}

void fh_arm_if_stopping(fh_control *c, lua_State *L) {
    if (atomic_load(&c->exhausted) || atomic_load(&c->interrupted)) fh_arm_stop(L);
}

/// Formats a limit's seconds as Lua prints a float ("2.0", "0.3").
void fh_format_seconds(char *out, size_t size, double seconds) {
    snprintf(out, size, "%.14g", seconds);
    if (strspn(out, "-0123456789") == strlen(out)) strncat(out, ".0", size - strlen(out) - 1);
}

/// Raises the limit's error at the running function's line. The first
/// message is kept: the outermost call reports it even if the code swallowed
/// the error (a coroutine's resume returns it as a value).
static int raise_limit(lua_State *L, fh_control *c) {
    int saved = c->enforce;
    c->enforce = 0;                      /* the message is never refused memory (a full heap stays a time limit) */
    lua_Debug ar;
    int level = 0;                       /* the innermost Lua function's line, past C frames */
    while (lua_getstack(L, level, &ar) && lua_getinfo(L, "l", &ar) && ar.currentline <= 0) level++;
    luaL_where(L, lua_getstack(L, level, &ar) ? level : 0);
    if (atomic_load(&c->exhausted) == FH_LIMIT_STOP && c->limit_message[0] != 0) {
        lua_pushstring(L, c->limit_message);          /* a stop's message has its place already */
        c->enforce = saved;
        return lua_error(L);
    }
    if (atomic_load(&c->exhausted) == FH_LIMIT_INTERRUPT)
        lua_pushliteral(L, "interrupted!");
    else if (atomic_load(&c->exhausted) == FH_LIMIT_INSTRUCTIONS)
        lua_pushfstring(L, "instruction limit exceeded (%I instructions)", (lua_Integer)c->instr_limit);
    else
        lua_pushfstring(L, "time limit exceeded (%s seconds)", c->call_limit_text);
    lua_concat(L, 2);
    if (c->limit_message[0] == 0) {
        size_t len = 0;
        const char *text = lua_tolstring(L, -1, &len);
        if (len >= sizeof c->limit_message) len = sizeof c->limit_message - 1;
        memcpy(c->limit_message, text, len);
        c->limit_message[len] = 0;
        /* Where it was stopped, kept: the traceback the outermost handler
           makes later is from wherever the error is raised again (a test
           library's xpcall that caught it), not where the code was. */
        fh_traceback(L, L, NULL, level);
        const char *trace = lua_tolstring(L, -1, &len);
        if (len >= sizeof c->limit_traceback) {
            len = sizeof c->limit_traceback - 1;
            while (len > 0 && trace[len] != '\n') len--;       /* whole lines only */
        }
        memcpy(c->limit_traceback, trace, len);
        c->limit_traceback[len] = 0;
        lua_pop(L, 1);
    }
    c->enforce = saved;
    return lua_error(L);
}

/// Runs when a stop was armed (time limit, Ctrl-C: from the watchdog or a
/// signal handler) or every few instructions under an instruction limit.
/// Once a limit fires it fires at every instruction, so a script cannot
/// catch the error with pcall and go on. With nothing to do, it takes
/// itself off the thread (a coroutine armed during an earlier call).
void fh_hook(lua_State *L, lua_Debug *ar) {
    fh_control *c = control(L);
    if (atomic_load(&c->interrupted)) {
        atomic_store(&c->interrupted, 0);
        fh_sigint_answered();
        if (c->depth == 0) {                     /* nothing runs from Swift: nothing to stop */
            lua_sethook(L, NULL, 0, 0);
            return;
        }
        /* Ctrl-C stops the whole call, as a limit does: a pcall, a message
           handler or a coroutine cannot swallow it and run on. */
        int none = FH_LIMIT_NONE;
        atomic_compare_exchange_strong(&c->exhausted, &none, FH_LIMIT_INTERRUPT);
    }
    if (c->depth == 0) {                     /* a stale hook: no call is running */
        lua_sethook(L, NULL, 0, 0);
        return;
    }
    if (!atomic_load(&c->exhausted) && c->instr_limit > 0 && ar->event == LUA_HOOKCOUNT) {
        c->instr_left -= fh_hook_step(c);
        if (c->instr_left <= 0) atomic_store(&c->exhausted, FH_LIMIT_INSTRUCTIONS);
    }
    if (!atomic_load(&c->exhausted) && c->deadline > 0 && !c->watched && fh_now() > c->deadline)
        atomic_store(&c->exhausted, FH_LIMIT_TIME);        /* no watchdog thread: the clock, here */
    if (atomic_load(&c->exhausted)) {
        fh_arm_stop(L);                         /* on this thread too, whichever it is */
        raise_limit(L, c);
        return;
    }
    if (c->instr_limit > 0) lua_sethook(L, fh_hook, LUA_MASKCOUNT, fh_hook_step(c));
    else if (c->deadline > 0 && !c->watched) lua_sethook(L, fh_hook, LUA_MASKCOUNT, FH_HOOK_STEP);
    else lua_sethook(L, NULL, 0, 0);
    /* A stop armed by the signal handler between the checks above and the
       line before was just overwritten: look again, and arm it back. */
    if (atomic_load(&c->exhausted) || atomic_load(&c->interrupted)) fh_arm_stop(L);
}

// MARK: - Limits

/* Lua's own count of the bytes it holds (-1 inside a finalizer: use ours). */
static size_t lua_bytes_in_use(lua_State *L) {
    int kilobytes = lua_gc(L, LUA_GCCOUNT, 0);
    return kilobytes < 0 ? 0 : (size_t)kilobytes * 1024 + (size_t)lua_gc(L, LUA_GCCOUNTB, 0);
}

/* The counting allocator goes in with the first limit and stays (a state
   without a limit allocates through Lua's own allocator, uncounted: counting
   cost 8% of the instructions of allocation-heavy code). Blocks made before
   are freed through the same base allocator, so the two mix. */
void fh_set_memory_limit(lua_State *L, size_t bytes) {
    fh_control *c = control(L);
    if (bytes != 0 && !c->counting) {
        c->used = lua_bytes_in_use(L);
        lua_setallocf(L, fh_alloc, c);
        c->counting = 1;
    }
    c->limit = bytes;
}
size_t fh_memory_limit(lua_State *L) { return control(L)->limit; }
size_t fh_memory_used(lua_State *L) {
    fh_control *c = control(L);
    return c->counting ? c->used : lua_bytes_in_use(L);
}
void fh_set_instruction_limit(lua_State *L, long long count) { control(L)->instr_limit = count > 0 ? count : 0; }
void fh_set_time_limit(lua_State *L, double seconds) { control(L)->time_limit = seconds; }

void fh_set_deadline(lua_State *L, double seconds) {
    fh_control *c = control(L);
    c->deadline_at = seconds > 0 ? fh_now() + seconds : 0;
    c->deadline_at_length = seconds > 0 ? seconds : 0;
}

double fh_time_left(lua_State *L) {
    fh_control *c = control(L);
    double left = c->time_limit > 0 ? c->time_limit : -1;
    if (c->deadline_at > 0) {
        double until = c->deadline_at - fh_now();
        if (until < 0) until = 0;
        if (left < 0 || until < left) left = until;
    }
    return left;
}

void fh_set_hard_stop(lua_State *L, double grace, const char *prefix, int status) {
    fh_control *c = control(L);
    c->hard_stop_grace = grace;
    c->hard_stop_status = status;
    snprintf(c->hard_stop_prefix, sizeof c->hard_stop_prefix, "%s", prefix != NULL ? prefix : "");
}

void fh_set_process_memory_cap(lua_State *L, size_t bytes) {
    fh_control *c = control(L);
    c->process_memory_base = bytes > 0 ? fh_resident_bytes() : 0;
    c->process_memory_cap = c->process_memory_base > 0 ? bytes : 0;   /* unknown resident size: no watch */
}

int fh_limit_fired(lua_State *L) { return control(L)->last_limit; }

void fh_stop(lua_State *L, const char *message, size_t length) {
    fh_control *c = control(L);
    if (c->depth == 0) return;                       /* no call is running: nothing to stop */
    int none = FH_LIMIT_NONE;
    if (!atomic_compare_exchange_strong(&c->exhausted, &none, FH_LIMIT_STOP)) return;   /* already stopping */
    if (length >= sizeof c->limit_message) length = sizeof c->limit_message - 1;
    memcpy(c->limit_message, message, length);
    c->limit_message[length] = 0;
    fh_arm_running(c);
    fh_arm_stop(L);
}

/// Ctrl-C (async-signal-safe): marks the state and, if Lua code runs, sends
/// the stop signal to its thread, whose handler arms every running Lua thread.
void fh_interrupt(lua_State *L) {
    fh_control *c = control(L);
    atomic_store(&c->interrupted, 1);
    if (c->depth > 0) fh_signal_running_thread(c);
}

static lua_State *volatile sigint_state = NULL;
static struct sigaction sigint_previous;
static int sigint_installed = 0;
/* Ctrl-Cs not yet answered by the running code stopping (fh_hook resets it). */
static volatile sig_atomic_t sigint_pending = 0;

/// The first Ctrl-C stops the running code (through the hook, as lua.c
/// does); a second one before that happened means the code cannot be
/// stopped (a long C function, a finalizer, a blocking call): the process
/// ends, saying so, with status 130.
static void on_sigint(int sig) {
    (void)sig;
    if (sigint_pending) {
        static const char message[] = "\nfactoryhost: interrupted again: the running code could not be stopped "
                                      "(it is in a C function, a finalizer or a blocking call), so the process ends\n";
        ssize_t ignored = write(2, message, sizeof message - 1);
        (void)ignored;
        fh_kill_descendants();
        _exit(130);
    }
    sigint_pending = 1;
    fh_interrupt_children();        /* off a terminal, what it waits for or reads from hears it too */
    if (sigint_state != NULL) fh_interrupt(sigint_state);
}

/// The running code stopped for a Ctrl-C: the next one interrupts again.
static void fh_sigint_answered(void) { sigint_pending = 0; }

void fh_install_sigint(lua_State *L) {
    fh_install_stop_signal();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    if (sigint_installed) fh_uninstall_sigint();
    sigint_pending = 0;
    sigint_state = L;
    sigaction(SIGINT, &sa, &sigint_previous);
    /* Ctrl-C must reach this thread even if it was started with SIGINT blocked. */
    sigset_t unblock;
    sigemptyset(&unblock);
    sigaddset(&unblock, SIGINT);
    pthread_sigmask(SIG_UNBLOCK, &unblock, NULL);
    sigint_installed = 1;
}

void fh_uninstall_sigint(void) {
    if (!sigint_installed) return;
    sigaction(SIGINT, &sigint_previous, NULL);
    sigint_state = NULL;
    sigint_installed = 0;
}

void fh_forget_sigint_for(lua_State *L) {
    if (sigint_state == L) fh_uninstall_sigint();
}
