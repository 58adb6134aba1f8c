// A state's life: made with its control block and allocator, closed (with
// the last finalizer that may end the process), and references dropped
// from other threads.
#include "CLuaShim.h"
#include "control.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

fh_control *fh_control_of(lua_State *L) { return control(L); }

// MARK: - State

/* The state's first object marked for finalization: Lua calls finalizers
   in the reverse order it marked their objects, at close too (manual §2.5.3:
   "following the reverse order that they were marked"), so this one runs
   after every other. The state's heap is then only memory: a close for a
   process about to exit ends the process here, before Lua walks that heap
   to free it object by object (a million tables: ~25 ms of sweeping, which
   the exit does at once). Anchored in the registry, its metatable hidden;
   outside such a close (or if a script with the debug library unanchors it,
   or calls its __gc by hand) it does nothing. */
static const char last_finalizer_key = 0;

static int last_finalizer_gc(lua_State *L) {
    fh_control *c = control(L);
    fh_last_fn last = c->after_finalizers;
    /* Only the anchored sentinel itself: a copy of its metatable on another
       object (through the debug library) is not the last finalizer. */
    if (last != NULL && lua_touserdata(L, 1) == c->last_finalizer) {
        c->after_finalizers = NULL;
        /* The finalizers are done: their time limit ends here, so what comes
           next (flushing a full buffer into a slow pipe) is not held to it. */
        if (c->watched || c->timer_armed) fh_unwatch(c);
        last(c->after_finalizers_context);
    }
    return 0;
}

static int make_last_finalizer(lua_State *L) {
    control(L)->last_finalizer = lua_newuserdatauv(L, 1, 0);
    lua_createtable(L, 0, 2);
    lua_pushcfunction(L, last_finalizer_gc);
    lua_setfield(L, -2, "__gc");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, -2);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &last_finalizer_key);
    return 0;
}

void fh_close_with_last(lua_State *L, fh_last_fn last, void *context) {
    fh_control *c = control(L);
    c->after_finalizers = last;
    c->after_finalizers_context = context;
    fh_close(L);
}

lua_State *fh_newstate(fh_call_fn call, fh_release_fn release) {
    fh_control *c = (fh_control *)calloc(1, sizeof(fh_control));
    if (c == NULL) return NULL;
    lua_State *L = luaL_newstate();      /* stock panic and warning functions */
    if (L == NULL) {
        free(c);
        return NULL;
    }
    c->base_alloc = lua_getallocf(L, &c->base_ud);   /* fh_alloc wraps it once a memory limit is set */
    c->call = call;
    c->release = release;
    c->hard_stop_grace = -1;
    c->hard_stop_status = 1;
    pthread_mutex_init(&c->unref_lock, NULL);
    *(fh_control **)lua_getextraspace(L) = c;
    lua_pushcfunction(L, make_last_finalizer);
    if (lua_pcall(L, 0, 0, 0) != LUA_OK) {   /* first: before anything else is marked for finalization */
        lua_close(L);
        pthread_mutex_destroy(&c->unref_lock);
        free(c);
        return NULL;
    }
    fh_clear_error_value(L);                /* creates the slot the handler reuses */
    lua_newtable(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &fh_metatables_key);
    fh_object_metatable(L, fh_closure_mt);
    lua_pop(L, 1);
    return L;
}


void fh_flush_and_exit(int status) {
    fflush(NULL);
    exit(status);
}

_Noreturn static void exit_now(void *status) { fh_flush_and_exit((int)(intptr_t)status); }

/* os.exit(code, true) in a finalizer of a close for exit: Lua closes the
   state again from inside this one, and its last finalizer runs in that
   inner close: it must exit with `code`, as lua5.4 would, not the status
   the outer close was given. (The status is read as os.exit reads it,
   before anything changes: a bad argument raises here.) */
static int guarded_os_exit(lua_State *L) {
    fh_control *c = control(L);
    if (lua_toboolean(L, 2) && c->after_finalizers == exit_now) {
        int status = lua_isboolean(L, 1) ? (lua_toboolean(L, 1) ? EXIT_SUCCESS : EXIT_FAILURE)
                                         : (int)luaL_optinteger(L, 1, EXIT_SUCCESS);
        c->after_finalizers_context = (void *)(intptr_t)status;
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 0);
    return 0;
}

void fh_guard_os_exit(lua_State *L) {
    if (lua_getglobal(L, LUA_OSLIBNAME) == LUA_TTABLE) {
        if (lua_getfield(L, -1, "exit") == LUA_TFUNCTION) {
            lua_pushcclosure(L, guarded_os_exit, 1);
            lua_setfield(L, -2, "exit");
        } else {
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
}

void fh_close_and_exit(lua_State *L, int status) {
    fh_close_with_last(L, exit_now, (void *)(intptr_t)status);
    fh_flush_and_exit(status);                    /* the last finalizer was gone: Lua freed the heap */
}

void fh_close(lua_State *L) {
    fh_control *c = control(L);
    fh_forget_sigint_for(L);
    c->enforce = 0;
    c->owner = NULL;
    /* Finalizers run here, at depth 0 and with hooks off: under a time limit
       with a hard stop, they get the rest of the deadline (at least the
       grace) and are then stopped; the memory watch stays on too. */
    int watched = 0;
    if (c->hard_stop_grace >= 0 && (c->deadline_at > 0 || c->time_limit > 0)) {
        double now = fh_now();
        double deadline = c->deadline_at > 0 ? c->deadline_at : now + c->time_limit;
        c->deadline = deadline > now ? deadline : now;
        fh_format_seconds(c->call_limit_text, sizeof c->call_limit_text,
                       c->deadline_at > 0 ? c->deadline_at_length : c->time_limit);
        watched = 1;
    } else {
        c->deadline = 0;
    }
    if (watched || c->process_memory_cap > 0) {
        fh_thread_enter(c);
        fh_watch(c);
    }
    lua_close(L);
    if (c->watched) fh_unwatch(c);
    if (watched || c->process_memory_cap > 0) fh_thread_leave(c);
    fh_delete_timer(c);
    pthread_mutex_destroy(&c->unref_lock);
    free(c->unrefs);
    free(c);
}

/// Calls running, counting Swift objects being released by __gc (which can
/// run inside any allocation, even one Swift makes at depth 0): closing the
/// state inside the collector would free it under Lua's feet.
int fh_depth(lua_State *L) { fh_control *c = control(L); return c->depth + c->finalizing; }

void fh_defer_unref(lua_State *L, int ref) {
    fh_control *c = control(L);
    pthread_mutex_lock(&c->unref_lock);
    if (c->unref_count == c->unref_capacity) {
        int capacity = c->unref_capacity ? c->unref_capacity * 2 : 16;
        int *grown = (int *)realloc(c->unrefs, (size_t)capacity * sizeof(int));
        if (grown == NULL) {                       /* out of memory: the slot leaks, nothing breaks */
            pthread_mutex_unlock(&c->unref_lock);
            return;
        }
        c->unrefs = grown;
        c->unref_capacity = capacity;
    }
    c->unrefs[c->unref_count++] = ref;
    atomic_store(&c->has_unrefs, 1);
    pthread_mutex_unlock(&c->unref_lock);
}

void fh_drain_unrefs(lua_State *L) {
    fh_control *c = control(L);
    if (!atomic_load_explicit(&c->has_unrefs, memory_order_acquire)) return;
    pthread_mutex_lock(&c->unref_lock);
    for (int i = 0; i < c->unref_count; i++) luaL_unref(L, LUA_REGISTRYINDEX, c->unrefs[i]);
    c->unref_count = 0;
    atomic_store(&c->has_unrefs, 0);
    pthread_mutex_unlock(&c->unref_lock);
}

void fh_set_owner(lua_State *L, void *owner) { control(L)->owner = owner; }
void fh_set_memoizing(lua_State *L, int on) { control(L)->memo_off = !on; }
/* Empties every memo (each memoizing method's table of object → answers). */
static int do_forget_memos(lua_State *L) {
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &fh_memo_tables_key) != LUA_TTABLE) return 0;
    lua_Integer count = (lua_Integer)lua_rawlen(L, -1);
    for (lua_Integer i = 1; i <= count; i++) {
        if (lua_rawgeti(L, 1, i) == LUA_TTABLE) {
            int memo = lua_gettop(L);
            lua_pushnil(L);
            while (lua_next(L, memo)) {              /* clearing a field while traversing is allowed */
                lua_pop(L, 1);
                lua_pushvalue(L, -1);
                lua_pushnil(L);
                lua_rawset(L, memo);
            }
        }
        lua_pop(L, 1);
    }
    return 0;
}

void fh_forget_memos(lua_State *L) { (void)fh_protected_call(L, do_forget_memos, 0, 0); }
void *fh_owner(lua_State *L) { return control(L)->owner; }
