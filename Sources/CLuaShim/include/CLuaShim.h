// CLuaShim — the part of the Lua bridge that has to be C.
//
// Swift must never call a Lua API function that can raise a Lua error (that
// would longjmp through Swift frames). Everything that raises lives here:
//  - the trampoline that Lua calls for a Swift closure, which turns the
//    closure's "raise" marker into lua_error;
//  - the message handler used by every protected call from Swift;
//  - protected table access, loading and collection (they may run metamethods);
//  - the memory-capped allocator and the instruction / time / interrupt hook.
// It also re-exports Lua's macros (lua_pcall, lua_pop, …) as functions, which
// Swift cannot import.
//
// The sources, by concern: calls.c (entering Lua, the message handler,
// protected calls and table access), objects.c (Swift objects and functions
// in Lua), limits.c (memory cap, hook, Ctrl-C), watchdog.c (time limits),
// state.c (a state's life), libraries.c (the standard libraries and their
// guards), coroutines.c and xpcall.c (stock functions made stoppable),
// child_processes.c (os.execute and io.popen in a group of their own),
// process_tree.c (descendants ended with the process), collector.c,
// close_value.c, error_values.c and main_thread.c.
#ifndef CLUASHIM_H
#define CLUASHIM_H

#include <stddef.h>
#include <lua.h>
#include <lualib.h>
#include <lauxlib.h>

// The bridge follows Lua 5.4's API and behaviour (the extra space,
// lua_resetthread, to-be-closed variables, the generational collector, warn,
// the message formats it reads back): another version must fail here, not
// misbehave.
#if !defined(LUA_VERSION_NUM) || LUA_VERSION_NUM != 504
#error "factoryhost needs Lua 5.4 (pkg-config lua5.4)"
#endif

// MARK: Callbacks into Swift

/// What a Swift closure returns to the trampoline: the number of results it
/// pushed (>= 0), or one of these markers with the error value on top.
#define FH_RAISE (-1)        /* raise the value on top of the stack as it is */
#define FH_RAISE_WHERE (-2)  /* prefix the message on top with the caller's "file:line: ", then raise */
/* Under the message on top, the id of a kept error value (fh_keep_error_value): */
#define FH_RAISE_VALUE (-3)  /* raise that value again as it was (the message, if it was let go) */
#define FH_RAISE_CAUSE (-4)  /* raise an error object { message = caller's "file:line: " .. message,
                                cause = that value }, whose tostring is its message */

/// Calls the Swift function `box` with the `nargs` Lua arguments on `L`'s
/// stack. `owner` is the state's owner (see fh_set_owner; NULL once closed);
/// `receiver`, for a method, is the object in argument 1 when it is exactly
/// of the receiver's class (NULL otherwise: Swift checks it).
typedef int (*fh_call_fn)(lua_State *L, void *owner, void *box, void *receiver, int nargs);
/// Releases one retained Swift reference (called from __gc, exactly once).
typedef void (*fh_release_fn)(void *object);

// MARK: State

/// Creates a state with the standard allocator wrapped in a counting, capped
/// one, a message-handler stash, and the given callbacks. NULL if out of memory.
lua_State *fh_newstate(fh_call_fn call, fh_release_fn release);
/// Closes the state (runs every pending __gc) and frees the control block.
/// Never call it while a call into the state is running (see fh_depth).
void fh_close(lua_State *L);
/// Called by fh_close_with_last after every other finalizer of the close.
typedef void (*fh_last_fn)(void *context);
/// fh_close, calling `last(context)` once every finalizer has run, before
/// Lua frees its objects (unless a script unanchored the state's last
/// finalizer). `last` must not use the state.
void fh_close_with_last(lua_State *L, fh_last_fn last, void *context);
/// fh_close for a process that ends now: every finalizer runs, then output
/// streams are flushed and the process exits with `status` — the memory
/// Lua holds is left to the exit, never walked to be freed.
_Noreturn void fh_close_and_exit(lua_State *L, int status);
/// Flushes every output stream and exits the process with `status`.
_Noreturn void fh_flush_and_exit(int status);

/// Processes this one started, and theirs (process_tree.c; Linux, else no-ops):
/// orphaned descendants re-parent to this process (so they can be found);
/// this process ends, with its own descendants, when its parent dies (even
/// by SIGKILL: SIGTERM comes here, and its handler ends the tree); and every descendant is
/// killed with SIGKILL (returns how many) — system calls only: safe from
/// the watchdog thread and from a signal handler.
void fh_adopt_orphans(void);
void fh_die_with_parent(void);
/// Gives `length` bytes of the file from `offset` back to the file system
/// (a hole; the file's size stays): 0, or -1 with errno (Linux only).
int fh_punch_hole(int fd, long long offset, long long length);
/// A command's: the process groups its script's children start in are
/// killed by a guardian process should this one die by SIGKILL (a normal
/// exit leaves them, as lua5.4 does). The guardian starts with the first.
void fh_guard_child_groups(void);
int fh_kill_descendants(void);
/// SIGINT, SIGTERM and SIGHUP (unless ignored) kill every descendant at
/// once; the process then has three seconds to report what finished and
/// call fh_die_of_ending_signal (else SIGALRM ends it); a second signal
/// ends it at once. (A runner's workers end with it, its results survive.)
void fh_end_tree_on_signals(void);
/// Any command's: SIGTERM and SIGHUP (unless the parent set it ignored) end
/// the process's descendants — a script's os.execute and io.popen children,
/// and what they started — then the process, of the signal.
void fh_end_tree_on_termination(void);
/// The signal ending this process once one is (or the parent's death),
/// else 0: its descendants were killed — a worker found dead now was
/// killed by it, and is not to be reported as failing.
int fh_tree_is_ending(void);
/// Ends the process as the signal that is ending it would (exit status
/// 128 + signal); does nothing if none is.
void fh_die_of_ending_signal(void);
/// The whole command's deadline, from now (a SIGALRM timer): after `seconds` it writes
/// `message` (and a newline) to standard error, kills every descendant and
/// ends the process with `status` — wherever the command is (blocked
/// opening a FIFO, validating, rendering). Returns 0 if it could not start.
int fh_arm_command_deadline(double seconds, const char *message, int status);
/// How many protected calls from Swift are running on this state now, plus
/// Swift objects being released by __gc (close only when it is 0).
int fh_depth(lua_State *L);
/// Frees registry slot `ref` on the owner's next call (thread-safe: for a
/// reference dropped on another thread).
void fh_defer_unref(lua_State *L, int ref);
/// Frees the slots fh_defer_unref queued (owner thread only; cheap when none).
void fh_drain_unrefs(lua_State *L);

/// The Swift object that owns the state (stored unretained).
void fh_set_owner(lua_State *L, void *owner);
void *fh_owner(lua_State *L);

// MARK: Limits

/// Caps the bytes Lua may hold while Lua code runs (0 = no cap).
void fh_set_memory_limit(lua_State *L, size_t bytes);
size_t fh_memory_limit(lua_State *L);
/// Bytes currently allocated by this state.
size_t fh_memory_used(lua_State *L);
/// Caps the VM instructions one outermost call may execute (0 = no cap).
void fh_set_instruction_limit(lua_State *L, long long count);
/// Caps the wall-clock seconds one outermost call may take (<= 0 = no cap).
/// Costs nothing until it fires: when the deadline passes the stop signal
/// (SIGURG) reaches the thread running the call — from a kernel timer on
/// Linux, a watchdog thread elsewhere — and its handler sets the stop hook
/// on every Lua thread running there (coroutines included).
void fh_set_time_limit(lua_State *L, double seconds);
/// Sets a deadline `seconds` from now for every call until cleared (<= 0):
/// a whole run's limit. The earlier of it and the time limit applies.
void fh_set_deadline(lua_State *L, double seconds);
/// The most a call started now may run under the limits: the per-call time
/// limit or what the deadline leaves, whichever is less; -1 for no limit.
double fh_time_left(lua_State *L);
/// After a time limit fires, if the call has not returned `grace` seconds
/// later (stuck in a finalizer, a C function or a blocking call), the
/// watchdog prints `prefix` + what happened on standard error and ends the
/// process with `status`. `grace` < 0 (the default) never ends it.
void fh_set_hard_stop(lua_State *L, double grace, const char *prefix, int status);
/// Watches the whole process while calls run: when its resident memory has
/// grown by more than `bytes` plus max(`bytes`, 32 MB) since this call, the
/// watchdog ends it as a hard stop does ("memory limit exceeded"). 0 = off.
void fh_set_process_memory_cap(lua_State *L, size_t bytes);
/// What stopped the running code: no limit, the instruction count, the time
/// limit, a stop (fh_stop), Ctrl-C (fh_interrupt: like a limit, it stops the
/// whole call — a pcall or a message handler cannot swallow it).
#define FH_LIMIT_NONE 0
#define FH_LIMIT_INSTRUCTIONS 1
#define FH_LIMIT_TIME 2
#define FH_LIMIT_STOP 3
#define FH_LIMIT_INTERRUPT 4
/// The limit that ended the last outermost call (FH_LIMIT_…).
int fh_limit_fired(lua_State *L);
/// Makes C's standard output line-buffered (print, io.write, Swift's print).
void fh_line_buffer_stdout(void);
/* Flushes stdout: 0, the errno of the flush that failed, or -1 if an earlier write had. */
int fh_flush_stdout(void);
/// Stops the garbage collector for good: no finalizer runs from now on
/// (except at fh_close). For check's dry run after its stop.
void fh_stop_collector(lua_State *L);
/// Stops the running call for good, with `message` (its place included):
/// as when a limit fires, every Lua thread running is armed, so from the
/// next instruction or call on — a pcall's message handler, a __close or
/// __gc metamethod, a C function such as os.exit — nothing runs, and the
/// outermost call fails with `message` whatever the script catches. For
/// `check`'s stop at the first container. Call it from a C or Swift
/// function Lua called, then raise `message` (or return: the next call stops).
void fh_stop(lua_State *L, const char *message, size_t length);
/// Asks the running code to stop with "interrupted!" (async-signal-safe).
void fh_interrupt(lua_State *L);
/// Installs a SIGINT handler that interrupts `L` (as lua.c does); the previous
/// handler comes back with fh_uninstall_sigint.
void fh_install_sigint(lua_State *L);
void fh_uninstall_sigint(void);

// MARK: Calls

/// lua_pcall with a traceback message handler (the stock interpreter's), the
/// limits applied, and memory enforcement on. On a runtime error the original
/// error value is kept for fh_take_error_value.
int fh_pcall(lua_State *L, int nargs, int nresults);
/// Like fh_pcall, but called from inside a C function, so a traceback ends in
/// "[C]: in ?" exactly as with the stock interpreter running a script.
int fh_pcall_script(lua_State *L, int nargs, int nresults);
/// From now on, os.exit(code) prints that it was called as the state closes
/// and ends the process with `status` (a test worker's finalizers: Lua only
/// warns of an error raised in one then). Plain C, callable while closing.
/// Returns the status of the protected call that sets it.
int fh_exit_on_os_exit(lua_State *L, int status);
/// Pushes the original error value of the last failed fh_pcall (nil if none)
/// and forgets it.
void fh_take_error_value(lua_State *L);
/// The length of the `file:line:` the last failed fh_pcall's message begins
/// with when that place is verified — the message handler found it is the
/// place of a frame at the raise (a script's `error`, a runtime error, a
/// Swift function's error at its caller), or the one Swift raised it with
/// (fh_expect_place) — and 0 when the message has no such place.
size_t fh_error_place_length(lua_State *L);
/// The error about to be raised begins with the place `place` (`file:line:`,
/// `length` bytes): the message handler takes it as verified if the message
/// still begins with it.
void fh_expect_place(lua_State *L, const char *place, size_t length);
/// Keeps the error value on top (popped) — an error object made for
/// FH_RAISE_CAUSE is kept as its cause — and returns its id (> 0), or 0 if
/// it could not be kept. A state keeps the newest 32.
lua_Integer fh_keep_error_value(lua_State *L);
/// Pushes the error value kept under `id`, or nil if it was let go; returns its type.
int fh_push_kept_error_value(lua_State *L, lua_Integer id);
/// luaL_loadbufferx under the memory cap (loading is already protected).
int fh_loadbuffer(lua_State *L, const char *buff, size_t size, const char *name, const char *mode);
/// luaL_loadfilex under the memory cap, protected; NULL filename reads
/// standard input. Pushes the chunk, or the error message.
int fh_loadfile(lua_State *L, const char *filename, const char *mode);

// MARK: Protected access (may run metamethods)

/// t[k] where t is at `idx` and k on top: replaces k with the value. Status.
int fh_pgettable(lua_State *L, int idx);
/// t[k] = v where t is at `idx`, k and v on top: pops both (on failure,
/// leaves the error on top). Status.
int fh_psettable(lua_State *L, int idx);

// MARK: Swift objects and closures

/// Pushes the bridge's metatable `name` (kept in a private registry table),
/// creating it if needed with __gc (releases the Swift reference once),
/// __name, a sentinel, and __metatable = false (hidden from
/// getmetatable/setmetatable). Returns 1 if it was created now.
int fh_object_metatable(lua_State *L, const char *name);
/// Pushes a full userdata holding `retained` (a +1 Swift reference) of the
/// exact Swift class `type`, with the metatable a registry reference made by
/// fh_object_metatable_ref points to.
void fh_push_object_with(lua_State *L, void *retained, const void *type, int metatableRef);
/// A registry reference to the metatable `name` (created as by
/// fh_object_metatable when missing).
int fh_object_metatable_ref(lua_State *L, const char *name);
/// The Swift reference in the userdata at `idx` if it holds an object of
/// exactly the Swift class `type`; NULL otherwise (the fast check).
void *fh_to_object_of_type(lua_State *L, int idx, const void *type);
/// The Swift reference in the userdata at `idx` if it holds an object of
/// any class, not yet released; NULL otherwise.
void *fh_object_inside(lua_State *L, int idx);
/// The Swift reference in the userdata at `idx` if it carries metatable
/// `metatable` and was not yet released; NULL otherwise.
void *fh_to_object(lua_State *L, int idx, const char *metatable);
/// Pushes a Lua function that calls the Swift function `retainedBox` (a +1
/// reference, released when the function is collected). For a method,
/// `receiverType` is the exact Swift class whose objects are handed to it as
/// the receiver (NULL for a plain function).
void fh_push_closure(lua_State *L, void *retainedBox, const void *receiverType);

/// The box of the Swift function running now (call only from inside one).
void *fh_running_box(lua_State *L);

/// How Lua shows chunk `name` in messages and tracebacks (its short_src:
/// `app.lua` for "@app.lua", `[string "x = 1"]` for source text, cut to
/// LUA_IDSIZE) into `out` (`size` bytes, LUA_IDSIZE is enough). 0, or -1
/// (out empty) when no memory was left to ask.
int fh_chunk_id(lua_State *L, const char *name, char *out, size_t size);

/// Pushes "chunk:line: " for the function at `level` (luaL_where; no allocation
/// failure can raise here while Swift runs, the cap being off).
void fh_where(lua_State *L, int level);
/// 1 if code of a `__gc` finalizer or a debug hook is on `L`'s stack: what
/// runs there runs inside whatever call the collector or the hook
/// interrupted, without being that call's.
int fh_in_finalizer_or_hook(lua_State *L);
/* 1 if the running C function was called as a method (`obj:f()`). */
int fh_called_as_method(lua_State *L);
int fh_position(lua_State *L, int level, char *name, size_t *length);
/// Replaces the Swift function under the `n` values on top of the stack,
/// and the values, with that function bound to them (see
/// LuaFrame.pushBound); 0 (all popped, nothing pushed) if it is not a
/// plain Swift function or `n` is out of range.
int fh_push_bound(lua_State *L, int n);
/// The pseudo-index of bound value `i` (1-based) of the running Swift function.
int fh_bound_index(int i);
/// Pops a methods table and a property-getter function and pushes an
/// __index function for an exported type: methods by raw lookup, else the getter.
/// Pushes the userdata in slot `slot` of the weak cache table (registry
/// reference `cache`) if it holds `object` as `type`: 1, else 0 (nothing pushed).
int fh_push_cached_object(lua_State *L, int cache, lua_Integer slot, const void *object, const void *type);
/// Keeps the userdata at `idx` in slot `slot` of the cache (made before: never allocates).
void fh_cache_object(lua_State *L, int cache, lua_Integer slot, int idx);
/// A memoizing method (LuaClass.memoizingMethod): the Swift body returns its
/// result and this marker to have it remembered for the receiver and key.
void fh_push_memo_marker(lua_State *L);
/// Whether memoizing methods may answer from their memos (on by default);
/// off, every call goes to Swift (a host that watches every resolve).
void fh_set_memoizing(lua_State *L, int on);
/// Forgets every memo made so far (answers that are no longer true: a
/// container closed); memoizing methods remember anew from their next call.
void fh_forget_memos(lua_State *L);
/// Replaces the function on top of the stack by a wrapper that answers
/// obj:m(key) from its memo when it can; protected: LUA_OK, or an error
/// message in the function's place.
int fh_wrap_memoizing(lua_State *L);
void fh_push_exported_index(lua_State *L);

// MARK: Libraries

/// The module path (`dir/?.lua;…`) `require` searches in sandboxed states.
void fh_set_module_path(lua_State *L, const char *path);

/// Opens the standard libraries like the stock interpreter (GC stopped while
/// opening, then generational mode). With `sandboxed`, removes io, debug,
/// os.execute/remove/rename/exit/getenv/tmpname/setlocale, dofile, loadfile,
/// package.loadlib and the C searchers; `load` and `require` accept text only.
/// Runs protected; returns the status.
int fh_openlibs(lua_State *L, int sandboxed);

/// A lua_CFunction (call it protected): close(value) -> closed. Calls the
/// value's __close metamethod (the real metatable's, with nil as the
/// error), or else, for a table, value:close(); false if it has neither.
int fh_close_value(lua_State *L);

// MARK: Lua's macros, as functions

static inline int fh_errfile(void) { return LUA_ERRFILE; }
/// A number unique in the process (1, 2, …), for telling states apart when
/// addresses may be reused.
unsigned long long fh_new_serial(void);
/// A full garbage collection, protected (finalizers run under the limits). Status.
int fh_collect(lua_State *L);
/// Whether a `pcall` or `xpcall` of the script's is on the stack of `L`, so
/// that an error raised now would be caught by the script (never raises).
int fh_error_caught_by_script(lua_State *L);
/// Marks the start of a stretch whose garbage fh_collect_since_mark collects.
int fh_mark_young(lua_State *L);
/// Collects what became garbage since the mark: a young collection if no
/// collection ran since, else a full one (generational mode restored), protected.
int fh_collect_since_mark(lua_State *L);
/// lua_next, protected (see collector.c): 1 pair pushed, 0 the end, -1 the
/// error message pushed. Needs 3 free stack slots.
int fh_pnext(lua_State *L, int idx);
static inline void fh_pop(lua_State *L, int n) { lua_pop(L, n); }
static inline int fh_isnoneornil(lua_State *L, int idx) { return lua_isnoneornil(L, idx); }
static inline const char *fh_tolstring(lua_State *L, int idx, size_t *len) { return lua_tolstring(L, idx, len); }
static inline int fh_ref(lua_State *L) { return luaL_ref(L, LUA_REGISTRYINDEX); }
static inline void fh_unref(lua_State *L, int ref) { luaL_unref(L, LUA_REGISTRYINDEX, ref); }
static inline int fh_getref(lua_State *L, int ref) { return lua_rawgeti(L, LUA_REGISTRYINDEX, ref); }
static inline void fh_pushglobaltable(lua_State *L) { lua_pushglobaltable(L); }

/// Whether the calling thread is the process's main thread (1) or not (0).
int fh_is_main_thread(void);

#endif
