// Swift objects and functions in Lua: full userdata holding a retained
// reference (released in __gc once), closures calling Swift through the
// trampoline, exported types' metatables, and memoizing methods.
#include "CLuaShim.h"
#include "control.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

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
const void *fh_bridge_tag(lua_State *L, int idx) {
    if (lua_type(L, idx) != LUA_TUSERDATA || lua_rawlen(L, idx) != sizeof(fh_object)) return NULL;
    const void *tag = ((const fh_object *)lua_touserdata(L, idx))->tag;
    return tag == &fh_object_tag || tag == &fh_function_tag ? tag : NULL;
}

char fh_metatables_key; /* registry slot: private table of the bridge's metatables, by name */
static char fh_sentinel_key;   /* field that marks a metatable as the bridge's */
const char *const fh_closure_mt = "factoryhost.SwiftFunction";

// MARK: - Swift objects and closures

/// Whether the value at `idx` is a full userdata of one of the bridge's
/// layouts (an object or a function) whose metatable carries the sentinel.
static int is_bridge_userdata(lua_State *L, int idx) {
    if (fh_bridge_tag(L, idx) == NULL) return 0;
    if (!lua_getmetatable(L, idx)) return 0;
    int ours = lua_rawgetp(L, -1, &fh_sentinel_key) == LUA_TBOOLEAN;
    lua_pop(L, 2);
    return ours;
}

/// __gc of both layouts (each starts with the retained reference).
static int fh_object_gc(lua_State *L) {
    if (!is_bridge_userdata(L, 1)) return 0;          /* called by hand on something else */
    void **slot = (void **)lua_touserdata(L, 1);
    if (fh_bridge_tag(L, 1) == &fh_object_tag) {
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
        fh_object *o = fh_object_at(L, -1);
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
fh_object *fh_object_at(lua_State *L, int idx) {
    if (lua_rawlen(L, idx) != sizeof(fh_object)) return NULL;
    fh_object *o = (fh_object *)lua_touserdata(L, idx);
    return o != NULL && o->tag == &fh_object_tag ? o : NULL;
}

void *fh_to_object_of_type(lua_State *L, int idx, const void *type) {
    fh_object *o = fh_object_at(L, idx);
    return o != NULL && o->type == type ? o->object : NULL;
}

void *fh_object_inside(lua_State *L, int idx) {
    fh_object *o = fh_object_at(L, idx);
    return o != NULL ? o->object : NULL;
}

void *fh_to_object(lua_State *L, int idx, const char *name) {
    idx = lua_absindex(L, idx);
    if (!is_bridge_userdata(L, idx) || fh_object_at(L, idx) == NULL || !lua_getmetatable(L, idx))
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

int fh_trampoline(lua_State *L) { return call_swift(L, lua_gettop(L)); }

/* The body of a trampoline: calls the Swift function in upvalue 1 with the
   `nargs` arguments on the stack; returns how many results it pushed. */
static int call_swift(lua_State *L, int nargs) {
    fh_function *f = (fh_function *)lua_touserdata(L, lua_upvalueindex(1));
    if (f->box == NULL)
        return luaL_error(L, "attempt to call a Swift function that was already released");
    void *receiver = NULL;
    fh_object *pinned = NULL;
    if (f->receiver_type != NULL) {
        fh_object *o = fh_object_at(L, 1);
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
    if (fh_bridge_tag(L, up) != &fh_function_tag) return NULL;
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

/* Whether a __gc finalizer or a debug hook is on the stack (see CLuaShim.h). */
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
int fh_memo_trampoline(lua_State *L) {
    int memoizable = lua_gettop(L) == 2 && lua_type(L, 2) == LUA_TSTRING;
    if (memoizable && !control(L)->memo_off) {
        /* Only for a live receiver (a finalizer may run with its object
           already released), and never a remembered object since released:
           Swift says what is wrong with those. */
        fh_object *receiver = fh_object_at(L, 1);
        if (receiver != NULL && receiver->object != NULL) {
            lua_pushvalue(L, 1);
            if (lua_rawget(L, lua_upvalueindex(2)) == LUA_TTABLE) {
                lua_pushvalue(L, 2);
                if (lua_rawget(L, -2) != LUA_TNIL) {
                    fh_object *answer = fh_object_at(L, -1);
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
char fh_memo_tables_key;

static int wrap_memoizing(lua_State *L) {
    if (lua_tocfunction(L, 1) != fh_trampoline || lua_getupvalue(L, 1, 1) == NULL)
        return luaL_error(L, "only a Swift function can memoize");
    lua_createtable(L, 0, 1);                        /* the memo */
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &fh_memo_tables_key) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_rawsetp(L, LUA_REGISTRYINDEX, &fh_memo_tables_key);
    }
    lua_pushvalue(L, -2);
    lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
    lua_pop(L, 1);
    lua_pushcclosure(L, fh_memo_trampoline, 2);
    return 1;
}

/* Replaces the function on top of the stack by its memoizing wrapper,
   protected (it allocates): LUA_OK, or an error message in its place. */
int fh_wrap_memoizing(lua_State *L) { return fh_protected_call(L, wrap_memoizing, 1, 1); }
