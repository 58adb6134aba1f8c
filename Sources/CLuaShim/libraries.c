// The standard libraries a state opens: all, or the sandbox's subset, with
// the guards every state gets (os.exit, debug's upvalue functions, pcall
// and xpcall recognised).
#include "CLuaShim.h"
#include "control.h"

#include <errno.h>
#include <limits.h>
#include <sys/stat.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

static char fh_module_path_key;/* registry slot: the sandbox's module path */

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

/// Whether `file` (a resolved path) is inside one of the folders of the
/// module path `path` (`dir/?.lua;dir/?/init.lua`: the part of each entry
/// before its `?`, resolved; none is the current folder).
static int within_module_path(const char *file, const char *path) {
    if (path == NULL) return 0;
    while (*path) {
        const char *end = strchr(path, ';');
        size_t length = end ? (size_t)(end - path) : strlen(path);
        const char *mark = memchr(path, '?', length);
        if (mark != NULL) {
            char folder[PATH_MAX], root[PATH_MAX];
            size_t prefix = (size_t)(mark - path);
            if (prefix < sizeof folder) {
                memcpy(folder, path, prefix);
                folder[prefix] = 0;
                if (prefix == 0) strcpy(folder, ".");
                if (realpath(folder, root) != NULL) {
                    size_t n = strlen(root);
                    if (n == 1 && root[0] == '/') n = 0;      /* the root folder: every file is in it */
                    if (strncmp(file, root, n) == 0 && file[n] == '/') return 1;
                }
            }
        }
        if (end == NULL) break;
        path = end + 1;
    }
    return 0;
}

/// package.searchers' Lua searcher for untrusted code: text files only, on
/// the module path the host set (fh_set_module_path), which the script
/// cannot change. Files are found with stat, as package.searchpath finds
/// them by opening them (which blocks on a FIFO).
static int sandbox_searcher(lua_State *L) {
    const char *name = luaL_checkstring(L, 1);
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &fh_module_path_key) != LUA_TSTRING) {
        lua_pushfstring(L, "no module path is set for untrusted code (module '%s')", name);
        return 1;
    }
    const char *path = lua_tostring(L, -1);
    /* As package.searchpath, but asking stat, not opening: opening a FIFO to
       see whether it is there blocked for ever. */
    const char *dirname = luaL_gsub(L, name, ".", LUA_DIRSEP);
    const char *filename = NULL;
    luaL_Buffer missing;
    luaL_buffinit(L, &missing);
    int tried = 0;
    for (const char *entry = path; *entry && filename == NULL; ) {
        const char *end = strchr(entry, ';');
        size_t length = end ? (size_t)(end - entry) : strlen(entry);
        lua_pushlstring(L, entry, length);
        const char *candidate = luaL_gsub(L, lua_tostring(L, -1), "?", dirname);
        struct stat info;
        if (stat(candidate, &info) == 0) {
            filename = candidate;                              /* kept on the stack */
        } else {
            lua_pushfstring(L, "%sno file '%s'", tried++ ? "\n\t" : "", candidate);
            lua_remove(L, -2);                                 /* the candidate */
            lua_remove(L, -2);                                 /* the entry */
            luaL_addvalue(&missing);
        }
        entry = end ? end + 1 : entry + length;
    }
    if (filename == NULL) {
        luaL_pushresult(&missing);
        return 1;                                              /* the "no file ..." message */
    }
    /* The file, links followed, must be inside a folder of the module path:
       a link in the script's folder (`conf.lua -> ../secrets.lua`, a linked
       folder) led require out of it. What is loaded is the resolved file. */
    char resolved[PATH_MAX];
    int inside = realpath(filename, resolved) != NULL && within_module_path(resolved, path);
    if (!inside)
        return luaL_error(L, "error loading module '%s' from file '%s': it is outside the script's folder "
                          "(a link leads out of it), and untrusted code reads only files inside it", name, filename);
    /* A FIFO blocked the load for ever (a device read without end): only files. */
    struct stat info;
    if (stat(resolved, &info) != 0 || !S_ISREG(info.st_mode))
        return luaL_error(L, "error loading module '%s' from file '%s': not a regular file, and untrusted code "
                          "reads only files", name, filename);
    if (luaL_loadfilex(L, resolved, "t") != LUA_OK)
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
    lua_pushcfunction(L, sandbox_searcher);
    lua_rawseti(L, -2, 2);
    lua_setfield(L, pkg, "searchers");
    remove_field(L, pkg, "searchpath");             /* it opens any path: a probe of the file system */
    lua_pushliteral(L, "");                         /* no modules until the host says where */
    lua_rawsetp(L, LUA_REGISTRYINDEX, &fh_module_path_key);
    lua_pop(L, 2);                                  /* package, globals */
}

/// debug.setupvalue, refusing Swift functions: their upvalues are the box
/// (and a memoizing method's memo) the trampoline trusts without looking
/// (see fh_trampoline, fh_memo_trampoline). Upvalue 1 is the stock function.
static int guarded_setupvalue(lua_State *L) {
    lua_CFunction f = lua_tocfunction(L, 1);
    if (f == fh_trampoline || f == fh_memo_trampoline)
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
    if (f == fh_trampoline || f == fh_memo_trampoline) return 0;
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
        fh_guard_os_exit(L);
        fh_group_child_processes(L);
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
    return fh_protected_call(L, do_openlibs, 1, 0);
}

// MARK: - os.exit as a state closes

/// os.exit(code) while a test worker's state closes: says so on standard
/// output and ends the process with the status in upvalue 1. Plain C: Swift
/// functions cannot be called once the state is closing.
static int exit_while_closing(lua_State *L) {
    const char *code = lua_isnoneornil(L, 1) ? "" : luaL_tolstring(L, 1, NULL);
    char shown[64];
    size_t length = strlen(code);
    if (length > 40) length = 40;
    for (size_t i = 0; i < length; i++) shown[i] = (code[i] >= 32 && code[i] < 127) ? code[i] : '?';
    shown[length] = 0;
    printf("called os.exit(%s) in a finalizer as the file's Lua state closed\n", shown);
    fflush(NULL);
    _exit((int)lua_tointeger(L, lua_upvalueindex(1)));
    return 0;
}

static int set_exit_while_closing(lua_State *L) {
    lua_Integer status = lua_tointeger(L, 1);
    lua_getglobal(L, "os");
    if (!lua_istable(L, -1)) return 0;
    lua_pushinteger(L, status);
    lua_pushcclosure(L, exit_while_closing, 1);
    lua_setfield(L, -2, "exit");
    return 0;
}

int fh_exit_on_os_exit(lua_State *L, int status) {
    lua_pushinteger(L, status);
    return fh_protected_call(L, set_exit_while_closing, 1, 0);
}
