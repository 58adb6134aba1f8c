// coroutine.resume, coroutine.wrap and coroutine.close, as Lua 5.4's
// lcorolib.c has them, plus one thing: while a coroutine runs, it is on the
// state's list of running threads, so a stop (time limit, Ctrl-C) armed from
// the watchdog or a signal handler reaches it — whenever it was created.
// A hook set on the main thread alone would not fire until the coroutine
// yields; that is how lua.c's Ctrl-C misses a loop inside a coroutine.
//
// Each function keeps the push and pop around the one call that runs the
// coroutine's code (lua_resume, lua_resetthread), neither of which raises, so
// the list never keeps a thread that stopped running.
#include "control.h"

/// Lua 5.4's auxresume, with the coroutine on the running list while it runs.
static int auxresume(lua_State *L, lua_State *co, int narg) {
    int status, nres;
    if (!lua_checkstack(co, narg)) {
        lua_pushliteral(L, "too many arguments to resume");
        return -1;
    }
    lua_xmove(L, co, narg);
    fh_control *c = fh_control_of(L);
    fh_running_push(c, co);
    fh_arm_if_stopping(c, co);
    status = lua_resume(co, L, narg, &nres);
    fh_running_pop(c);
    if (status == LUA_OK || status == LUA_YIELD) {
        if (!lua_checkstack(L, nres + 1)) {
            lua_pop(co, nres);
            lua_pushliteral(L, "too many results to resume");
            return -1;
        }
        lua_xmove(co, L, nres);
        return nres;
    }
    lua_xmove(co, L, 1);
    return -1;
}

/// lua_resetthread (it runs the coroutine's pending __close handlers), with
/// the coroutine on the running list.
static int reset_tracked(lua_State *L, lua_State *co) {
    fh_control *c = fh_control_of(L);
    if (c->nrunning >= FH_MAX_NESTED) {
        /* Lua 5.4.4 runs __close handlers here without counting C calls: a
           chain of closes inside __close handlers overflows the C stack. */
        lua_pushliteral(co, "C stack overflow (too many nested coroutine closes)");
        return LUA_ERRRUN;
    }
    fh_running_push(c, co);
    fh_arm_if_stopping(c, co);
    int status = lua_resetthread(co);
    fh_running_pop(c);
    return status;
}

static lua_State *getco(lua_State *L) {
    lua_State *co = lua_tothread(L, 1);
    luaL_argexpected(L, co, 1, lua_typename(L, LUA_TTHREAD));   /* as lcorolib.c: "thread expected" */
    return co;
}

static int co_resume(lua_State *L) {
    lua_State *co = getco(L);
    int r = auxresume(L, co, lua_gettop(L) - 1);
    if (r < 0) {
        lua_pushboolean(L, 0);
        lua_insert(L, -2);
        return 2;
    }
    lua_pushboolean(L, 1);
    lua_insert(L, -(r + 1));
    return r + 1;
}

static int auxwrap(lua_State *L) {
    lua_State *co = lua_tothread(L, lua_upvalueindex(1));
    int r = auxresume(L, co, lua_gettop(L));
    if (r < 0) {
        int stat = lua_status(co);
        if (stat != LUA_OK && stat != LUA_YIELD) {       /* an error in the coroutine */
            stat = reset_tracked(L, co);                 /* close its tbc variables */
            lua_xmove(co, L, 1);
        }
        if (stat != LUA_ERRMEM && lua_type(L, -1) == LUA_TSTRING) {
            luaL_where(L, 1);
            lua_insert(L, -2);
            lua_concat(L, 2);
        }
        return lua_error(L);
    }
    return r;
}

static int co_wrap(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_State *co = lua_newthread(L);
    lua_pushvalue(L, 1);
    lua_xmove(L, co, 1);
    lua_pushcclosure(L, auxwrap, 1);
    return 1;
}

/// lcorolib.c's auxstatus, for close's checks.
enum { COS_RUN, COS_DEAD, COS_YIELD, COS_NORM };
static const char *const statname[] = {"running", "dead", "suspended", "normal"};

static int auxstatus(lua_State *L, lua_State *co) {
    if (L == co) return COS_RUN;
    switch (lua_status(co)) {
        case LUA_YIELD: return COS_YIELD;
        case LUA_OK: {
            lua_Debug ar;
            if (lua_getstack(co, 0, &ar)) return COS_NORM;
            if (lua_gettop(co) == 0) return COS_DEAD;
            return COS_YIELD;
        }
        default: return COS_DEAD;
    }
}

static int co_close(lua_State *L) {
    lua_State *co = getco(L);
    int status = auxstatus(L, co);
    switch (status) {
        case COS_DEAD: case COS_YIELD: {
            status = reset_tracked(L, co);
            if (status == LUA_OK) {
                lua_pushboolean(L, 1);
                return 1;
            }
            lua_pushboolean(L, 0);
            lua_xmove(co, L, 1);
            return 2;
        }
        default:
            return luaL_error(L, "cannot close a %s coroutine", statname[status]);
    }
}

void fh_track_coroutines(lua_State *L) {
    if (lua_getglobal(L, LUA_COLIBNAME) == LUA_TTABLE) {
        lua_pushcfunction(L, co_resume);
        lua_setfield(L, -2, "resume");
        lua_pushcfunction(L, co_wrap);
        lua_setfield(L, -2, "wrap");
        lua_pushcfunction(L, co_close);
        lua_setfield(L, -2, "close");
    }
    lua_pop(L, 1);
}

// Parts of this file follow Lua 5.4's lcorolib.c, whose licence asks for
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
