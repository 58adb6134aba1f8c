// CLuaShim — see include/CLuaShim.h for what lives here and why.
#include "CLuaShim.h"
#include "control.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

// MARK: - The control block (control.h)

/// The userdata of a Swift object: the retained reference, its tag, and the
/// identity of its exact Swift class (what fast type checks compare).
///
/// Both layouts start with the retained reference and carry a tag — the
/// address of a static of this file — in their second word: the tag, not
/// the size or the metatable, is what makes a userdata the bridge's. A
/// script with the debug library can give any userdata a Swift object's
/// metatable (`debug.setmetatable(io.stdout, …)`, and io.stdout has the same
/// size), but it cannot make the tag.
typedef struct fh_object {
    void *object;
    const void *tag;        /* &fh_object_tag */
    const void *type;
    /* Calls running with this object lent as their receiver (no retain): a
       release asked for meanwhile (a script calling __gc by hand through the
       debug library) waits until the last of them returns. */
    int pins;
    int release_pending;
} fh_object;

/// The userdata a Swift function's C closure keeps as its upvalue: the
/// retained box, its tag, and for a method the Swift class its receiver must
/// be (NULL for a plain function). A script can reach it (debug.getupvalue)
/// and pass it where an object is expected: the tag tells them apart.
typedef struct fh_function {
    void *box;
    const void *tag;        /* &fh_function_tag */
    const void *receiver_type;
    void *unused;           /* the same size as fh_object */
} fh_function;

_Static_assert(sizeof(fh_object) == sizeof(fh_function), "the tag is what tells the layouts apart");
static const char fh_object_tag = 0;
static const char fh_function_tag = 0;

/// The tag of the bridge userdata at `idx`, or NULL for anything else.
static const void *bridge_tag(lua_State *L, int idx) {
    if (lua_type(L, idx) != LUA_TUSERDATA || lua_rawlen(L, idx) != sizeof(fh_object)) return NULL;
    const void *tag = ((const fh_object *)lua_touserdata(L, idx))->tag;
    return tag == &fh_object_tag || tag == &fh_function_tag ? tag : NULL;
}

/// How many VM instructions run between two looks at the limits.
#define FH_HOOK_STEP 1000

static char fh_error_key;      /* registry slot: original value of the last error */
static char fh_nil_marker;     /* stands for a nil error value in that slot */
static char fh_metatables_key; /* registry slot: private table of the bridge's metatables, by name */
static char fh_sentinel_key;   /* field that marks a metatable as the bridge's */
static char fh_module_path_key;/* registry slot: the sandbox's module path */
static const char *const fh_closure_mt = "factoryhost.SwiftFunction";

static int protected_call(lua_State *L, lua_CFunction f, int nargs, int nresults);
static struct fh_object *object_at(lua_State *L, int idx);

static fh_control *control(lua_State *L) {
    return *(fh_control **)lua_getextraspace(L);
}

fh_control *fh_control_of(lua_State *L) { return control(L); }

// MARK: - Allocator

/// Lua's allocator wrapped: counts bytes and refuses growth past the cap while
/// Lua code runs. Lua then collects garbage, retries, and finally raises
/// "not enough memory" inside the script, where it is catchable. Swift code
/// (pushing results, building userdata) is never refused: a refusal there would
/// have to unwind through Swift frames.
static void *fh_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
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

static void fh_hook(lua_State *L, lua_Debug *ar);
static void fh_sigint_answered(void);

/// The stop hook on every instruction (and call and return: a C function
/// returning into Lua is seen at once).
static void arm_stop(lua_State *L) {
    lua_sethook(L, fh_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}

/// How many instructions until the hook should look again.
static int hook_step(fh_control *c) {
    if (c->instr_limit > 0 && c->instr_limit < FH_HOOK_STEP) return (int)c->instr_limit;
    return FH_HOOK_STEP;
}

void fh_arm_running(fh_control *c) {
    int n = c->nrunning;
    for (int i = 0; i < n && i < FH_MAX_RUNNING; i++) arm_stop(c->running[i]);
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
    if (atomic_load(&c->exhausted) || atomic_load(&c->interrupted)) arm_stop(L);
}

/// Formats a limit's seconds as Lua prints a float ("2.0", "0.3").
static void format_seconds(char *out, size_t size, double seconds) {
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
    }
    c->enforce = saved;
    return lua_error(L);
}

/// Runs when a stop was armed (time limit, Ctrl-C: from the watchdog or a
/// signal handler) or every few instructions under an instruction limit.
/// Once a limit fires it fires at every instruction, so a script cannot
/// catch the error with pcall and go on. With nothing to do, it takes
/// itself off the thread (a coroutine armed during an earlier call).
static void fh_hook(lua_State *L, lua_Debug *ar) {
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
        c->instr_left -= hook_step(c);
        if (c->instr_left <= 0) atomic_store(&c->exhausted, FH_LIMIT_INSTRUCTIONS);
    }
    if (!atomic_load(&c->exhausted) && c->deadline > 0 && !c->watched && fh_now() > c->deadline)
        atomic_store(&c->exhausted, FH_LIMIT_TIME);        /* no watchdog thread: the clock, here */
    if (atomic_load(&c->exhausted)) {
        arm_stop(L);                         /* on this thread too, whichever it is */
        raise_limit(L, c);
        return;
    }
    if (c->instr_limit > 0) lua_sethook(L, fh_hook, LUA_MASKCOUNT, hook_step(c));
    else if (c->deadline > 0 && !c->watched) lua_sethook(L, fh_hook, LUA_MASKCOUNT, FH_HOOK_STEP);
    else lua_sethook(L, NULL, 0, 0);
}

// MARK: - Entering and leaving Lua

typedef struct fh_entry {
    int saved_enforce;
} fh_entry;

/// Called before every protected call from Swift: the outermost one resets
/// the budgets and registers its deadline with the watchdog (no hook is set
/// for a time limit until it passes); every one records the Lua thread it
/// runs on and turns the memory cap on.
static fh_entry enter(lua_State *L, fh_control *c) {
    fh_entry e = { c->enforce };
    if (c->depth == 0) {
        fh_drain_unrefs(L);
        atomic_store(&c->exhausted, FH_LIMIT_NONE);
        c->last_limit = FH_LIMIT_NONE;
        c->limit_message[0] = 0;
        c->instr_left = c->instr_limit;
        c->nrunning = 0;
        double now = 0, deadline = 0, length = 0;
        if (c->time_limit > 0 || c->deadline_at > 0) now = fh_now();
        if (c->time_limit > 0) { deadline = now + c->time_limit; length = c->time_limit; }
        if (c->deadline_at > 0 && (deadline == 0 || c->deadline_at < deadline)) {
            deadline = c->deadline_at;
            length = c->deadline_at_length;
        }
        c->deadline = deadline;
        if (deadline > 0) format_seconds(c->call_limit_text, sizeof c->call_limit_text, length);
        fh_thread_enter(c);
        if (deadline > 0 || c->process_memory_cap > 0) fh_watch(c);
        if (deadline > 0 && deadline <= now) atomic_store(&c->exhausted, FH_LIMIT_TIME);
        if (atomic_load(&c->interrupted) || atomic_load(&c->exhausted)) arm_stop(L);
        else if (c->instr_limit > 0) lua_sethook(L, fh_hook, LUA_MASKCOUNT, hook_step(c));
        else if (deadline > 0 && !c->watched) lua_sethook(L, fh_hook, LUA_MASKCOUNT, FH_HOOK_STEP);
        else if (lua_gethook(L) == fh_hook) lua_sethook(L, NULL, 0, 0);
    }
    c->depth++;
    fh_running_push(c, L);
    c->enforce = 1;
    return e;
}

/// After every protected call from Swift. When the outermost call returns
/// after a limit fired, its status is the limit's error whatever the code
/// did with it (a coroutine's resume returns errors as values): the error
/// is on top, replacing any results from `base` on.
static int leave(lua_State *L, fh_control *c, fh_entry e, int status, int base) {
    fh_running_pop(c);
    c->depth--;
    c->enforce = e.saved_enforce;
    if (c->depth == 0) {
        if (c->watched) fh_unwatch(c);
        fh_thread_leave(c);
        if (atomic_load(&c->exhausted) && c->limit_message[0] != 0) {
            int keep = status == LUA_ERRRUN && lua_type(L, -1) == LUA_TSTRING
                       && strstr(lua_tostring(L, -1), c->limit_message) != NULL;
            if (!keep) {
                lua_settop(L, base - 1);
                lua_pushstring(L, c->limit_message);
                status = LUA_ERRRUN;
            }
        }
        c->last_limit = status != LUA_OK ? atomic_load(&c->exhausted) : FH_LIMIT_NONE;
        atomic_store(&c->exhausted, FH_LIMIT_NONE);
        if (lua_gethook(L) == fh_hook && !atomic_load(&c->interrupted)) lua_sethook(L, NULL, 0, 0);
    }
    return status;
}

// MARK: - Message handler

/// The stock interpreter's message handler (lua.c), which also keeps the
/// original error value so Swift can see tables and other non-string errors.
/// A __tostring metamethod runs under the memory cap; building the report
/// (traceback) does not, so a report is never refused.
/// tostring(value) through its __tostring metamethod, or nil without one.
static int call_tostring(lua_State *L) {
    if (!luaL_callmeta(L, 1, "__tostring")) lua_pushnil(L);
    return 1;
}

static int fh_msghandler(lua_State *L) {
    fh_control *c = control(L);
    int saved = c->enforce;              /* fh_pcall's leave() restores it after any error */
    c->enforce = 0;
    if (lua_isnil(L, 1)) lua_pushlightuserdata(L, &fh_nil_marker);
    else lua_pushvalue(L, 1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &fh_error_key);   /* the slot exists: no allocation */
    const char *msg = lua_tostring(L, 1);
    if (msg == NULL && fh_is_error_object(L, 1)) {   /* a failed resolve's: its message, with the traceback */
        lua_pushliteral(L, "message");
        lua_rawget(L, 1);
        msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
        if (msg == NULL) msg = lua_pushstring(L, "(an error object whose message was removed)");
    }
    if (msg == NULL) {
        /* The value's __tostring, protected: one that raises must not make
           its error the error (the value kept above would be replaced by it). */
        c->enforce = saved;              /* script code: under the cap */
        lua_pushcfunction(L, call_tostring);
        lua_pushvalue(L, 1);
        int converted = lua_pcall(L, 1, 1, 0) == LUA_OK && lua_type(L, -1) == LUA_TSTRING;
        c->enforce = 0;
        if (converted) {
            c->enforce = saved;
            return 1;
        }
        lua_pop(L, 1);
        msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    if (atomic_load(&c->exhausted) == FH_LIMIT_STOP) {  /* fh_stop's message is the whole report */
        c->enforce = saved;
        return 1;
    }
    fh_traceback(L, L, msg, 1);
    c->enforce = saved;
    return 1;
}

static void clear_error_value(lua_State *L);

void fh_take_error_value(lua_State *L) {
    lua_rawgetp(L, LUA_REGISTRYINDEX, &fh_error_key);
    void *marker = lua_touserdata(L, -1);
    if (marker == &fh_nil_marker || marker == &fh_error_key) {   /* nil, or no error kept */
        lua_pop(L, 1);
        lua_pushnil(L);
    }
    clear_error_value(L);
}

static void clear_error_value(lua_State *L) {
    lua_pushlightuserdata(L, &fh_error_key);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &fh_error_key);
}

// MARK: - Calls

int fh_pcall(lua_State *L, int nargs, int nresults) {
    fh_control *c = control(L);
    int base = lua_gettop(L) - nargs;       /* the function's index */
    lua_pushcfunction(L, fh_msghandler);
    lua_insert(L, base);
    clear_error_value(L);
    fh_entry e = enter(L, c);
    int status = lua_pcall(L, nargs, nresults, base);
    status = leave(L, c, e, status, base + 1);
    lua_remove(L, base);
    return status;
}

/// The C frame a script runs in (the stock interpreter's pmain/docall).
static int fh_script_frame(lua_State *L) {
    fh_control *c = control(L);
    int nargs = lua_gettop(L) - 1;
    lua_pushcfunction(L, fh_msghandler);
    lua_insert(L, 1);
    int status = lua_pcall(L, nargs, LUA_MULTRET, 1);
    if (status != LUA_OK) {
        c->script_status = status;
        return lua_error(L);
    }
    return lua_gettop(L) - 1;
}

int fh_pcall_script(lua_State *L, int nargs, int nresults) {
    fh_control *c = control(L);
    int base = lua_gettop(L) - nargs;
    lua_pushcfunction(L, fh_script_frame);
    lua_insert(L, base);
    clear_error_value(L);
    c->script_status = LUA_OK;
    fh_entry e = enter(L, c);
    int status = lua_pcall(L, nargs + 1, nresults, 0);
    if (status != LUA_OK && c->script_status != LUA_OK) status = c->script_status;
    return leave(L, c, e, status, base);
}

/// lua_load is protected internally, so loading a buffer needs no extra frame.
int fh_loadbuffer(lua_State *L, const char *buff, size_t size, const char *name, const char *mode) {
    fh_control *c = control(L);
    int saved = c->enforce;
    c->enforce = 1;
    int status = luaL_loadbufferx(L, buff, size, name, mode);
    c->enforce = saved;
    return status;
}

/// luaL_loadfilex allocates (chunk name, error text) outside lua_load's own
/// protection, so it runs inside a protected call. Results: status, chunk or message.
static int do_loadfile(lua_State *L) {
    const char *filename = (const char *)lua_touserdata(L, 1);
    const char *mode = (const char *)lua_touserdata(L, 2);
    int status = luaL_loadfilex(L, filename, mode);
    lua_pushinteger(L, status);
    lua_insert(L, -2);
    return 2;
}

int fh_loadfile(lua_State *L, const char *filename, const char *mode) {
    lua_pushlightuserdata(L, (void *)filename);
    lua_pushlightuserdata(L, (void *)mode);
    int status = protected_call(L, do_loadfile, 2, 2);
    if (status != LUA_OK) return status;           /* the error is on top */
    status = (int)lua_tointeger(L, -2);
    lua_remove(L, -2);                             /* chunk, or the load error's message */
    return status;
}

// MARK: - Protected access

/// Calls C function `f` on the top `nargs` values, protected, with the
/// message handler (so errors carry their value and traceback).
static int protected_call(lua_State *L, lua_CFunction f, int nargs, int nresults) {
    lua_pushcfunction(L, f);
    lua_insert(L, -(nargs + 1));
    return fh_pcall(L, nargs, nresults);
}

static int do_gettable(lua_State *L) { lua_gettable(L, 1); return 1; }
static int do_settable(lua_State *L) { lua_settable(L, 1); return 0; }

int fh_pgettable(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    lua_pushvalue(L, idx);          /* k t */
    lua_insert(L, -2);              /* t k */
    return protected_call(L, do_gettable, 2, 1);
}

int fh_psettable(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    lua_pushvalue(L, idx);          /* k v t */
    lua_insert(L, -3);              /* t k v */
    return protected_call(L, do_settable, 3, 0);
}


// MARK: - Swift objects and closures

/// Whether the value at `idx` is a full userdata of one of the bridge's
/// layouts (an object or a function) whose metatable carries the sentinel.
static int is_bridge_userdata(lua_State *L, int idx) {
    if (bridge_tag(L, idx) == NULL) return 0;
    if (!lua_getmetatable(L, idx)) return 0;
    int ours = lua_rawgetp(L, -1, &fh_sentinel_key) == LUA_TBOOLEAN;
    lua_pop(L, 2);
    return ours;
}

/// __gc of both layouts (each starts with the retained reference).
static int fh_object_gc(lua_State *L) {
    if (!is_bridge_userdata(L, 1)) return 0;          /* called by hand on something else */
    void **slot = (void **)lua_touserdata(L, 1);
    if (bridge_tag(L, 1) == &fh_object_tag) {
        fh_object *o = (fh_object *)slot;
        if (o->pins > 0) {             /* lent to a running method: released when it returns */
            o->release_pending = 1;
            return 0;
        }
    }
    if (*slot != NULL) {
        void *object = *slot;
        *slot = NULL;                  /* released exactly once, even if resurrected */
        fh_control *c = control(L);
        int saved = c->enforce;        /* Swift deinit code may touch Lua: never refuse it memory */
        c->enforce = 0;
        c->finalizing++;               /* a close() asked for by deinit code waits (see fh_depth) */
        c->release(object);
        c->finalizing--;
        c->enforce = saved;
    }
    return 0;
}

/// The bridge's metatables live in a private registry table (raw access
/// only), never in the registry's shared name space, where a script or
/// another library could have put anything under the same name.
int fh_object_metatable(lua_State *L, const char *name) {
    lua_rawgetp(L, LUA_REGISTRYINDEX, &fh_metatables_key);
    if (lua_getfield(L, -1, name) == LUA_TTABLE) {     /* the private table has no metatable */
        lua_remove(L, -2);
        return 0;
    }
    lua_pop(L, 1);
    lua_createtable(L, 0, 4);
    lua_pushcfunction(L, fh_object_gc);
    lua_setfield(L, -2, "__gc");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pushstring(L, name);
    lua_setfield(L, -2, "__name");
    lua_pushboolean(L, 1);
    lua_rawsetp(L, -2, &fh_sentinel_key);
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, name);
    lua_remove(L, -2);
    return 1;
}

void fh_push_object_with(lua_State *L, void *retained, const void *type, int metatableRef) {
    fh_object *o = (fh_object *)lua_newuserdatauv(L, sizeof(fh_object), 0);
    o->object = retained;
    o->tag = &fh_object_tag;
    o->type = type;
    o->pins = 0;
    o->release_pending = 0;
    lua_rawgeti(L, LUA_REGISTRYINDEX, metatableRef);
    lua_setmetatable(L, -2);
}

/* A weak-valued table (registry reference `cache`) of userdata pushed before,
   one slot per place that pushes the same objects again and again (a
   factory's dependency): pushes the one in `slot` if it holds `object` as
   `type` (alive: a weak table drops a userdata before its finalizer runs, and
   a live userdata keeps its object, so the address names one object). */
int fh_push_cached_object(lua_State *L, int cache, lua_Integer slot, const void *object, const void *type) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, cache);
    if (lua_rawgeti(L, -1, slot) == LUA_TUSERDATA) {
        fh_object *o = object_at(L, -1);
        if (o != NULL && o->object == object && o->type == type) {
            lua_remove(L, -2);
            return 1;
        }
    }
    lua_pop(L, 2);
    return 0;
}

/* Keeps the userdata at `idx` in the cache's `slot`, which the caller made
   before (a protected set), so this never allocates. */
void fh_cache_object(lua_State *L, int cache, lua_Integer slot, int idx) {
    idx = lua_absindex(L, idx);
    lua_rawgeti(L, LUA_REGISTRYINDEX, cache);
    lua_pushvalue(L, idx);
    lua_rawseti(L, -2, slot);
    lua_pop(L, 1);
}

int fh_object_metatable_ref(lua_State *L, const char *name) {
    fh_object_metatable(L, name);
    return luaL_ref(L, LUA_REGISTRYINDEX);
}

/// The fh_object at `idx`, or NULL. Light userdata have no length, and
/// tables and strings have no userdata block; the tag tells a Swift object
/// from a Swift function's box and from any other userdata of that size.
static fh_object *object_at(lua_State *L, int idx) {
    if (lua_rawlen(L, idx) != sizeof(fh_object)) return NULL;
    fh_object *o = (fh_object *)lua_touserdata(L, idx);
    return o != NULL && o->tag == &fh_object_tag ? o : NULL;
}

void *fh_to_object_of_type(lua_State *L, int idx, const void *type) {
    fh_object *o = object_at(L, idx);
    return o != NULL && o->type == type ? o->object : NULL;
}

void *fh_object_inside(lua_State *L, int idx) {
    fh_object *o = object_at(L, idx);
    return o != NULL ? o->object : NULL;
}

void *fh_to_object(lua_State *L, int idx, const char *name) {
    idx = lua_absindex(L, idx);
    if (!is_bridge_userdata(L, idx) || object_at(L, idx) == NULL || !lua_getmetatable(L, idx))
        return NULL;
    lua_rawgetp(L, LUA_REGISTRYINDEX, &fh_metatables_key);
    lua_getfield(L, -1, name);
    int same = lua_rawequal(L, -1, -3);
    lua_pop(L, 3);
    return same ? ((fh_object *)lua_touserdata(L, idx))->object : NULL;
}

/// What Lua calls for a Swift function or method. The Swift side never
/// raises: it returns a marker, and the error is raised here, in C.
///
/// The upvalue is the fh_function pushed with the closure: nothing in Lua
/// can replace it (the debug library's setupvalue refuses these functions,
/// and the sandbox has no debug library). For a method, an argument 1
/// holding an object of exactly the receiver's class is handed over
/// directly; anything else reaches Swift as NULL, and Swift checks it the
/// slow way (subclasses) or reports the bad argument.
static int call_swift(lua_State *L, int nargs);

static int fh_trampoline(lua_State *L) { return call_swift(L, lua_gettop(L)); }

/* The body of a trampoline: calls the Swift function in upvalue 1 with the
   `nargs` arguments on the stack; returns how many results it pushed. */
static int call_swift(lua_State *L, int nargs) {
    fh_function *f = (fh_function *)lua_touserdata(L, lua_upvalueindex(1));
    if (f->box == NULL)
        return luaL_error(L, "attempt to call a Swift function that was already released");
    void *receiver = NULL;
    fh_object *pinned = NULL;
    if (f->receiver_type != NULL) {
        fh_object *o = object_at(L, 1);
        if (o != NULL && o->type == f->receiver_type && o->object != NULL) {
            receiver = o->object;
            pinned = o;
            o->pins++;                 /* lent without a retain: no release until the call returns */
        }
    }
    fh_control *c = control(L);
    int saved = c->enforce;
    c->enforce = 0;
    int n = c->call(L, c->owner, f->box, receiver, nargs);
    if (pinned != NULL && --pinned->pins == 0 && pinned->release_pending) {
        void *object = pinned->object;
        pinned->object = NULL;
        pinned->release_pending = 0;
        c->finalizing++;
        c->release(object);
        c->finalizing--;
    }
    c->enforce = saved;
    if (n >= 0) return n;
    if ((n == FH_RAISE_WHERE || n == FH_RAISE_CAUSE) && lua_type(L, -1) == LUA_TSTRING) {
        luaL_where(L, 1);
        lua_insert(L, -2);
        lua_concat(L, 2);
    }
    if (n == FH_RAISE_VALUE || n == FH_RAISE_CAUSE) fh_push_raised_value(L, n == FH_RAISE_CAUSE);
    return lua_error(L);
}

void *fh_running_box(lua_State *L) {
    int up = lua_upvalueindex(1);    /* nil unless a C closure is running */
    if (bridge_tag(L, up) != &fh_function_tag) return NULL;
    return ((fh_function *)lua_touserdata(L, up))->box;
}

void fh_push_closure(lua_State *L, void *retainedBox, const void *receiverType) {
    fh_function *f = (fh_function *)lua_newuserdatauv(L, sizeof(fh_function), 0);
    f->unused = NULL;
    f->box = retainedBox;
    f->tag = &fh_function_tag;
    f->receiver_type = receiverType;
    fh_object_metatable(L, fh_closure_mt);
    lua_setmetatable(L, -2);
    lua_pushcclosure(L, fh_trampoline, 1);
}

/// __index of an exported type: methods by a raw table lookup (upvalue 1),
/// anything else through the property getter (upvalue 2, a Swift function
/// called with the object and the key).
static int exported_index(lua_State *L) {
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) return 1;
    lua_pop(L, 1);
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 2);
    lua_call(L, 2, 1);
    return 1;
}

void fh_where(lua_State *L, int level) { luaL_where(L, level); }

/* Whether the running C function was called as a method (`obj:f()`), as
   luaL_argerror asks: its argument errors then do not count self. */
int fh_in_finalizer_or_hook(lua_State *L) {
    lua_Debug ar;
    for (int level = 0; lua_getstack(L, level, &ar); level++) {
        if (!lua_getinfo(L, "n", &ar) || ar.namewhat == NULL) continue;
        if (strcmp(ar.namewhat, "hook") == 0) return 1;
        if (strcmp(ar.namewhat, "metamethod") == 0 && ar.name != NULL && strcmp(ar.name, "__gc") == 0) return 1;
    }
    return 0;
}

int fh_called_as_method(lua_State *L) {
    lua_Debug ar;
    if (!lua_getstack(L, 0, &ar) || !lua_getinfo(L, "n", &ar) || ar.namewhat == NULL) return 0;
    return strcmp(ar.namewhat, "method") == 0;
}

int fh_position(lua_State *L, int level, char *name, size_t *length) {
    lua_Debug ar;
    if (lua_getstack(L, level, &ar) && lua_getinfo(L, "Sl", &ar) && ar.currentline > 0) {
        size_t n = strlen(ar.short_src);
        memcpy(name, ar.short_src, n);
        *length = n;
        return ar.currentline;
    }
    *length = 0;
    return 0;
}

/* A bound function is the trampoline closure again, over the same box
   (upvalue 1) and with the bound values as upvalues 2 and on: no Swift
   object is made, and the values are out of the script's reach (the debug
   library shows and changes no upvalue of a trampoline). */
int fh_push_bound(lua_State *L, int n) {
    if (n < 0 || n > 250 || lua_tocfunction(L, -(n + 1)) != fh_trampoline) {
        lua_pop(L, n + 1);
        return 0;
    }
    lua_getupvalue(L, -(n + 1), 1);         /* the box */
    lua_replace(L, -(n + 2));               /* in the function's place */
    lua_pushcclosure(L, fh_trampoline, n + 1);
    return 1;
}

int fh_bound_index(int i) { return lua_upvalueindex(i + 1); }

void fh_push_exported_index(lua_State *L) {
    lua_pushcclosure(L, exported_index, 2);
}

// MARK: - Memoizing methods

/* What a memoizing method's Swift body returns after its result to have it
   remembered: only C can make this light userdata, so a script cannot. */
static const char memo_marker = 0;

void fh_push_memo_marker(lua_State *L) { lua_pushlightuserdata(L, (void *)&memo_marker); }

/* obj:m(key), a method whose answers for a string key may be remembered per
   object (LuaClass.memoizingMethod): a trampoline (upvalue 1: the Swift
   function's box, as fh_trampoline's) with a memo (upvalue 2), a weak-keyed
   table object → { key → result }, so a remembered call never enters Swift
   and the memo goes with the object. (Scripts reach upvalues only through
   the full debug library, which reaches the registry and every metatable
   too; the sandbox has none.) A call with other arguments, or whose answer
   the body did not ask to remember, goes to Swift each time. */
static int memo_trampoline(lua_State *L) {
    int memoizable = lua_gettop(L) == 2 && lua_type(L, 2) == LUA_TSTRING;
    if (memoizable && !control(L)->memo_off) {
        /* Only for a live receiver (a finalizer may run with its object
           already released), and never a remembered object since released:
           Swift says what is wrong with those. */
        fh_object *receiver = object_at(L, 1);
        if (receiver != NULL && receiver->object != NULL) {
            lua_pushvalue(L, 1);
            if (lua_rawget(L, lua_upvalueindex(2)) == LUA_TTABLE) {
                lua_pushvalue(L, 2);
                if (lua_rawget(L, -2) != LUA_TNIL) {
                    fh_object *answer = object_at(L, -1);
                    if (answer == NULL || answer->object != NULL) return 1;
                }
            }
        }
        lua_settop(L, 2);
    }
    int results = call_swift(L, lua_gettop(L));
    if (results != 2 || lua_touserdata(L, -1) != (void *)&memo_marker) return results;
    lua_pop(L, 1);                                   /* the marker */
    if (!memoizable) return 1;                       /* (the body checks this too) */
    /* Stack: object, key, result. */
    lua_pushvalue(L, 1);
    if (lua_rawget(L, lua_upvalueindex(2)) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_createtable(L, 0, 4);
        lua_pushvalue(L, 1);
        lua_pushvalue(L, -2);
        lua_rawset(L, lua_upvalueindex(2));
    }
    lua_pushvalue(L, 2);
    lua_pushvalue(L, 3);
    lua_rawset(L, -3);
    lua_settop(L, 3);
    return 1;
}

/* Registry slot: every memo made, so that fh_forget_memos can empty them. */
static char memo_tables_key;

static int wrap_memoizing(lua_State *L) {
    if (lua_tocfunction(L, 1) != fh_trampoline || lua_getupvalue(L, 1, 1) == NULL)
        return luaL_error(L, "only a Swift function can memoize");
    lua_createtable(L, 0, 1);                        /* the memo */
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &memo_tables_key) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_rawsetp(L, LUA_REGISTRYINDEX, &memo_tables_key);
    }
    lua_pushvalue(L, -2);
    lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
    lua_pop(L, 1);
    lua_pushcclosure(L, memo_trampoline, 2);
    return 1;
}

/* Replaces the function on top of the stack by its memoizing wrapper,
   protected (it allocates): LUA_OK, or an error message in its place. */
int fh_wrap_memoizing(lua_State *L) { return protected_call(L, wrap_memoizing, 1, 1); }

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
    clear_error_value(L);                /* creates the slot the handler reuses */
    lua_newtable(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &fh_metatables_key);
    fh_object_metatable(L, fh_closure_mt);
    lua_pop(L, 1);
    return L;
}

static lua_State *volatile sigint_state;

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

static void guard_os_exit(lua_State *L) {
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
    if (sigint_state == L) fh_uninstall_sigint();
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
        format_seconds(c->call_limit_text, sizeof c->call_limit_text,
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
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &memo_tables_key) != LUA_TTABLE) return 0;
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

void fh_forget_memos(lua_State *L) { (void)protected_call(L, do_forget_memos, 0, 0); }
void *fh_owner(lua_State *L) { return control(L)->owner; }

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
    arm_stop(L);
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

// MARK: - Libraries

/// `load` for untrusted code: text chunks only, whatever mode is asked for.
static int sandbox_load(lua_State *L) {
    int n = lua_gettop(L);
    if (n < 3) lua_settop(L, n = 3);
    lua_pushliteral(L, "t");
    lua_replace(L, 3);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, n, LUA_MULTRET);
    return lua_gettop(L);
}

/// package.searchers' Lua searcher for untrusted code: text files only, on
/// the module path the host set (fh_set_module_path), which the script
/// cannot change; the original package.searchpath is kept as an upvalue.
static int sandbox_searcher(lua_State *L) {
    const char *name = luaL_checkstring(L, 1);
    lua_pushvalue(L, lua_upvalueindex(1));                   /* searchpath */
    lua_pushstring(L, name);
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &fh_module_path_key) != LUA_TSTRING) {
        lua_pushfstring(L, "no module path is set for untrusted code (module '%s')", name);
        return 1;
    }
    lua_call(L, 2, 2);
    if (lua_type(L, -2) != LUA_TSTRING) return 1;           /* the "no file ..." message */
    const char *filename = lua_tostring(L, -2);
    if (luaL_loadfilex(L, filename, "t") != LUA_OK)
        return luaL_error(L, "error loading module '%s' from file '%s':\n\t%s",
                          name, filename, lua_tostring(L, -1));
    lua_pushstring(L, filename);
    return 2;
}

/// `setmetatable` for untrusted code: finalizers run outside every limit
/// (Lua disables hooks while running them), so a metatable with __gc is refused.
static int sandbox_setmetatable(lua_State *L) {
    if (lua_type(L, 2) == LUA_TTABLE) {
        lua_pushliteral(L, "__gc");
        if (lua_rawget(L, 2) != LUA_TNIL)
            return luaL_error(L, "untrusted code cannot set a __gc metamethod");
        lua_pop(L, 1);
    }
    lua_settop(L, 2);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, 2, 1);
    return 1;
}

void fh_set_module_path(lua_State *L, const char *path) {
    lua_pushstring(L, path);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &fh_module_path_key);
}

static void remove_field(lua_State *L, int table, const char *name) {
    lua_pushnil(L);
    lua_setfield(L, table, name);
}

static void open_sandboxed(lua_State *L) {
    static const luaL_Reg libs[] = {
        {LUA_GNAME, luaopen_base},         {LUA_LOADLIBNAME, luaopen_package},
        {LUA_COLIBNAME, luaopen_coroutine}, {LUA_TABLIBNAME, luaopen_table},
        {LUA_OSLIBNAME, luaopen_os},       {LUA_STRLIBNAME, luaopen_string},
        {LUA_MATHLIBNAME, luaopen_math},   {LUA_UTF8LIBNAME, luaopen_utf8},
        {NULL, NULL}};
    for (const luaL_Reg *lib = libs; lib->func; lib++) {
        luaL_requiref(L, lib->name, lib->func, 1);
        lua_pop(L, 1);
    }
    lua_pushglobaltable(L);
    int g = lua_gettop(L);
    remove_field(L, g, "dofile");
    remove_field(L, g, "loadfile");
    lua_getfield(L, g, "load");
    lua_pushcclosure(L, sandbox_load, 1);
    lua_setfield(L, g, "load");
    lua_getfield(L, g, "setmetatable");
    lua_pushcclosure(L, sandbox_setmetatable, 1);
    lua_setfield(L, g, "setmetatable");

    lua_getfield(L, g, "os");
    int os = lua_gettop(L);
    const char *os_removed[] = {"execute", "exit", "getenv", "remove", "rename", "tmpname", "setlocale", NULL};
    for (const char **f = os_removed; *f; f++) remove_field(L, os, *f);
    lua_pop(L, 1);

    lua_getfield(L, g, "package");
    int pkg = lua_gettop(L);
    remove_field(L, pkg, "loadlib");
    lua_pushliteral(L, "");
    lua_setfield(L, pkg, "cpath");
    lua_createtable(L, 2, 0);                       /* searchers: preload, text-only Lua */
    lua_getfield(L, pkg, "searchers");
    lua_rawgeti(L, -1, 1);
    lua_rawseti(L, -3, 1);
    lua_pop(L, 1);
    lua_getfield(L, pkg, "searchpath");
    lua_pushcclosure(L, sandbox_searcher, 1);
    lua_rawseti(L, -2, 2);
    lua_setfield(L, pkg, "searchers");
    remove_field(L, pkg, "searchpath");             /* it opens any path: a probe of the file system */
    lua_pushliteral(L, "");                         /* no modules until the host says where */
    lua_rawsetp(L, LUA_REGISTRYINDEX, &fh_module_path_key);
    lua_pop(L, 2);                                  /* package, globals */
}

/// debug.setupvalue, refusing Swift functions: their upvalues are the box
/// (and a memoizing method's memo) the trampoline trusts without looking
/// (see fh_trampoline, memo_trampoline). Upvalue 1 is the stock function.
static int guarded_setupvalue(lua_State *L) {
    lua_CFunction f = lua_tocfunction(L, 1);
    if (f == fh_trampoline || f == memo_trampoline)
        return luaL_argerror(L, 1, "the upvalues of a Swift function cannot be changed");
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/// debug.getupvalue, which shows Swift functions as having none: their
/// upvalues (a box, a memo) are the bridge's, not the script's.
static int guarded_getupvalue(lua_State *L) {
    lua_CFunction f = lua_tocfunction(L, 1);
    if (f == fh_trampoline || f == memo_trampoline) return 0;
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

static void guard_debug_library(lua_State *L) {
    if (lua_getglobal(L, LUA_DBLIBNAME) == LUA_TTABLE) {
        lua_getfield(L, -1, "setupvalue");
        lua_pushcclosure(L, guarded_setupvalue, 1);
        lua_setfield(L, -2, "setupvalue");
        lua_getfield(L, -1, "getupvalue");
        lua_pushcclosure(L, guarded_getupvalue, 1);
        lua_setfield(L, -2, "getupvalue");
    }
    lua_pop(L, 1);
}

/* The C functions of pcall and xpcall (the guarded one) as the libraries
   open them: the same in every state, so kept once. */
static _Atomic(lua_CFunction) catching_pcall, catching_xpcall;

static void remember_catching_functions(lua_State *L) {
    lua_getglobal(L, "pcall");
    lua_CFunction pcall = lua_tocfunction(L, -1);
    lua_getglobal(L, "xpcall");
    lua_CFunction xpcall = lua_tocfunction(L, -1);
    lua_pop(L, 2);
    if (pcall) atomic_store(&catching_pcall, pcall);
    if (xpcall) atomic_store(&catching_xpcall, xpcall);
}

int fh_error_caught_by_script(lua_State *L) {
    lua_CFunction pcall = atomic_load(&catching_pcall), xpcall = atomic_load(&catching_xpcall);
    lua_Debug ar;
    for (int level = 0; lua_getstack(L, level, &ar); level++) {
        if (!lua_checkstack(L, 1)) return 0;      /* never raises: no room, no answer */
        lua_getinfo(L, "f", &ar);                 /* pushes the frame's function; allocates nothing */
        lua_CFunction function = lua_tocfunction(L, -1);
        lua_pop(L, 1);
        if (function != NULL && (function == pcall || function == xpcall)) return 1;
    }
    return 0;
}

static int do_openlibs(lua_State *L) {
    int sandboxed = lua_toboolean(L, 1);
    lua_gc(L, LUA_GCSTOP);
    if (sandboxed) open_sandboxed(L);
    else {
        luaL_openlibs(L);
        guard_debug_library(L);
        guard_os_exit(L);
    }
    fh_track_coroutines(L);
    fh_guard_xpcall(L);
    fh_guard_traceback(L);
    remember_catching_functions(L);
    lua_gc(L, LUA_GCRESTART);
    lua_gc(L, LUA_GCGEN, 0, 0);                     /* as the stock interpreter does */
    return 0;
}

int fh_openlibs(lua_State *L, int sandboxed) {
    lua_pushboolean(L, sandboxed);
    return protected_call(L, do_openlibs, 1, 0);
}

// MARK: - Lua's macros, as functions

int fh_errfile(void) { return LUA_ERRFILE; }
unsigned long long fh_new_serial(void) {
    static _Atomic unsigned long long next = 1;
    return atomic_fetch_add(&next, 1);
}
/* A full collection, then a step: in generational mode the finalizers of
   what the collection found dead run only at the next step. */
static int do_collect(lua_State *L) { lua_gc(L, LUA_GCCOLLECT); lua_gc(L, LUA_GCSTEP, 0); return 0; }
int fh_collect(lua_State *L) { return protected_call(L, do_collect, 0, 0); }   /* __gc code runs under the limits */
/* Collecting what was made since a mark (a test's objects) at a cost that
   follows them, not the heap. At the mark, a fresh object is held only by a
   weak table: any collection since (one the allocations triggered, one the
   code asked for) clears it. If none ran, everything made since the mark is
   still young, and a young (minor) collection reaches all of it. If one
   ran, some of it may have aged past a young collection's reach: a full
   one then — which only happens after the code allocated a good part of the
   heap (a minor collection waits for 20% growth), so its cost stays in
   proportion. A collector the code switched to incremental mode is put
   back in generational mode, which is itself a full collection that runs
   the finalizers it finds: no second one is needed then. (After a "bad"
   major collection Lua runs incremental cycles but reports generational
   mode: putting it back costs that one full collection, which Lua's next
   step would have made anyway.) */
static const char young_mark_key = 0;

static int do_mark_young(lua_State *L) {
    lua_createtable(L, 1, 0);
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "v");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_createtable(L, 0, 0);
    lua_rawseti(L, -2, 1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &young_mark_key);
    return 0;
}
int fh_mark_young(lua_State *L) { return protected_call(L, do_mark_young, 0, 0); }

static int do_collect_since_mark(lua_State *L) {
    int young = lua_rawgetp(L, LUA_REGISTRYINDEX, &young_mark_key) == LUA_TTABLE
        && lua_rawgeti(L, -1, 1) == LUA_TTABLE;
    lua_settop(L, 0);
    if (lua_gc(L, LUA_GCGEN, 0, 0) != LUA_GCGEN) {
        /* entering generational mode collected in full (lgc.c entergen →
           atomic2gen → finishgencycle, pending finalizers called) */
    } else if (young) {
        lua_gc(L, LUA_GCSTEP, 0);
    } else {
        lua_gc(L, LUA_GCCOLLECT);
        lua_gc(L, LUA_GCSTEP, 0);                   /* the finalizers it found run at a step */
    }
    lua_pushnil(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &young_mark_key);
    return 0;
}
int fh_collect_since_mark(lua_State *L) { return protected_call(L, do_collect_since_mark, 0, 0); }
void fh_stop_collector(lua_State *L) { lua_gc(L, LUA_GCSTOP); }
/* lua_next, protected. Swift makes references between two steps of a walk;
   they allocate, an allocation may run a finalizer, and a finalizer may
   change the table: lua_next then raises ("invalid key to 'next'") — here,
   inside a pcall, not through Swift frames. (Stopping the collector for the
   walk instead made its restart start a collection cycle at once, after
   every table read: quadratic.) The key is on top: 1, the next key and value
   replace it; 0, the end (the key is gone); -1, the error message replaces it. */
static int do_next(lua_State *L) { return lua_next(L, 1) ? 2 : 0; }   /* t k */
int fh_pnext(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    int base = lua_gettop(L) - 1;      /* below the key */
    lua_pushcfunction(L, do_next);     /* k f */
    lua_pushvalue(L, idx);             /* k f t */
    lua_rotate(L, -3, -1);             /* f t k */
    if (lua_pcall(L, 2, LUA_MULTRET, 0) != LUA_OK) return -1;
    return lua_gettop(L) > base ? 1 : 0;
}
void fh_line_buffer_stdout(void) { setvbuf(stdout, NULL, _IOLBF, 0); }
int fh_flush_stdout(void) {
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout)) return 0;
    return errno != 0 ? errno : -1;                 /* an earlier write failed; its errno is gone */
}
void fh_pop(lua_State *L, int n) { lua_pop(L, n); }
int fh_isnoneornil(lua_State *L, int idx) { return lua_isnoneornil(L, idx); }
const char *fh_tolstring(lua_State *L, int idx, size_t *len) { return lua_tolstring(L, idx, len); }
int fh_ref(lua_State *L) { return luaL_ref(L, LUA_REGISTRYINDEX); }
void fh_unref(lua_State *L, int ref) { luaL_unref(L, LUA_REGISTRYINDEX, ref); }
int fh_getref(lua_State *L, int ref) { return lua_rawgeti(L, LUA_REGISTRYINDEX, ref); }
void fh_pushglobaltable(lua_State *L) { lua_pushglobaltable(L); }
