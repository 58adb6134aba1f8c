// The system's Lua 5.4 headers (include path from pkg-config `lua5.4`).
#include <lua.h>
#include <lualib.h>
#include <lauxlib.h>
