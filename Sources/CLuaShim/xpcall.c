// xpcall, as Lua 5.4's lbaselib.c has it, plus one thing: a message handler
// written in Lua never runs once the call is being stopped (a limit, a stop,
// Ctrl-C). The stop is raised from the hook, and Lua runs the message
// handler right there, inside the hook, where no hook fires: a handler that
// loops would then run forever, and Ctrl-C or the time limit could not end
// it. So a Lua handler is called through a small C guard that hands the
// error back untouched while a stop is on. (A C handler such as
// debug.traceback is passed as it is: it cannot loop in Lua, and its
// traceback keeps lua5.4's frames.)
#include "control.h"

#include <lauxlib.h>

/// The message handler around a Lua one: the error as it is while stopping,
/// else the handler's result.
static int guarded_handler(lua_State *L) {
    if (atomic_load(&fh_control_of(L)->exhausted) != FH_LIMIT_NONE) return 1;
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

static int finish_xpcall(lua_State *L, int status, lua_KContext extra) {
    if (status != LUA_OK && status != LUA_YIELD) {
        lua_pushboolean(L, 0);
        lua_pushvalue(L, -2);
        return 2;
    }
    return lua_gettop(L) - (int)extra;
}

static int guarded_xpcall(lua_State *L) {
    int n = lua_gettop(L);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    if (!lua_iscfunction(L, 2)) {
        lua_pushvalue(L, 2);
        lua_pushcclosure(L, guarded_handler, 1);
        lua_replace(L, 2);
    }
    lua_pushboolean(L, 1);
    lua_pushvalue(L, 1);
    lua_rotate(L, 3, 2);
    int status = lua_pcallk(L, n - 2, LUA_MULTRET, 2, 2, finish_xpcall);
    return finish_xpcall(L, status, 2);
}

void fh_guard_xpcall(lua_State *L) {
    if (lua_getglobal(L, "xpcall") == LUA_TFUNCTION) {
        lua_pushcfunction(L, guarded_xpcall);
        lua_setglobal(L, "xpcall");
    }
    lua_pop(L, 1);
}

// MARK: - Tracebacks without the guard

// luaL_traceback (Lua 5.4's lauxlib.c), skipping the guard's frames, so that
// a traceback made in a message handler shows what lua5.4's would: the guard
// is invisible, in the frames listed and in the level counted.

#include <string.h>

#define LEVELS1 10
#define LEVELS2 11

static int is_guard(lua_State *L1, lua_Debug *ar) {
    lua_getinfo(L1, "f", ar);
    int guard = lua_tocfunction(L1, -1) == guarded_handler;
    lua_pop(L1, 1);
    return guard;
}

static int findfield(lua_State *L, int objidx, int level) {
    if (level == 0 || !lua_istable(L, -1)) return 0;
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        if (lua_type(L, -2) == LUA_TSTRING) {
            if (lua_rawequal(L, objidx, -1)) {
                lua_pop(L, 1);
                return 1;
            } else if (findfield(L, objidx, level - 1)) {
                lua_pushliteral(L, ".");
                lua_replace(L, -3);
                lua_concat(L, 3);
                return 1;
            }
        }
        lua_pop(L, 1);
    }
    return 0;
}

static int pushglobalfuncname(lua_State *L, lua_State *L1, lua_Debug *ar) {
    int top = lua_gettop(L);
    lua_getinfo(L1, "f", ar);
    lua_xmove(L1, L, 1);
    lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    luaL_checkstack(L, 6, "not enough stack");
    if (findfield(L, top + 1, 2)) {
        const char *name = lua_tostring(L, -1);
        if (strncmp(name, LUA_GNAME ".", 3) == 0) {
            lua_pushstring(L, name + 3);
            lua_remove(L, -2);
        }
        lua_copy(L, -1, top + 1);
        lua_settop(L, top + 1);
        return 1;
    }
    lua_settop(L, top);
    return 0;
}

static void pushfuncname(lua_State *L, lua_State *L1, lua_Debug *ar) {
    if (pushglobalfuncname(L, L1, ar)) {
        lua_pushfstring(L, "function '%s'", lua_tostring(L, -1));
        lua_remove(L, -2);
    } else if (*ar->namewhat != '\0') {
        lua_pushfstring(L, "%s '%s'", ar->namewhat, ar->name);
    } else if (*ar->what == 'm') {
        lua_pushliteral(L, "main chunk");
    } else if (*ar->what != 'C') {
        lua_pushfstring(L, "function <%s:%d>", ar->short_src, ar->linedefined);
    } else {
        lua_pushliteral(L, "?");
    }
}

static int lastlevel(lua_State *L1) {
    lua_Debug ar;
    int li = 1, le = 1;
    while (lua_getstack(L1, le, &ar)) { li = le; le *= 2; }
    while (li < le) {
        int m = (li + le) / 2;
        if (lua_getstack(L1, m, &ar)) li = m + 1; else le = m;
    }
    return le - 1;
}

void fh_traceback(lua_State *L, lua_State *L1, const char *msg, int level) {
    lua_Debug ar;
    /* The physical level where logical `level` starts (guards are not counted). */
    int physical = 0, logical = 0;
    while (lua_getstack(L1, physical, &ar)) {
        if (!is_guard(L1, &ar)) {
            if (logical == level) break;
            logical++;
        }
        physical++;
    }
    level = physical;
    int last = lastlevel(L1);
    int limit2show = (last - level > LEVELS1 + LEVELS2) ? LEVELS1 : -1;
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    if (msg) {
        luaL_addstring(&b, msg);
        luaL_addchar(&b, '\n');
    }
    luaL_addstring(&b, "stack traceback:");
    while (lua_getstack(L1, level++, &ar)) {
        if (is_guard(L1, &ar)) continue;
        if (limit2show-- == 0) {
            int n = last - level - LEVELS2 + 1;
            lua_pushfstring(L, "\n\t...\t(skipping %d levels)", n);
            luaL_addvalue(&b);
            level += n;
        } else {
            lua_getinfo(L1, "Slnt", &ar);
            /* A handler the guard called: lua5.4 calls it in the guard's
               place, so it is named as the guard is. */
            lua_Debug caller;
            if (lua_getstack(L1, level, &caller) && is_guard(L1, &caller)) {
                lua_getinfo(L1, "n", &caller);
                ar.namewhat = caller.namewhat;
                ar.name = caller.name;
            }
            if (ar.currentline <= 0) lua_pushfstring(L, "\n\t%s: in ", ar.short_src);
            else lua_pushfstring(L, "\n\t%s:%d: in ", ar.short_src, ar.currentline);
            luaL_addvalue(&b);
            pushfuncname(L, L1, &ar);
            luaL_addvalue(&b);
            if (ar.istailcall) luaL_addstring(&b, "\n\t(...tail calls...)");
        }
    }
    luaL_pushresult(&b);
}

/// debug.traceback, as ldblib.c's, through fh_traceback.
static int traceback(lua_State *L) {
    int arg = 0;
    lua_State *L1 = L;
    if (lua_isthread(L, 1)) { arg = 1; L1 = lua_tothread(L, 1); }
    const char *msg = lua_tostring(L, arg + 1);
    if (msg == NULL && !lua_isnoneornil(L, arg + 1)) {
        lua_pushvalue(L, arg + 1);
    } else {
        int level = (int)luaL_optinteger(L, arg + 2, (L == L1) ? 1 : 0);
        fh_traceback(L, L1, msg, level);
    }
    return 1;
}

void fh_guard_traceback(lua_State *L) {
    if (lua_getglobal(L, "debug") == LUA_TTABLE) {
        lua_pushcfunction(L, traceback);
        lua_setfield(L, -2, "traceback");
    }
    lua_pop(L, 1);
}

// Parts of this file follow Lua 5.4's lbaselib.c and lauxlib.c, whose licence asks for
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
