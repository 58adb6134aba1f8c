// Error values that are not text — a table a factory raised, say — kept
// while Swift carries the error, so that the script that catches it gets
// the value back instead of "(error object is a table value)":
//  - fh_keep_error_value stores one under a number Swift can carry (the
//    newest FH_KEPT_ERROR_VALUES per state; older ones are let go, and
//    one raised back into Lua is let go then);
//  - a Swift function that fails with a kept value raises it again as it
//    was (FH_RAISE_VALUE), or wrapped in an error object { message = …,
//    cause = value } whose tostring is the message (FH_RAISE_CAUSE).
#include "CLuaShim.h"
#include "control.h"

#define FH_KEPT_ERROR_VALUES 32

static char kept_values_key;   /* registry slot: { last = the newest id, [id] = value } */
static char error_object_key;  /* registry slot: the error objects' metatable */

int fh_is_error_object(lua_State *L, int idx) {
    if (!lua_getmetatable(L, idx)) return 0;
    lua_rawgetp(L, LUA_REGISTRYINDEX, &error_object_key);
    int same = lua_rawequal(L, -1, -2);
    lua_pop(L, 2);
    return same;
}

/* keep(value) -> id. An error object is kept as its cause: the cause is
   what the script raised, however many resolves it crossed. */
static int do_keep(lua_State *L) {
    if (fh_is_error_object(L, 1)) {
        lua_pushliteral(L, "cause");
        lua_rawget(L, 1);
        lua_replace(L, 1);
    }
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &kept_values_key) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_createtable(L, FH_KEPT_ERROR_VALUES, 1);
        lua_pushvalue(L, -1);
        lua_rawsetp(L, LUA_REGISTRYINDEX, &kept_values_key);
    }
    lua_pushliteral(L, "last");
    lua_rawget(L, 2);
    lua_Integer id = lua_tointeger(L, -1) + 1;
    lua_pop(L, 1);
    lua_pushliteral(L, "last");
    lua_pushinteger(L, id);
    lua_rawset(L, 2);
    lua_pushvalue(L, 1);
    lua_rawseti(L, 2, id);
    if (id > FH_KEPT_ERROR_VALUES) {
        lua_pushnil(L);
        lua_rawseti(L, 2, id - FH_KEPT_ERROR_VALUES);
    }
    lua_pushinteger(L, id);
    return 1;
}

lua_Integer fh_keep_error_value(lua_State *L) {
    lua_pushcfunction(L, do_keep);
    lua_insert(L, -2);
    if (lua_pcall(L, 1, 1, 0) != LUA_OK) {    /* out of memory, or a stop's hook: not kept */
        lua_pop(L, 1);
        return 0;
    }
    lua_Integer id = lua_tointeger(L, -1);
    lua_pop(L, 1);
    return id;
}

int fh_push_kept_error_value(lua_State *L, lua_Integer id) {
    if (id <= 0 || lua_rawgetp(L, LUA_REGISTRYINDEX, &kept_values_key) != LUA_TTABLE) {
        if (id > 0) lua_pop(L, 1);
        lua_pushnil(L);
        return LUA_TNIL;
    }
    int type = lua_rawgeti(L, -1, id);
    lua_remove(L, -2);
    return type;
}

/// An error object's tostring: its message.
static int error_object_tostring(lua_State *L) {
    lua_pushliteral(L, "message");
    if (lua_rawget(L, 1) != LUA_TSTRING) lua_pushliteral(L, "(an error object without a message)");
    return 1;
}

/// Pushes the error objects' metatable, made at first use; hidden from
/// scripts (getmetatable gives false), so an error object cannot be forged
/// or changed into something else.
static void push_error_object_metatable(lua_State *L) {
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &error_object_key) == LUA_TTABLE) return;
    lua_pop(L, 1);
    lua_createtable(L, 0, 2);
    lua_pushcfunction(L, error_object_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &error_object_key);
}

void fh_push_raised_value(lua_State *L, int wrap) {
    int message = lua_gettop(L), id = message - 1;
    if (fh_push_kept_error_value(L, lua_tointeger(L, id)) == LUA_TNIL) {   /* let go: the message, then */
        lua_pop(L, 1);
        lua_remove(L, id);
        return;
    }
    int value = lua_gettop(L);
    /* Raised, the value lives on in the error (and whatever catches it): the
       state lets it go, so errors caught and dropped in a loop keep nothing. */
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &kept_values_key) == LUA_TTABLE) {
        lua_pushnil(L);
        lua_rawseti(L, -2, lua_tointeger(L, id));
    }
    lua_pop(L, 1);
    if (wrap) {
        lua_createtable(L, 0, 2);
        lua_pushvalue(L, message);
        lua_setfield(L, -2, "message");
        lua_pushvalue(L, value);
        lua_setfield(L, -2, "cause");
        push_error_object_metatable(L);
        lua_setmetatable(L, -2);
        lua_replace(L, id);
    } else {
        lua_pushvalue(L, value);
        lua_replace(L, id);
    }
    lua_settop(L, id);
}
