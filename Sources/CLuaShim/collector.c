// Garbage collection, table walks and standard output, each as Swift
// needs it (protected where Lua may raise).
#include "CLuaShim.h"
#include "control.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

// MARK: - Lua's macros, as functions

unsigned long long fh_new_serial(void) {
    static _Atomic unsigned long long next = 1;
    return atomic_fetch_add(&next, 1);
}
/* A full collection, then a step: in generational mode the finalizers of
   what the collection found dead run only at the next step. */
static int do_collect(lua_State *L) { lua_gc(L, LUA_GCCOLLECT); lua_gc(L, LUA_GCSTEP, 0); return 0; }
int fh_collect(lua_State *L) { return fh_protected_call(L, do_collect, 0, 0); }   /* __gc code runs under the limits */
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
int fh_mark_young(lua_State *L) { return fh_protected_call(L, do_mark_young, 0, 0); }

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
int fh_collect_since_mark(lua_State *L) { return fh_protected_call(L, do_collect_since_mark, 0, 0); }
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
