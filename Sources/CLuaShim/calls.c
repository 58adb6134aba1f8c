// Calls from Swift into Lua: entering and leaving (budgets, the watchdog,
// the running thread), the message handler, protected calls and loads, and
// protected table access.
#include "CLuaShim.h"
#include "control.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

static char fh_error_key;      /* registry slot: original value of the last error */
static char fh_nil_marker;     /* stands for a nil error value in that slot */

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
        c->blocked = 0;                    /* (one an error left noted) */
        fh_drain_unrefs(L);
        atomic_store(&c->exhausted, FH_LIMIT_NONE);
        c->last_limit = FH_LIMIT_NONE;
        c->limit_message[0] = 0;
        c->limit_traceback[0] = 0;
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
        if (deadline > 0) fh_format_seconds(c->call_limit_text, sizeof c->call_limit_text, length);
        fh_thread_enter(c);
        if (deadline > 0 || c->process_memory_cap > 0) fh_watch(c);
        if (deadline > 0 && deadline <= now) atomic_store(&c->exhausted, FH_LIMIT_TIME);
        if (atomic_load(&c->interrupted) || atomic_load(&c->exhausted)) fh_arm_stop(L);
        else if (c->instr_limit > 0) lua_sethook(L, fh_hook, LUA_MASKCOUNT, fh_hook_step(c));
        else if (deadline > 0 && !c->watched) lua_sethook(L, fh_hook, LUA_MASKCOUNT, FH_HOOK_STEP);
        else if (lua_gethook(L) == fh_hook) lua_sethook(L, NULL, 0, 0);
        /* (A stop the signal handler armed while the line before replaced the hook: armed back.) */
        if (atomic_load(&c->interrupted) || atomic_load(&c->exhausted)) fh_arm_stop(L);
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
                if (c->limit_traceback[0] != 0) {       /* and where it fired */
                    lua_pushliteral(L, "\n");
                    lua_pushstring(L, c->limit_traceback);
                    lua_concat(L, 3);
                }
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

/// The length of the `file:line:` `msg` begins with when that is a verified
/// place (see fh_error_place_length), else 0. Frames 1 to 4 are looked at: the
/// function that raised (a Lua function, or a C function such as `error`)
/// and the ones that called it (a Swift function raising at its caller's line).
static size_t verified_place(lua_State *L, fh_control *c, const char *msg) {
    size_t expected = strlen(c->expected_place);
    if (expected > 0) {
        int same = strncmp(msg, c->expected_place, expected) == 0;
        c->expected_place[0] = 0;
        if (same) return expected;
    }
    lua_Debug ar;
    char place[LUA_IDSIZE + 24];
    for (int level = 1; level <= 4 && lua_getstack(L, level, &ar); level++) {
        if (!lua_getinfo(L, "Sl", &ar) || ar.currentline <= 0) continue;
        int length = snprintf(place, sizeof place, "%s:%d:", ar.short_src, ar.currentline);
        if (length > 0 && (size_t)length < sizeof place && strncmp(msg, place, (size_t)length) == 0) return (size_t)length;
    }
    return 0;
}

size_t fh_error_place_length(lua_State *L) { return control(L)->error_place_length; }

void fh_expect_place(lua_State *L, const char *place, size_t length) {
    fh_control *c = control(L);
    if (length >= sizeof c->expected_place) length = 0;      /* too long to hold: no place */
    memcpy(c->expected_place, place, length);
    c->expected_place[length] = 0;
}

static int fh_msghandler(lua_State *L) {
    fh_control *c = control(L);
    int saved = c->enforce;              /* fh_pcall's leave() restores it after any error */
    c->enforce = 0;
    c->error_place_length = lua_type(L, 1) == LUA_TSTRING ? verified_place(L, c, lua_tostring(L, 1)) : 0;
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
    int limit = atomic_load(&c->exhausted);
    if (limit != FH_LIMIT_NONE && c->limit_traceback[0] != 0) {
        /* A limit: the stack where it first fired, not where it was raised again. */
        lua_pushstring(L, msg);
        lua_pushliteral(L, "\n");
        lua_pushstring(L, c->limit_traceback);
        lua_concat(L, 3);
    } else {
        fh_traceback(L, L, msg, 1);
    }
    c->enforce = saved;
    return 1;
}


void fh_take_error_value(lua_State *L) {
    lua_rawgetp(L, LUA_REGISTRYINDEX, &fh_error_key);
    void *marker = lua_touserdata(L, -1);
    if (marker == &fh_nil_marker || marker == &fh_error_key) {   /* nil, or no error kept */
        lua_pop(L, 1);
        lua_pushnil(L);
    }
    fh_clear_error_value(L);
}

void fh_clear_error_value(lua_State *L) {
    lua_pushlightuserdata(L, &fh_error_key);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &fh_error_key);
}

// MARK: - Calls

int fh_pcall(lua_State *L, int nargs, int nresults) {
    fh_control *c = control(L);
    int base = lua_gettop(L) - nargs;       /* the function's index */
    lua_pushcfunction(L, fh_msghandler);
    lua_insert(L, base);
    fh_clear_error_value(L);
    c->error_place_length = 0;
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
    fh_clear_error_value(L);
    c->error_place_length = 0;
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
    int status = fh_protected_call(L, do_loadfile, 2, 2);
    if (status != LUA_OK) return status;           /* the error is on top */
    status = (int)lua_tointeger(L, -2);
    lua_remove(L, -2);                             /* chunk, or the load error's message */
    return status;
}

// MARK: - Protected access

/// Calls C function `f` on the top `nargs` values, protected, with the
/// message handler (so errors carry their value and traceback).
int fh_protected_call(lua_State *L, lua_CFunction f, int nargs, int nresults) {
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
    return fh_protected_call(L, do_gettable, 2, 1);
}

int fh_psettable(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    lua_pushvalue(L, idx);          /* k v t */
    lua_insert(L, -3);              /* t k v */
    return fh_protected_call(L, do_settable, 3, 0);
}

// Parts of this file follow Lua 5.4's lua.c (the message handler), whose licence asks for
// this notice:
//
// Copyright (C) 1994-2022 Lua.org, PUC-Rio.
//
// Permission is hereby granted, free of charge, to any person obtaining
// a copy of this software and associated documentation files (the
// "Software"), to deal in the Software without restriction, including
// without limitation the rights to use, copy, modify, merge, publish,
// distribute, sublicense, and/or sell copies of the Software, and to
// permit persons to whom the Software is furnished to do so, subject to
// the following conditions:
//
// The above copyright notice and this permission notice shall be
// included in all copies or substantial portions of the Software.
//
// THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND,
// EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF
// MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT.
// IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY
// CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT,
// TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE
// SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.

int fh_chunk_id(lua_State *L, const char *name, char *out, size_t size) {
    if (size == 0) return -1;
    out[0] = 0;
    if (!lua_checkstack(L, 2)) return -1;
    fh_control *c = control(L);
    int saved = c->enforce;
    c->enforce = 0;                      /* a name is never refused memory */
    /* Lua's own short_src of an empty chunk of that name: luaO_chunkid is not
       in the API, and a copy of it in Swift drifted (it left "[string …]" out). */
    int status = luaL_loadbufferx(L, "", 0, name, "t");
    if (status != LUA_OK) {
        lua_pop(L, 1);
        c->enforce = saved;
        return -1;
    }
    lua_Debug ar;
    lua_getinfo(L, ">S", &ar);           /* pops the function */
    c->enforce = saved;
    size_t length = strlen(ar.short_src);
    if (length >= size) length = size - 1;
    memcpy(out, ar.short_src, length);
    out[length] = 0;
    return 0;
}
