// Closing a Lua value its scope or container let go (see LuaState.close(_:)).
#include "CLuaShim.h"

/// close(value) -> closed: calls the value's __close metamethod as a
/// to-be-closed variable going out of scope would (with nil: no error),
/// reading the real metatable even when __metatable hides it; failing
/// that, for a table, value:close() when `close` is a function. Returns
/// whether it found either.
int fh_close_value(lua_State *L) {
    lua_settop(L, 1);
    if (luaL_getmetafield(L, 1, "__close") != LUA_TNIL) {
        lua_pushvalue(L, 1);
        lua_pushnil(L);
        lua_call(L, 2, 0);
        lua_pushboolean(L, 1);
        return 1;
    }
    if (lua_type(L, 1) == LUA_TTABLE && lua_getfield(L, 1, "close") == LUA_TFUNCTION) {
        lua_pushvalue(L, 1);
        lua_call(L, 1, 0);
        lua_pushboolean(L, 1);
        return 1;
    }
    lua_pushboolean(L, 0);
    return 1;
}
