// The dry run's replacements (see CDryRun.h). Every function made here keeps
// the host's `stop` as upvalue 1; what it replaces is kept as an upvalue
// too, out of the script's reach.
#include "CDryRun.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <lauxlib.h>

/// The chunk name of what the dry run loads itself (the spec stubs): its
/// frames are never the place a stop is reported at.
#define CHECK_CHUNK "=[factoryhost check]"
/// How deep a plugin module's tables are copied (a module is a few levels).
#define MAX_MODULE_DEPTH 64

#define STOP lua_upvalueindex(1)

// MARK: - Stopping

/// Pushes "file:line: " of the nearest Lua caller outside the dry run's own
/// chunks (level 0 is the C function running), or "".
static void push_where(lua_State *L) {
    lua_Debug ar;
    for (int level = 1; lua_getstack(L, level, &ar); level++) {
        if (!lua_getinfo(L, "Sl", &ar)) break;
        if (ar.currentline > 0 && strcmp(ar.source, CHECK_CHUNK) != 0) {
            lua_pushfstring(L, "%s:%d: ", ar.short_src, ar.currentline);
            return;
        }
    }
    lua_pushliteral(L, "");
}

/// Calls stop(where, reason) with the reason on top of the stack. `stop`
/// raises; should it return, so does the caller, with nothing.
static int stop_with_reason(lua_State *L) {
    int reason = lua_gettop(L);
    lua_pushvalue(L, STOP);
    push_where(L);
    lua_pushvalue(L, reason);
    lua_call(L, 2, 0);
    return 0;
}

/// A refused function: stops with its reason (upvalue 2), whatever the arguments.
static int refused(lua_State *L) {
    lua_pushvalue(L, lua_upvalueindex(2));
    return stop_with_reason(L);
}

/// Pushes a refused function whose reason is the string on top (popped);
/// `stop` is at `stop`.
static void push_refusal(lua_State *L, int stop) {
    lua_pushvalue(L, stop);
    lua_insert(L, -2);
    lua_pushcclosure(L, refused, 2);
}

/// table[field] = a function refusing with "name what".
static void refuse(lua_State *L, int stop, int table, const char *field, const char *name, const char *what) {
    lua_pushfstring(L, "%s %s", name, what);
    push_refusal(L, stop);
    lua_setfield(L, table, field);
}

/// How much of a string a stop's message quotes.
#define QUOTED_MAX 200

/// Adds the string at `idx` quoted as string.format's %q quotes it (the
/// first QUOTED_MAX bytes of a longer one, then "...").
static void add_quoted(luaL_Buffer *b, lua_State *L, int idx) {
    size_t length;
    const char *s = lua_tolstring(L, idx, &length);
    size_t shown = length > QUOTED_MAX ? QUOTED_MAX : length;
    luaL_addchar(b, '"');
    for (size_t i = 0; i < shown; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\' || c == '\n') {
            luaL_addchar(b, '\\');
            luaL_addchar(b, (char)c);
        } else if (iscntrl(c)) {
            char escape[8];
            int next_is_digit = i + 1 < length && isdigit((unsigned char)s[i + 1]);
            snprintf(escape, sizeof escape, next_is_digit ? "\\%03d" : "\\%d", (int)c);
            luaL_addstring(b, escape);
        } else {
            luaL_addchar(b, (char)c);
        }
    }
    if (shown < length) luaL_addstring(b, "...");
    luaL_addchar(b, '"');
}

/// Pushes the value at `idx` as text without running any of the script's
/// code (no __tostring, no __name: a stop must not be catchable through a
/// metamethod that raises): strings and numbers as they are, other values
/// by type and address.
static void push_plain_text(lua_State *L, int idx) {
    switch (lua_type(L, idx)) {
    case LUA_TSTRING: lua_pushvalue(L, idx); break;
    case LUA_TNUMBER: lua_pushvalue(L, idx); lua_tolstring(L, -1, NULL); break;   /* converts the copy */
    case LUA_TBOOLEAN: lua_pushstring(L, lua_toboolean(L, idx) ? "true" : "false"); break;
    case LUA_TNIL: case LUA_TNONE: lua_pushliteral(L, "nil"); break;
    default: lua_pushfstring(L, "%s: %p", luaL_typename(L, idx), lua_topointer(L, idx)); break;
    }
}

/// Calls the original function (upvalue `original`) with every argument
/// and returns what it returns. Called from C, its own argument errors
/// would name no function and no place ("bad argument #1 to '?'"): they
/// are raised again as the script's call would have raised them, with
/// `name` and the caller's "file:line: ". Any other error goes on as it is.
static void call_named(lua_State *L, int nargs, int nresults, const char *name);

static int call_original(lua_State *L, int original, const char *name) {
    lua_pushvalue(L, lua_upvalueindex(original));
    lua_insert(L, 1);
    call_named(L, lua_gettop(L) - 1, LUA_MULTRET, name);
    return lua_gettop(L);
}

/// lua_call of the function under `nargs` arguments, its argument errors
/// raised again naming `name` at the caller's place (see call_original).
static void call_named(lua_State *L, int nargs, int nresults, const char *name) {
    if (lua_pcall(L, nargs, nresults, 0) == LUA_OK) return;
    size_t length;
    const char *message = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &length) : NULL;
    const char *unnamed = message != NULL && strncmp(message, "bad argument #", 14) == 0 ? strstr(message, " to '?' (") : NULL;
    if (unnamed != NULL) {
        luaL_where(L, 1);
        lua_pushlstring(L, message, (size_t)(unnamed - message));
        lua_pushfstring(L, " to '%s' (", name);
        lua_pushstring(L, unnamed + strlen(" to '?' ("));
        lua_concat(L, 4);
    }
    lua_error(L);
}

/// Replaces table[field] with `f` over the original (its upvalue 2), if there is one.
static void wrap_field(lua_State *L, int stop, int table, const char *field, lua_CFunction f) {
    if (lua_getfield(L, table, field) == LUA_TNIL) {
        lua_pop(L, 1);
        return;
    }
    lua_pushvalue(L, stop);
    lua_insert(L, -2);
    lua_pushcclosure(L, f, 2);
    lua_setfield(L, table, field);
}

// MARK: - Loading text only (bytecode is not checked: it can do what source cannot)

/// load(chunk, name, mode, env): mode is always "t". Upvalue 2: load.
static int text_load(lua_State *L) {
    if (lua_gettop(L) < 3) lua_settop(L, 3);
    lua_pushliteral(L, "t");
    lua_replace(L, 3);
    return call_original(L, 2, "load");
}

/// loadfile(file, mode, env): mode is always "t". Upvalue 2: loadfile.
static int text_loadfile(lua_State *L) {
    if (lua_gettop(L) < 2) lua_settop(L, 2);
    lua_pushliteral(L, "t");
    lua_replace(L, 2);
    return call_original(L, 2, "loadfile");
}

/// dofile(file): loadfile(file, "t"), then the chunk. Upvalue 2: loadfile.
static int text_dofile(lua_State *L) {
    lua_settop(L, 1);
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_pushvalue(L, 1);
    lua_pushliteral(L, "t");
    call_named(L, 2, 2, "dofile");
    if (lua_isnil(L, -2)) {                          /* error(message, 2) */
        luaL_where(L, 1);
        lua_pushvalue(L, -2);
        lua_concat(L, 2);
        return lua_error(L);
    }
    lua_pop(L, 1);
    lua_call(L, 0, LUA_MULTRET);
    return lua_gettop(L) - 1;
}

// MARK: - Reading stacks, not reaching functions

/// debug.getinfo without "f": the dry run's debug library reads stacks but
/// never hands out the functions running there — one level up from a
/// `load` reader or a metamethod of `package` is the stock function this
/// file replaced, which would load bytecode or native code. Upvalue 1:
/// the stock debug.getinfo.
static int restricted_getinfo(lua_State *L) {
    int what = lua_type(L, 1) == LUA_TTHREAD ? 3 : 2;
    if (lua_gettop(L) < what) lua_settop(L, what);
    /* A level on this thread counts this function too: one more than the
       script meant (a level on another coroutine's stack does not). */
    int level = what - 1, isnum = 0;
    lua_Integer n = lua_type(L, level) == LUA_TFUNCTION ? 0 : lua_tointegerx(L, level, &isnum);   /* 1, 1.0 and "1" alike */
    if (isnum && (what == 2 || lua_tothread(L, 1) == L) && n >= 0 && n < LUA_MAXINTEGER) {
        lua_pushinteger(L, n + 1);
        lua_replace(L, level);
    }
    if (lua_isnil(L, what)) {
        lua_pushliteral(L, "lnSrtu");                /* the stock default, less "f" */
        lua_replace(L, what);
    } else if (lua_type(L, what) == LUA_TSTRING) {
        size_t length;
        const char *options = lua_tolstring(L, what, &length);
        luaL_Buffer b;
        luaL_buffinit(L, &b);
        for (size_t i = 0; i < length; i++)
            if (options[i] != 'f') luaL_addchar(&b, options[i]);
        luaL_pushresult(&b);
        lua_replace(L, what);
    }
    return call_original(L, 1, "getinfo");
}

// MARK: - io and os

/// Whether the string at `idx` holds any of `chars`.
static int has_any(lua_State *L, int idx, const char *chars) {
    size_t length;
    const char *s = lua_tolstring(L, idx, &length);
    for (size_t i = 0; i < length && s[i] != 0; i++)   /* io.open reads the mode as a C string */
        if (strchr(chars, s[i]) != NULL) return 1;
    return 0;
}

/// Stops with "call(first, second) would write a file", the arguments at
/// `first` and `second` (0: none) quoted.
static int stop_writing(lua_State *L, const char *call, int first, int second) {
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    luaL_addstring(&b, call);
    luaL_addchar(&b, '(');
    add_quoted(&b, L, first);
    if (second != 0) {
        luaL_addstring(&b, ", ");
        add_quoted(&b, L, second);
    }
    luaL_addstring(&b, ") would write a file");
    luaL_pushresult(&b);
    return stop_with_reason(L);
}

/// io.open(file, mode, ...): stops for a mode that writes. Upvalue 2: io.open.
static int guarded_open(lua_State *L) {
    if (lua_type(L, 2) == LUA_TSTRING && has_any(L, 2, "wa+")) {
        push_plain_text(L, 1);
        return stop_writing(L, "io.open", lua_gettop(L), 2);
    }
    return call_original(L, 2, "open");
}

/// io.output(file, ...): stops for anything but nothing or an open file —
/// a name (or a number, which io.output takes as one) would be opened for
/// writing. Upvalue 2: io.output.
static int guarded_output(lua_State *L) {
    if (!lua_isnoneornil(L, 1) && luaL_testudata(L, 1, LUA_FILEHANDLE) == NULL) {
        push_plain_text(L, 1);
        return stop_writing(L, "io.output", lua_gettop(L), 0);
    }
    return call_original(L, 2, "output");
}

/// os.exit(code): stops, saying so.
static int guarded_exit(lua_State *L) {
    lua_settop(L, 1);
    lua_pushliteral(L, "the script called os.exit(");
    if (lua_isnil(L, 1)) lua_pushliteral(L, "");
    else push_plain_text(L, 1);
    lua_pushliteral(L, ")");
    lua_concat(L, 3);
    return stop_with_reason(L);
}

// MARK: - Standard error, bounded and escaped

/// What the script writes to standard error in a dry run reaches the
/// report's reader: at most this much, with nothing a terminal acts on
/// (10 MB went through whole, and an escape sequence set the window title).
#define DRY_STDERR_LIMIT (64 * 1024)
static size_t dry_stderr_written = 0;    /* one dry run per process */
static int dry_stderr_noted = 0;

/// Writes `s` to standard error with control characters shown as `\xNN`
/// (C0 but newline and tab, DEL, and C1 in UTF-8), within the limit.
static void dry_stderr_write(const char *s, size_t n) {
    char buffer[1024];
    size_t k = 0;
    for (size_t i = 0; i < n && dry_stderr_written < DRY_STDERR_LIMIT; i++) {
        unsigned char c = (unsigned char)s[i];
        int c1 = c == 0xC2 && i + 1 < n && (unsigned char)s[i + 1] >= 0x80 && (unsigned char)s[i + 1] <= 0x9F;
        if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F || c1) {
            unsigned int shown = c1 ? (unsigned char)s[++i] : c;
            if (k + 8 > sizeof buffer) { fwrite(buffer, 1, k, stderr); k = 0; }
            k += (size_t)snprintf(buffer + k, 8, c1 ? "\\u%04X" : "\\x%02X", shown);
            dry_stderr_written += 4;
        } else {
            if (k == sizeof buffer) { fwrite(buffer, 1, k, stderr); k = 0; }
            buffer[k++] = (char)c;
            dry_stderr_written++;
        }
    }
    if (k > 0) fwrite(buffer, 1, k, stderr);
    if (dry_stderr_written >= DRY_STDERR_LIMIT && !dry_stderr_noted) {
        dry_stderr_noted = 1;
        fputs("\n[check and graph show at most 64 KB of what the script writes to standard error]\n", stderr);
    }
    fflush(stderr);
}

/// Writes arguments `first`… (strings or numbers, as file:write takes them) through dry_stderr_write.
static void dry_stderr_write_arguments(lua_State *L, int first) {
    int n = lua_gettop(L);
    for (int i = first; i <= n; i++) {
        size_t length = 0;
        const char *text = luaL_checklstring(L, i, &length);
        dry_stderr_write(text, length);
    }
}

/// Whether the value at `index` is the io library's file for standard error.
static int is_stderr_file(lua_State *L, int index) {
    luaL_Stream *p = (luaL_Stream *)luaL_testudata(L, index, LUA_FILEHANDLE);
    return p != NULL && p->closef != NULL && p->f == stderr;
}

/// file:write(…) — for standard error, bounded and escaped. Upvalue 2: the stock method.
static int dry_file_write(lua_State *L) {
    if (!is_stderr_file(L, 1)) {
        lua_pushvalue(L, lua_upvalueindex(2));
        lua_insert(L, 1);
        lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
        return lua_gettop(L);
    }
    dry_stderr_write_arguments(L, 2);
    lua_settop(L, 1);
    return 1;
}

/// io.write(…) — when the default output is standard error, bounded and escaped. Upvalue 2: io.write.
static int dry_io_write(lua_State *L) {
    lua_getfield(L, LUA_REGISTRYINDEX, "_IO_output");      /* io.output()'s file (liolib's IO_OUTPUT) */
    int to_stderr = is_stderr_file(L, -1);
    if (!to_stderr) {
        lua_pop(L, 1);
        lua_pushvalue(L, lua_upvalueindex(2));
        lua_insert(L, 1);
        lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
        return lua_gettop(L);
    }
    lua_insert(L, 1);                     /* the file, returned as io.write returns it */
    dry_stderr_write_arguments(L, 2);
    lua_settop(L, 1);
    return 1;
}

static void guard_stderr(lua_State *L, int stop, int io) {
    wrap_field(L, stop, io, "write", dry_io_write);
    if (luaL_getmetatable(L, LUA_FILEHANDLE) == LUA_TTABLE && lua_getfield(L, -1, "__index") == LUA_TTABLE) {
        wrap_field(L, stop, lua_gettop(L), "write", dry_file_write);
    }
    lua_settop(L, io);
}

static void guard_io(lua_State *L, int stop) {
    if (lua_getglobal(L, "io") != LUA_TTABLE) {
        lua_pop(L, 1);
        return;
    }
    int io = lua_gettop(L);
    guard_stderr(L, stop, io);
    wrap_field(L, stop, io, "open", guarded_open);
    wrap_field(L, stop, io, "output", guarded_output);
    if (lua_getfield(L, io, "popen") != LUA_TNIL) refuse(L, stop, io, "popen", "io.popen", "would start a process");
    lua_pop(L, 1);
    refuse(L, stop, io, "tmpfile", "io.tmpfile", "would create a file");
    lua_pop(L, 1);
}

static void guard_os(lua_State *L, int stop) {
    if (lua_getglobal(L, "os") != LUA_TTABLE) {
        lua_pop(L, 1);
        return;
    }
    int os = lua_gettop(L);
    refuse(L, stop, os, "remove", "os.remove", "would remove a file");
    refuse(L, stop, os, "rename", "os.rename", "would rename a file");
    refuse(L, stop, os, "tmpname", "os.tmpname", "would create a file");
    refuse(L, stop, os, "execute", "os.execute", "would start a process");
    lua_pushvalue(L, stop);
    lua_pushcclosure(L, guarded_exit, 1);
    lua_setfield(L, os, "exit");
    lua_pop(L, 1);
}

// MARK: - Native code

/// package.searchers[3] (`all_in_one` 0) or [4] (1): stops where the
/// stock searcher would find a C library on package.cpath, and otherwise
/// answers as it would ("no file …", or nothing for [4] and a name without
/// a dot) — without ever calling it: it would read package.cpath again,
/// and a script's __index on `package` could give it another path then.
/// Upvalues: 2 package.searchpath, 3 the package table, 4 all_in_one.
static int guarded_searcher(lua_State *L) {
    size_t length;
    const char *name = luaL_checklstring(L, 1, &length);
    int all_in_one = lua_toboolean(L, lua_upvalueindex(4));
    const char *dot = all_in_one ? memchr(name, '.', length) : NULL;
    if (all_in_one && dot == NULL) return 0;         /* a root module: searcher 3's */
    lua_pushvalue(L, lua_upvalueindex(2));
    if (dot != NULL) lua_pushlstring(L, name, (size_t)(dot - name));   /* the root module's library */
    else lua_pushvalue(L, 1);
    if (lua_getfield(L, lua_upvalueindex(3), "cpath") != LUA_TSTRING)
        return luaL_error(L, "'package.cpath' must be a string");
    lua_call(L, 2, 2);
    if (!lua_toboolean(L, -2)) return 1;             /* "no file …" */
    int file = lua_gettop(L) - 1;
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    luaL_addstring(&b, "require ");
    add_quoted(&b, L, 1);
    luaL_addstring(&b, " would load native code (");
    push_plain_text(L, file);
    luaL_addvalue(&b);
    luaL_addstring(&b, ")");
    luaL_pushresult(&b);
    return stop_with_reason(L);
}

/// package.searchers[2], text only: the stock one loads precompiled chunks
/// too. Finds `name` on package.path as it does, loads the file in text
/// mode, and says what it says. Upvalues: 2 package.searchpath, 3 the
/// package table.
static int text_searcher(lua_State *L) {
    const char *name = luaL_checkstring(L, 1);
    lua_settop(L, 1);
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_pushvalue(L, 1);
    if (lua_getfield(L, lua_upvalueindex(3), "path") != LUA_TSTRING)
        return luaL_error(L, "'package.path' must be a string");
    lua_call(L, 2, 2);
    if (!lua_toboolean(L, -2)) return 1;             /* "no file …" */
    lua_pop(L, 1);
    const char *filename = lua_tostring(L, -1);
    if (luaL_loadfilex(L, filename, "t") != LUA_OK)
        return luaL_error(L, "error loading module '%s' from file '%s':\n\t%s", name, filename, lua_tostring(L, -1));
    lua_insert(L, -2);                               /* the chunk, then its file name */
    return 2;
}

static void guard_package(lua_State *L, int stop) {
    if (lua_getglobal(L, "package") != LUA_TTABLE) {
        lua_pop(L, 1);
        return;
    }
    int package = lua_gettop(L);
    refuse(L, stop, package, "loadlib", "package.loadlib", "would load native code");
    lua_getfield(L, package, "searchpath");
    int searchpath = lua_gettop(L);
    if (lua_getfield(L, package, "searchers") == LUA_TTABLE) {
        int searchers = lua_gettop(L);
        /* Without searchpath (a sandboxed state) searcher 2 is the sandbox's,
           text only already, and there are no C searchers. */
        if (lua_isfunction(L, searchpath) && lua_geti(L, searchers, 2) != LUA_TNIL) {
            lua_pushvalue(L, stop);
            lua_pushvalue(L, searchpath);
            lua_pushvalue(L, package);
            lua_pushcclosure(L, text_searcher, 3);
            lua_seti(L, searchers, 2);
        }
        lua_settop(L, searchers);
        for (int i = 3; i <= 4; i++) {               /* the C library searchers */
            if (lua_geti(L, searchers, i) == LUA_TNIL) {
                lua_pop(L, 1);
                continue;
            }
            lua_pop(L, 1);
            lua_pushvalue(L, stop);
            lua_pushvalue(L, searchpath);
            lua_pushvalue(L, package);
            lua_pushboolean(L, i == 4);
            lua_pushcclosure(L, guarded_searcher, 4);
            lua_seti(L, searchers, i);
        }
    }
    lua_settop(L, package - 1);
}

// MARK: - The library: stopped modules, spec stubs, loaded files

/// Pushes the stopped copy of the value at `value` (functions replaced by
/// refusals, tables copied once each, the rest as is); the value's path
/// is on top of the stack (popped). Upvalue 2 of the caller: reach.
static void push_stopped(lua_State *L, int value, int seen, int reach, int depth) {
    int path = lua_gettop(L);
    switch (lua_type(L, value)) {
    case LUA_TFUNCTION:
        lua_pushvalue(L, path);
        lua_pushliteral(L, ": ");
        lua_pushvalue(L, reach);
        lua_pushliteral(L, ", which check never does");
        lua_concat(L, 4);
        push_refusal(L, STOP);
        break;
    case LUA_TTABLE: {
        lua_pushvalue(L, value);
        if (lua_rawget(L, seen) != LUA_TNIL) break;  /* copied already (a cycle, or shared) */
        lua_pop(L, 1);
        if (depth >= MAX_MODULE_DEPTH) luaL_error(L, "a plugin module nests tables more than %d deep", MAX_MODULE_DEPTH);
        luaL_checkstack(L, 8, "copying a plugin module");
        lua_newtable(L);
        int copy = lua_gettop(L);
        lua_pushvalue(L, value);
        lua_pushvalue(L, copy);
        lua_rawset(L, seen);
        lua_pushnil(L);
        while (lua_next(L, value)) {                 /* key, item */
            int item = lua_gettop(L);
            if (lua_rawlen(L, path) == 0) luaL_tolstring(L, item - 1, NULL);
            else {
                lua_pushvalue(L, path);
                lua_pushliteral(L, ".");
                luaL_tolstring(L, item - 1, NULL);
                lua_concat(L, 3);
            }
            push_stopped(L, item, seen, reach, depth + 1);
            lua_pushvalue(L, item - 1);
            lua_insert(L, -2);
            lua_rawset(L, copy);
            lua_pop(L, 1);                            /* the item; the key stays for next */
        }
        break;
    }
    default:
        lua_pushvalue(L, value);
    }
    lua_remove(L, path);
}

/// stopped(module, reach)
static int stopped(lua_State *L) {
    lua_settop(L, 2);
    luaL_checkstring(L, 2);
    lua_newtable(L);                                 /* seen: 3 */
    lua_pushliteral(L, "");
    push_stopped(L, 1, 3, 2, 0);
    return 1;
}

/// spec_stubs(): compiles the stubs (upvalue 1: their source) and runs them
/// with debug.getinfo, select, type, setmetatable, rawget and tostring (upvalues 2-7).
static int spec_stubs(lua_State *L) {
    size_t length;
    const char *source = lua_tolstring(L, lua_upvalueindex(1), &length);
    if (source == NULL) return luaL_error(L, "the spec stubs have no source");
    if (luaL_loadbufferx(L, source, length, CHECK_CHUNK, "t") != LUA_OK) return lua_error(L);
    for (int i = 2; i <= 7; i++) lua_pushvalue(L, lua_upvalueindex(i));
    lua_call(L, 6, 1);
    lua_call(L, 0, 1);
    return 1;
}

/// loaded_files(initial): the files of the modules loaded since the dry run
/// began, found as `require` found them: on package.path, or on `initial`
/// (the path when the run began). Upvalues: 1 package.loaded, 2 what it
/// held when the dry run began, 3 package.preload, 4 package.searchpath,
/// 5 the package table.
static int loaded_files(lua_State *L) {
    lua_settop(L, 1);
    int initial = 1;
    lua_newtable(L);
    int files = lua_gettop(L);
    lua_Integer count = 0;
    int loaded = lua_upvalueindex(1), before = lua_upvalueindex(2);
    lua_pushnil(L);
    while (lua_next(L, loaded)) {                    /* name, value */
        int value = lua_gettop(L), name = value - 1;
        if (lua_type(L, name) == LUA_TSTRING) {
            lua_pushvalue(L, name);
            lua_rawget(L, before);
            int same = lua_rawequal(L, -1, value);
            lua_pop(L, 1);
            lua_pushvalue(L, name);
            int preloaded = lua_gettable(L, lua_upvalueindex(3)) != LUA_TNIL;
            lua_pop(L, 1);
            if (!same && !preloaded) {
                lua_pushvalue(L, lua_upvalueindex(4));
                lua_pushvalue(L, name);
                lua_getfield(L, lua_upvalueindex(5), "path");
                lua_call(L, 2, 1);
                if (!lua_toboolean(L, -1) && lua_toboolean(L, initial)) {
                    lua_pop(L, 1);
                    lua_pushvalue(L, lua_upvalueindex(4));
                    lua_pushvalue(L, name);
                    lua_pushvalue(L, initial);
                    lua_call(L, 2, 1);
                }
                if (lua_toboolean(L, -1)) lua_rawseti(L, files, ++count);
                else lua_pop(L, 1);
            }
        }
        lua_pop(L, 1);
    }
    return 1;
}

/// Adds loaded_files to the library at `library` when there is a package
/// library with its loaded, preload and searchpath.
static void add_loaded_files(lua_State *L, int library) {
    int top = lua_gettop(L);
    if (lua_getglobal(L, "package") != LUA_TTABLE) { lua_settop(L, top); return; }
    int package = lua_gettop(L);
    if (lua_getfield(L, package, "loaded") != LUA_TTABLE) { lua_settop(L, top); return; }
    int loaded = lua_gettop(L);
    lua_newtable(L);                                 /* what is loaded now */
    int before = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, loaded)) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, before);
    }
    lua_getfield(L, package, "preload");
    lua_getfield(L, package, "searchpath");
    lua_pushvalue(L, package);
    lua_pushcclosure(L, loaded_files, 5);
    lua_setfield(L, library, "loaded_files");
    lua_settop(L, top);
}

int fh_dry_run_library(lua_State *L) {
    lua_settop(L, 2);
    luaL_checktype(L, 1, LUA_TFUNCTION);
    luaL_checktype(L, 2, LUA_TSTRING);
    int stop = 1;

    /* The dry run's debug library reads stacks and nothing else: nothing may
       reach the replaced functions (upvalues) or the plugins' real classes. */
    lua_newtable(L);
    int debug = lua_gettop(L);
    lua_pushnil(L);                                  /* getinfo, for the spec stubs */
    int getinfo = lua_gettop(L);
    if (lua_getglobal(L, "debug") == LUA_TTABLE) {
        lua_getfield(L, -1, "getinfo");
        lua_pushvalue(L, -1);
        lua_replace(L, getinfo);
        lua_pushcclosure(L, restricted_getinfo, 1);
        lua_setfield(L, debug, "getinfo");
        lua_getfield(L, -1, "traceback");
        lua_setfield(L, debug, "traceback");
    }
    lua_pop(L, 1);
    lua_pushvalue(L, debug);
    lua_setglobal(L, "debug");
    if (lua_getglobal(L, "package") == LUA_TTABLE && lua_getfield(L, -1, "loaded") == LUA_TTABLE) {
        lua_pushvalue(L, debug);
        lua_setfield(L, -2, "debug");
    }
    lua_settop(L, getinfo);

    lua_getglobal(L, "loadfile");                    /* the original, for dofile */
    int original_loadfile = lua_gettop(L);
    lua_pushglobaltable(L);
    wrap_field(L, stop, lua_gettop(L), "load", text_load);
    wrap_field(L, stop, lua_gettop(L), "loadfile", text_loadfile);
    lua_pop(L, 1);
    if (lua_isnil(L, original_loadfile)) lua_pushnil(L);   /* no text-only dofile without it */
    else {
        lua_pushvalue(L, stop);
        lua_pushvalue(L, original_loadfile);
        lua_pushcclosure(L, text_dofile, 2);
    }
    lua_setglobal(L, "dofile");
    lua_settop(L, getinfo);
    guard_io(L, stop);
    guard_os(L, stop);
    guard_package(L, stop);

    lua_createtable(L, 0, 3);
    int library = lua_gettop(L);
    lua_pushvalue(L, stop);
    lua_pushcclosure(L, stopped, 1);
    lua_setfield(L, library, "stopped");
    lua_pushvalue(L, 2);                             /* the stubs' source */
    lua_pushvalue(L, getinfo);
    lua_getglobal(L, "select");
    lua_getglobal(L, "type");
    lua_getglobal(L, "setmetatable");
    lua_getglobal(L, "rawget");
    lua_getglobal(L, "tostring");
    lua_pushcclosure(L, spec_stubs, 7);
    lua_setfield(L, library, "spec_stubs");
    add_loaded_files(L, library);
    return 1;
}
